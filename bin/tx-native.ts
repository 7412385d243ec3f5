#!/usr/bin/env node
import { nativeTool } from '../lib/commands/native.js';
import { main } from '../lib/core/run.js';

main(nativeTool);
