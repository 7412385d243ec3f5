#!/usr/bin/env node
import { start } from '../lib/core/start.cjs';

start('tx-stats', async () => (await import('../lib/commands/stats.js')).statsTool);
