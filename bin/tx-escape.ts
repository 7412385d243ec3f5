#!/usr/bin/env node
import { start } from '../lib/core/start.cjs';

start('tx-escape', async () => (await import('../lib/commands/escape.js')).escapeTool);
