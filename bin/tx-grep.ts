#!/usr/bin/env node
import { grepTool } from '../lib/commands/grep.js';
import { main } from '../lib/core/run.js';

main(grepTool);
