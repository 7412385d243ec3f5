#!/usr/bin/env node
import { start } from '../lib/core/start.cjs';

start('tx-native', async () => (await import('../lib/commands/native.js')).nativeTool);
