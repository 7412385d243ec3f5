#!/usr/bin/env node
import { start } from '../lib/core/start.cjs';

start('tx-continue', async () => (await import('../lib/commands/continue.js')).continueTool);
