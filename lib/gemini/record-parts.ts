// Pieces of the message records a Common session is written as (from-common.ts): a
// thinking block as the thought summary the client keeps beside a gemini record, a
// tool_result as a call's result parts, a command a person ran as the text they typed.
import { stringifyJson } from '../core/json/json-text.js';
import type { Block, ToolResultBlock, ToolUseBlock } from '../common.js';
import { blockPart, type Part } from './parts.js';

/** A thought summary as the client records it: `**subject** description` split, with the time. */
export function thoughtSummary(text: string, timestamp: string): { subject: string; description: string; timestamp: string } {
  // The client's own split (geminiChat.ts extractThoughtFromContent): the first bold span is the subject.
  const m = /\*\*(.*?)\*\*/s.exec(text);
  const subject = m ? m[1]!.trim() : '';
  const description = (m ? text.replace(/\*\*(.*?)\*\*/s, '') : text).trim();
  return { subject, description, timestamp };
}

/** True when a thinking text comes back unchanged from its summary (the client rebuilds `**subject** description`). */
export function summaryKeepsText(text: string): boolean {
  const s = thoughtSummary(text, '');
  return (s.subject !== '' ? `**${s.subject}** ${s.description}` : s.description) === text;
}

/** The text of a result's content: a string, or its text blocks joined. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : stringifyJson(content);
  return content
    .filter((b): b is { type: 'text'; text: string } => !!b && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('\n');
}

/**
 * A tool_result as a call's result parts: a functionResponse (`{output}`, or `{error}` for
 * an error) named after its call, then the result's other blocks as parts (an image as
 * inline data, more text as text parts). The first text block is the output.
 */
export function resultParts(b: ToolResultBlock, name: string, warnings: string[]): Part[] {
  let output: string;
  const extra: Part[] = [];
  if (Array.isArray(b.content)) {
    const blocks = b.content as Block[];
    const first = blocks.findIndex((x) => x.type === 'text');
    output = first >= 0 ? textOf([blocks[first]]) : '';
    blocks.forEach((x, i) => {
      if (i === first) return;
      const p = blockPart(x);
      if (p && !p.thought) extra.push(p);
      else warnings.push(`a ${x.type} block in a tool result has no Gemini form, left out`);
    });
  } else output = textOf(b.content);
  const response = b.is_error ? { error: output } : { output };
  return [{ functionResponse: { id: b.tool_use_id, name, response } }, ...extra];
}

/** A command a person ran (a tool_use on a user message), as the text they typed. */
export function commandText(b: ToolUseBlock): string {
  const input = b.input && typeof b.input === 'object' ? b.input : {};
  const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : stringifyJson(v));
  const typed = b.name === '!' ? `!${str(input.args)}` : [b.name, str(input.args)].filter((s) => s !== '').join(' ');
  return input.contents === undefined ? typed : `${typed}\n\n${str(input.contents)}`;
}

/** A command's printed output as text. */
export function commandOutput(b: ToolResultBlock): string {
  return textOf(b.content);
}
