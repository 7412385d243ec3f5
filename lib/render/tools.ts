// What the page and the Markdown say about a tool call: a one-line digest for the
// folded summary, and the body shown when it is opened.
import type { ToolUseBlock } from '../common.js';
import { callDiff } from './diff.js';
import { jsonView } from './json-view.js';
import { BLOCK_CAP } from './cap.js';
import { formatCount } from './tally.js';

/** What a JSON view cut at the page's cap says at its end. */
const CUT_NOTE = `the rest not shown (a page shows ${formatCount(BLOCK_CAP)} characters of one block; the transcript has it all)`;

/** How a call's input is shown when opened (`none` when the digest already says all of it). */
export type CallBody = { kind: 'diff'; text: string } | { kind: 'code'; lang: string; text: string } | { kind: 'json'; text: string } | { kind: 'todos'; text: string; todos: Todo[] } | { kind: 'none'; text: '' };

/** One item of a to-do list a call wrote (TodoWrite): its text and whether it is done, under way or to do. */
export interface Todo {
  content: string;
  status: 'completed' | 'in_progress' | 'pending';
}

/** The to-do list a call's input holds (`todos`: items with `content` and `status`), or null. */
function todos(input: Record<string, unknown>): Todo[] | null {
  const list = input?.todos;
  if (!Array.isArray(list) || list.length === 0 || list.length > 1000) return null;
  const out: Todo[] = [];
  for (const item of list) {
    if (!item || typeof item !== 'object' || typeof item.content !== 'string') return null;
    const status = item.status === 'completed' || item.status === 'in_progress' ? item.status : 'pending';
    out.push({ content: item.content, status });
  }
  return out;
}

/** What a shell call says it does (its `description`), when it says. */
export function callPurpose(call: ToolUseBlock): string | null {
  const v = call.tool;
  return v?.kind === 'bash' && typeof v.description === 'string' && v.description !== '' ? firstLine(v.description) : null;
}

/** The first line of a text, from its first 4,096 characters (a digest needs no more). */
const firstLine = (s: string) => {
  const head = s.slice(0, 4096).trimStart();
  const nl = head.indexOf('\n');
  const line = nl < 0 ? head : head.slice(0, nl);
  return line.length > 160 ? line.slice(0, 157) + '…' : line;
};

/** A one-line description of the call: the command, the file, the task. */
export function callDigest(call: ToolUseBlock): string {
  const v = call.tool;
  switch (v?.kind) {
    case 'bash':
      return firstLine(v.command);
    case 'read':
    case 'write':
    case 'edit':
    case 'multi_edit':
      return v.file_path;
    case 'agent':
      return v.description ?? firstLine(v.prompt);
    case 'skill':
      return v.args ? `${v.skill} ${firstLine(v.args)}` : v.skill;
    case 'command':
      // The call is named after the command already.
      return v.args ? firstLine(v.args) : '';
  }
  for (const key of ['description', 'command', 'cmd', 'file_path', 'path', 'pattern', 'query', 'url', 'prompt']) {
    const value = call.input[key];
    if (typeof value === 'string' && value !== '') return firstLine(value);
    if (Array.isArray(value) && value.every((x) => typeof x === 'string')) return firstLine(value.join(' '));
  }
  // A list (TodoWrite's todos, a batch of questions): its name and length.
  for (const [key, value] of Object.entries(call.input ?? {})) if (Array.isArray(value)) return `${value.length} ${key}`;
  return '';
}

/** The body of the call: a diff for file changes, the command for shells, else its input as JSON. */
export function callBody(call: ToolUseBlock): CallBody {
  const diff = callDiff(call);
  if (diff !== null) return { kind: 'diff', text: diff };
  const v = call.tool;
  if (v?.kind === 'bash') return { kind: 'code', lang: 'sh', text: v.command };
  if (v?.kind === 'read' && Object.keys(call.input).length === 1) return { kind: 'none', text: '' };
  const list = todos(call.input);
  if (list) return { kind: 'todos', text: '', todos: list };
  const view = jsonView(call.input ?? null);
  return { kind: 'json', text: view.cut ? `${view.text}\n… ${CUT_NOTE}` : view.text };
}

/** The text of a tool result's content, with what cannot be shown as text (images) named. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return viewText(content ?? null);
  const parts: string[] = [];
  for (const b of content) {
    if (b && typeof b === 'object' && b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
    else if (b && typeof b === 'object' && b.type === 'image') continue;
    else parts.push(viewText(b));
  }
  return parts.join('\n');
}

/** A value's JSON view, with a note where it was cut. */
export function viewText(value: unknown): string {
  const view = jsonView(value);
  return view.cut ? `${view.text}\n… ${CUT_NOTE}` : view.text;
}
