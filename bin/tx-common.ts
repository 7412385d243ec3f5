#!/usr/bin/env node
import { start } from '../lib/core/start.js';

start('tx-common', async () => (await import('../lib/commands/common.js')).commonTool);
