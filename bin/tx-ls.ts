#!/usr/bin/env node
import { lsTool } from '../lib/commands/ls.js';
import { main } from '../lib/core/run.js';

main(lsTool);
