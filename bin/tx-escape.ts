#!/usr/bin/env node
import { escapeTool } from '../lib/commands/escape.js';
import { main } from '../lib/core/run.js';

main(escapeTool);
