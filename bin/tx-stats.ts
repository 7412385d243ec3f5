#!/usr/bin/env node
import { start } from '../lib/core/start.js';

start('tx-stats', async () => (await import('../lib/commands/stats.js')).statsTool);
