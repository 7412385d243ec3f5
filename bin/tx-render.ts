#!/usr/bin/env node
import { start } from '../lib/core/start.js';

start('tx-render', async () => (await import('../lib/commands/render.js')).renderTool);
