#!/usr/bin/env node
import { start } from '../lib/core/start.cjs';

start('tx-grep', async () => (await import('../lib/commands/grep.js')).grepTool);
