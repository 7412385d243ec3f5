#!/usr/bin/env node
import { start } from '../lib/core/start.cjs';

start('tx-redact', async () => (await import('../lib/commands/redact.js')).redactTool);
