// A worker thread of runOnWorkers(): it runs the files it is sent (serve-files.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { serveFiles, type WorkerStart } from './serve-files.js';

serveFiles(parentPort!, workerData as WorkerStart);
