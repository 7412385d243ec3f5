#!/usr/bin/env node
import { start } from '../lib/core/start.cjs';

start('tx-ls', async () => (await import('../lib/commands/ls.js')).lsTool);
