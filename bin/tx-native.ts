#!/usr/bin/env node
import { start } from '../lib/core/start.js';

start('tx-native', async () => (await import('../lib/commands/native.js')).nativeTool);
