#!/usr/bin/env node
import { redactTool } from '../lib/commands/redact.js';
import { main } from '../lib/core/run.js';

main(redactTool);
