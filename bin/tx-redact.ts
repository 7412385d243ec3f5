#!/usr/bin/env node
import { start } from '../lib/core/start.js';

start('tx-redact', async () => (await import('../lib/commands/redact.js')).redactTool);
