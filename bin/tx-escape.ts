#!/usr/bin/env node
import { start } from '../lib/core/start.js';

start('tx-escape', async () => (await import('../lib/commands/escape.js')).escapeTool);
