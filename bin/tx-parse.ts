#!/usr/bin/env node
import { start } from '../lib/core/start.js';

start('tx-parse', async () => (await import('../lib/commands/parse.js')).parseTool);
