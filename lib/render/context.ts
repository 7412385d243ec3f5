// What a user message holds that no person typed: the context a client adds to the
// conversation (its environment, instructions, reminders, a compaction's summary, a
// skill's or a command's text). A page folds it under a name and titles a session by
// the first text a person did type. Common keeps every user text as text, so the
// blocks are told apart here, by the markup and openings clients write.
import type { Block, CommonMessage, TextBlock } from '../common.js';
import { isCall, isResult } from './pairing.js';

/** Openings of context the clients write in plain words, and what the page calls each. */
const OPENINGS: [string, string][] = [
  ['# AGENTS.md instructions for ', 'AGENTS.md instructions'],
  ['This session is being continued from a previous conversation', 'summary of the conversation before'],
  ['Another language model started to solve this problem and produced a summary', 'summary of the conversation before'],
  ['[Request interrupted by user', 'interruption'],
  ['Base directory for this skill: ', 'skill instructions'],
];

/** The name of the tag a text opens with (`<name>`, `<name attr="…">`, `<two words>`), or null. */
function openingTag(text: string): string | null {
  const m = /^<([A-Za-z_][\w-]*)([^<>]{0,200})>/.exec(text);
  if (!m) return null;
  return m[2].includes('=') || !/^( [A-Za-z_][\w-]*)*$/.test(m[2]) ? m[1] : m[1] + m[2];
}

/**
 * What the context a text holds is called, or null for text a person may have typed.
 * A text that is markup from end to end (`<environment_context>…</environment_context>`,
 * `<system-reminder>…`, several elements one after another) is a client's.
 */
export function contextName(text: string): string | null {
  const t = text.trim();
  for (const [opening, name] of OPENINGS) if (t.startsWith(opening)) return name;
  const tag = openingTag(t);
  if (tag === null || !t.endsWith('>')) return null;
  const close = t.lastIndexOf('</');
  return close > 0 && /^<\/[A-Za-z_][\w -]*>$/.test(t.slice(close)) ? tag.replace(/[_-]/g, ' ') : null;
}

/** How a page shows one block of a user message. */
export type UserPart = { kind: 'prompt' } | { kind: 'context'; name: string } | { kind: 'other' };

/**
 * The parts of a user message: each text a prompt or context. A developer message is
 * context whole; text after the results of the model's calls (a skill's file, a hook's
 * words) or right after a slash command (the prompt the command expands to) is the
 * client's. After a command's own output comes what the person typed next.
 */
export function userParts(m: CommonMessage): UserPart[] {
  let after: string | null = null;
  const commands = new Set<string>();
  return m.content.map((b: Block): UserPart => {
    if (isResult(b)) {
      after = commands.has(b.tool_use_id) ? null : 'added to the tool results';
      return { kind: 'other' };
    }
    if (isCall(b)) {
      if (b.tool?.kind === 'command') {
        commands.add(b.id);
        after = `prompt of ${b.name}`;
      }
      return { kind: 'other' };
    }
    if (b.type !== 'text' || typeof (b as TextBlock).text !== 'string') return { kind: 'other' };
    const text = (b as TextBlock).text;
    if (m.developer) return { kind: 'context', name: contextName(text) ?? 'instructions to the model' };
    const name = contextName(text);
    if (name !== null) return { kind: 'context', name };
    if ((b as TextBlock).origin === 'queued') return { kind: 'prompt' };
    return after !== null ? { kind: 'context', name: after } : { kind: 'prompt' };
  });
}

/** Whitespace made single spaces, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.slice(0, max * 4).replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1).trimEnd() + '…' : flat;
}

/** What a person typed first in a message, as a session title: the text of a prompt, or a slash command with its arguments; null when none. */
export function promptTitle(m: CommonMessage): string | null {
  if (m.role !== 'user' || m.developer) return null;
  const parts = userParts(m);
  for (let i = 0; i < m.content.length; i++) {
    const b = m.content[i];
    if (isCall(b) && b.tool?.kind === 'command') return oneLine(b.tool.args ? `${b.name} ${b.tool.args}` : b.name, 90);
    if (parts[i].kind === 'prompt') {
      const t = oneLine((b as TextBlock).text, 90);
      if (t !== '') return t;
    }
  }
  return null;
}
