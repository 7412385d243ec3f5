#!/usr/bin/env node
import { statsTool } from '../lib/commands/stats.js';
import { main } from '../lib/core/run.js';

main(statsTool);
