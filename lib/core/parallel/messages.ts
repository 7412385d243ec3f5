// What the main thread and a worker of a --jobs run say to each other (workers.ts and
// serve-files.ts speak it; a worker thread and the main thread's share alike).
import type { FilePart } from '../input/file-parts.js';

/** What the main thread sends a worker. */
export type ToWorker = { type: 'file'; index: number; file: string; part?: FilePart } | { type: 'ack'; bytes: number; batch?: ArrayBuffer } | { type: 'stop' };
/** What a worker says (sent in arrays: everything said since its last message). */
export type FromWorker =
  | { type: 'out'; index: number; chunk: Uint8Array }
  | { type: 'data'; index: number; value: unknown }
  | { type: 'err'; index: number; text: string }
  | { type: 'once'; index: number; first: string; others: string }
  | { type: 'done'; index: number; status: number };

/** Where the tool's definition is: the module that exports it, and its name. */
export interface ToolRef {
  url: string;
  name: string;
}
