#!/usr/bin/env node
import { start } from '../lib/core/start.cjs';

start('tx-render', async () => (await import('../lib/commands/render.js')).renderTool);
