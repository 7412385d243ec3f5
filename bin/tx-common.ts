#!/usr/bin/env node
import { commonTool } from '../lib/commands/common.js';
import { main } from '../lib/core/run.js';

main(commonTool);
