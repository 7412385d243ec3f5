#!/usr/bin/env node
import { parseTool } from '../lib/commands/parse.js';
import { main } from '../lib/core/run.js';

main(parseTool);
