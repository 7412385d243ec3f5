#!/usr/bin/env node
import { filterTool } from '../lib/commands/filter.js';
import { main } from '../lib/core/run.js';

main(filterTool);
