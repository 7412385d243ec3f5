#!/usr/bin/env node
import { start } from '../lib/core/start.cjs';

start('tx-filter', async () => (await import('../lib/commands/filter.js')).filterTool);
