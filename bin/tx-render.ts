#!/usr/bin/env node
import { renderTool } from '../lib/commands/render.js';
import { main } from '../lib/core/run.js';

main(renderTool);
