#!/usr/bin/env node
import { start } from '../lib/core/start.cjs';

start('tx-parse', async () => (await import('../lib/commands/parse.js')).parseTool);
