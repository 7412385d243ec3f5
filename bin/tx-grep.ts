#!/usr/bin/env node
import { start } from '../lib/core/start.js';

start('tx-grep', async () => (await import('../lib/commands/grep.js')).grepTool);
