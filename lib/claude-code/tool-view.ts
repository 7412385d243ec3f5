// Typed views of the tool calls Common knows by name. A view is only given when the
// input fits the tool's schema exactly as far as the view reads it: a call whose input
// does not fit stays raw (no view), so a reader can trust every field of a view.
import type { ToolView } from '../common.js';

type Input = Record<string, unknown>;

const isString = (v: unknown): v is string => typeof v === 'string';
function optional<T>(v: unknown, check: (x: unknown) => x is T): v is T | undefined {
  return v === undefined || check(v);
}
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';

function bash(input: Input): ToolView | undefined {
  const { command, description, timeout, run_in_background } = input;
  if (!isString(command) || !optional(description, isString) || !optional(timeout, isNumber) || !optional(run_in_background, isBoolean)) return undefined;
  const view: ToolView = { kind: 'bash', command };
  if (description !== undefined) view.description = description;
  if (timeout !== undefined) view.timeout = timeout;
  if (run_in_background !== undefined) view.run_in_background = run_in_background;
  return view;
}

function read(input: Input): ToolView | undefined {
  const { file_path, offset, limit } = input;
  if (!isString(file_path) || !optional(offset, isNumber) || !optional(limit, isNumber)) return undefined;
  const view: ToolView = { kind: 'read', file_path };
  if (offset !== undefined) view.offset = offset;
  if (limit !== undefined) view.limit = limit;
  return view;
}

function write(input: Input): ToolView | undefined {
  const { file_path, content } = input;
  if (!isString(file_path) || !isString(content)) return undefined;
  return { kind: 'write', file_path, content };
}

function oneEdit(e: unknown): { old_string: string; new_string: string; replace_all?: boolean } | undefined {
  if (!e || typeof e !== 'object' || Array.isArray(e)) return undefined;
  const { old_string, new_string, replace_all } = e as Input;
  if (!isString(old_string) || !isString(new_string) || !optional(replace_all, isBoolean)) return undefined;
  return replace_all === undefined ? { old_string, new_string } : { old_string, new_string, replace_all };
}

function edit(input: Input): ToolView | undefined {
  const { file_path } = input;
  const e = oneEdit(input);
  if (!isString(file_path) || !e) return undefined;
  return { kind: 'edit', file_path, ...e };
}

function multiEdit(input: Input): ToolView | undefined {
  const { file_path, edits } = input;
  if (!isString(file_path) || !Array.isArray(edits)) return undefined;
  const views = edits.map(oneEdit);
  if (views.some((v) => v === undefined)) return undefined;
  return { kind: 'multi_edit', file_path, edits: views as { old_string: string; new_string: string; replace_all?: boolean }[] };
}

function agent(input: Input): ToolView | undefined {
  const { prompt, description, subagent_type } = input;
  if (!isString(prompt) || !optional(description, isString) || !optional(subagent_type, isString)) return undefined;
  const view: ToolView = { kind: 'agent', prompt };
  if (description !== undefined) view.description = description;
  if (subagent_type !== undefined) view.subagent_type = subagent_type;
  return view;
}

function skill(input: Input): ToolView | undefined {
  const { skill: name, args } = input;
  if (!isString(name) || !optional(args, isString)) return undefined;
  return args === undefined ? { kind: 'skill', skill: name } : { kind: 'skill', skill: name, args };
}

const VIEWS: Record<string, (input: Input) => ToolView | undefined> = {
  Bash: bash,
  Read: read,
  Write: write,
  Edit: edit,
  MultiEdit: multiEdit,
  // The subagent tool was `Task` before it was renamed `Agent`.
  Task: agent,
  Agent: agent,
  Skill: skill,
};

/** The typed view of a model's tool call, or undefined for a raw tool (unknown name, or input outside the view's schema). */
export function toolView(name: string, input: Input): ToolView | undefined {
  const view = Object.hasOwn(VIEWS, name) ? VIEWS[name] : undefined;
  return view ? view(input) : undefined;
}

/** The view of a slash command a person ran. */
export function commandView(name: string, args?: string, message?: string): ToolView {
  const view: ToolView = { kind: 'command', name };
  if (args !== undefined) view.args = args;
  if (message !== undefined) view.message = message;
  return view;
}
