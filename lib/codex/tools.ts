// Tool calls and their outputs in a Codex rollout: the name a call goes by, its input,
// an output's text, and whether the output reports a failure. Codex has no is_error
// flag; a failure shows as an exit code in the output text (`Process exited with code
// N` from exec_command, `Exit code: N` from shell and apply_patch, or a JSON
// `{"output","metadata":{"exit_code"}}` string from early shells), as `success:false`
// on an output object, or as one of the messages the client itself writes.
import { CALL_OUTPUT_TYPES, CALL_TYPES } from './rollout.js';

/** Outputs the client writes when a call could not run at all (codex-rs core). */
const FAILURE_PREFIXES = ['apply_patch verification failed', 'failed to parse function arguments', 'unsupported call', 'aborted', 'execution error'];

/** The name a call goes by in counts and --name: the function's name, or the built-in tool's. */
export function callName(item: any): string {
  if (typeof item?.name === 'string') return item.name;
  switch (item?.type) {
    case 'local_shell_call':
      return 'local_shell';
    case 'web_search_call':
      return 'web_search';
    case 'tool_search_call':
      return 'tool_search';
    case 'image_generation_call':
      return 'image_generation';
    default:
      return '(none)';
  }
}

/** True for a response item that calls a tool. */
export function isCall(item: any): boolean {
  return item !== null && typeof item === 'object' && CALL_TYPES.has(item.type);
}

/** True for a response item that is a tool call's output. */
export function isCallOutput(item: any): boolean {
  return item !== null && typeof item === 'object' && CALL_OUTPUT_TYPES.has(item.type);
}

/** A call's input: function arguments parsed (the raw string when they are not JSON), a custom tool's text, a built-in's action. */
export function callInput(item: any): unknown {
  if (item.type === 'function_call') {
    if (typeof item.arguments !== 'string') return item.arguments ?? null;
    try {
      return JSON.parse(item.arguments);
    } catch {
      return item.arguments;
    }
  }
  if (item.type === 'custom_tool_call') return item.input ?? null;
  return item.action ?? item.arguments ?? null;
}

/** The text of a tool output: a string as it is, content items' text joined, an image as `[image]`. */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map(outputText).join('\n');
  if (output && typeof output === 'object') {
    const o = output as Record<string, unknown>;
    if (typeof o.text === 'string') return o.text;
    if (o.type === 'input_image') return '[image]';
    if (typeof o.content === 'string') return o.content;
    if (Array.isArray(o.content_items)) return outputText(o.content_items);
    if (Array.isArray(o.content)) return outputText(o.content);
  }
  return '';
}

const EXEC_EXIT = /(?:^|\n)Process exited with code (-?\d+)(?:\n|$)/;
const SHELL_EXIT = /^Exit code: (-?\d+)(?:\n|$)/;

/** The exit code an output reports, or null when it reports none. */
export function exitCode(output: unknown): number | null {
  const text = outputText(output);
  const m = EXEC_EXIT.exec(text) ?? SHELL_EXIT.exec(text);
  if (m) return Number(m[1]);
  if (text.startsWith('{') && text.includes('exit_code')) {
    try {
      const v = JSON.parse(text);
      if (v && typeof v.metadata?.exit_code === 'number') return v.metadata.exit_code;
    } catch {
      // Not the JSON form: no exit code.
    }
  }
  return null;
}

/** True when a tool output reports a failure (rules above). */
export function outputFailed(output: unknown): boolean {
  const code = exitCode(output);
  if (code !== null) return code !== 0;
  if (output && typeof output === 'object' && !Array.isArray(output) && (output as { success?: unknown }).success === false) return true;
  const text = outputText(output);
  return FAILURE_PREFIXES.some((p) => text.startsWith(p));
}
