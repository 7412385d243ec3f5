#!/usr/bin/env node
import { start } from '../lib/core/start.cjs';

start('tx-common', async () => (await import('../lib/commands/common.js')).commonTool);
