#!/usr/bin/env node
import { start } from '../lib/core/start.js';

start('tx-continue', async () => (await import('../lib/commands/continue.js')).continueTool);
