// The questions of the session-store guide, one per tx-filter flag. Each question
// names the record kinds it can match (so tx-filter skips parsing the rest), says
// whether a record matches, and builds the flat views tx-filter --view prints.
// tx-filter(1) documents every view field.
import type { Question, QuestionFlag, QuestionOptions, View } from '../codec.js';
import type { Kind, RecordHeader, RecordView } from '../record.js';
import { trimDeep, trimText } from '../core/trim.js';
import { hookEvidence, hookNamed } from './hooks.js';
import { SubagentIndex } from './subagent-files.js';
import { contentText, lineStrings, resultText } from './text.js';
import { messageUsage, TOKEN_FIELDS } from './usage.js';

/** The fields every view starts with. */
export function baseView(header: RecordHeader, line: any): View {
  const view: View = { n: header.n, timestamp: stringOrNull(line?.timestamp), session: stringOrNull(line?.sessionId) };
  if (header.src !== undefined) view.src = header.src;
  return view;
}

function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function blocks(line: any): any[] {
  const content = line?.message?.content;
  return Array.isArray(content) ? content.filter((b) => b && typeof b === 'object') : [];
}

function isClaude(rec: RecordView): boolean {
  return rec.header.harness === 'claude-code';
}

// A record's kind comes from whoever wrote it; the line is only trusted to be an object once checked.
function objectLine(rec: RecordView): any {
  const line = rec.value();
  return line && typeof line === 'object' && !Array.isArray(line) ? line : null;
}

/** A question whose match is simply "has views". */
function stateless(name: string, kinds: Kind[], views: (rec: RecordView, line: any) => View[]): Question {
  const kindSet = new Set(kinds);
  const viewsOf = (rec: RecordView) => {
    const line = isClaude(rec) && kindSet.has(rec.header.kind) ? objectLine(rec) : null;
    return line ? views(rec, line) : [];
  };
  return { name, kinds: kindSet, match: (rec) => viewsOf(rec).length > 0, views: viewsOf };
}

function imageCount(content: unknown): number {
  return Array.isArray(content) ? content.filter((b) => b && b.type === 'image').length : 0;
}

/** --human-prompts: what a person typed, by the kinds tx-parse gave (prompt, queued-prompt). */
export function humanPrompts(o: QuestionOptions): Question {
  const kinds = new Set<Kind>(['prompt', 'queued-prompt']);
  return {
    name: 'human-prompts',
    kinds,
    // The classification is the record's kind: tx-parse already applied the rules.
    match: (rec) => isClaude(rec) && kinds.has(rec.header.kind),
    views(rec) {
      const line = isClaude(rec) && kinds.has(rec.header.kind) ? objectLine(rec) : null;
      if (!line) return [];
      if (line.type === 'attachment') {
        const prompt = line.attachment?.prompt;
        const text = typeof prompt === 'string' ? prompt : contentText(prompt);
        return [{ ...baseView(rec.header, line), source: 'queued', text: trimText(text, o.maxChars), images: imageCount(prompt) }];
      }
      const source = rec.header.kind === 'queued-prompt' ? 'queued' : 'typed';
      const content = line.message?.content;
      return [{ ...baseView(rec.header, line), source, text: trimText(contentText(content), o.maxChars), images: imageCount(content) }];
    },
  };
}

/** --tool-calls: one view per tool_use block. */
export function toolCalls(o: QuestionOptions): Question {
  return stateless('tool-calls', ['assistant'], (rec, line) =>
    blocks(line)
      .filter((b) => b.type === 'tool_use' && (o.name === undefined || b.name === o.name))
      .map((b) => ({ ...baseView(rec.header, line), id: stringOrNull(b.id), name: stringOrNull(b.name), input: trimDeep(b.input ?? null, o.maxChars) })),
  );
}

/** --tool-results: one view per tool_result block (--errors: only is_error ones). */
export function toolResults(o: QuestionOptions): Question {
  return stateless('tool-results', ['tool-result'], (rec, line) =>
    blocks(line)
      .filter((b) => b.type === 'tool_result' && (!o.errors || b.is_error === true))
      .map((b) => ({
        ...baseView(rec.header, line),
        tool_use_id: stringOrNull(b.tool_use_id),
        is_error: b.is_error === true,
        content: trimText(resultText(b.content), o.maxChars),
        toolUseResult: trimDeep(line.toolUseResult ?? null, o.maxChars),
      })),
  );
}

function skillNamed(skill: string | null, plugin: string | null, name: string): boolean {
  if (skill === name || plugin === name) return true;
  return skill !== null && skill.slice(skill.lastIndexOf(':') + 1) === name;
}

/** --skills: Skill calls, their results' commandName, and attributionSkill/attributionPlugin on assistant lines. */
export function skills(o: QuestionOptions): Question {
  return stateless('skills', ['assistant', 'tool-result'], (rec, line) => {
    const views: View[] = [];
    const add = (source: string, skill: string | null, plugin: string | null, id: string | null, args: unknown) => {
      if (o.name !== undefined && !skillNamed(skill, plugin, o.name)) return;
      views.push({ ...baseView(rec.header, line), source, skill, plugin, id, args: trimDeep(args, o.maxChars) });
    };
    if (rec.header.kind === 'assistant') {
      for (const b of blocks(line)) {
        if (b.type !== 'tool_use' || b.name !== 'Skill') continue;
        const skill = stringOrNull(b.input?.skill);
        const plugin = skill !== null && skill.includes(':') ? skill.slice(0, skill.indexOf(':')) : null;
        add('call', skill, plugin, stringOrNull(b.id), b.input?.args ?? null);
      }
      const skill = stringOrNull(line.attributionSkill);
      const plugin = stringOrNull(line.attributionPlugin);
      if (skill !== null || plugin !== null) add('attribution', skill, plugin, null, null);
    } else {
      const name = line.toolUseResult && typeof line.toolUseResult === 'object' ? stringOrNull(line.toolUseResult.commandName) : null;
      if (name !== null) {
        const result = blocks(line).find((b) => b.type === 'tool_result');
        add('result', name, null, stringOrNull(result?.tool_use_id), null);
      }
    }
    return views;
  });
}

/** --reasoning: one view per thinking or redacted_thinking block. */
export function reasoning(o: QuestionOptions): Question {
  return stateless('reasoning', ['assistant'], (rec, line) =>
    blocks(line)
      .filter((b) => b.type === 'thinking' || b.type === 'redacted_thinking')
      .map((b) => ({
        ...baseView(rec.header, line),
        text: b.type === 'thinking' ? trimText(typeof b.thinking === 'string' ? b.thinking : '', o.maxChars) : null,
        opaque: b.type === 'redacted_thinking' || (typeof b.signature === 'string' && b.signature !== ''),
      })),
  );
}

/** Tool names that dispatch a subagent: Agent, and Task in older CLIs. */
export const SUBAGENT_TOOLS = new Set(['Agent', 'Task']);

/** --subagents: Agent/Task dispatches, joined to their subagent files when the record names its source file. */
export function subagents(o: QuestionOptions, index = new SubagentIndex()): Question {
  return stateless('subagents', ['assistant'], (rec, line) =>
    blocks(line)
      .filter((b) => b.type === 'tool_use' && SUBAGENT_TOOLS.has(b.name))
      .filter((b) => o.name === undefined || b.input?.subagent_type === o.name)
      .map((b) => {
        const input = b.input && typeof b.input === 'object' ? b.input : {};
        const id = stringOrNull(b.id);
        const found = rec.header.src !== undefined && id !== null ? index.find(rec.header.src, id) : null;
        return {
          ...baseView(rec.header, line),
          id,
          name: b.name,
          description: stringOrNull(input.description),
          subagent_type: stringOrNull(input.subagent_type),
          model: stringOrNull(input.model),
          prompt: typeof input.prompt === 'string' ? trimText(input.prompt, o.maxChars) : null,
          agent_id: found ? found.agentId : null,
          agent_file: found ? found.file : null,
          agent_type: found ? stringOrNull(found.meta?.agentType) : null,
          agent_model: found ? stringOrNull(found.meta?.model) : null,
        };
      }),
  );
}

/** --hooks: hook attachments, hook_progress lines and stop_hook_summary lines (--failed, --name narrow them). */
export function hooks(o: QuestionOptions): Question {
  return stateless('hooks', ['hook', 'progress'], (rec, line) => {
    const h = hookEvidence(line);
    if (!h) return [];
    if (o.failed && !h.failed) return [];
    if (o.name !== undefined && !hookNamed(h, o.name)) return [];
    const t = (s: string | null) => (s === null ? null : trimText(s, o.maxChars));
    return [
      {
        ...baseView(rec.header, line),
        type: h.type,
        hookName: h.hookName,
        hookEvent: h.hookEvent,
        command: t(h.command),
        exitCode: h.exitCode,
        durationMs: h.durationMs,
        failed: h.failed,
        stdout: t(h.stdout),
        stderr: t(h.stderr),
        content: trimDeep(h.content, o.maxChars),
      },
    ];
  });
}

/** --compactions: compact_boundary and microcompact_boundary lines with their metadata. */
export function compactions(o: QuestionOptions): Question {
  return stateless('compactions', ['compact'], (rec, line) => {
    if (line.type !== 'system') return [];
    const m = line.compactMetadata ?? line.microcompactMetadata ?? {};
    const num = (v: unknown) => (typeof v === 'number' ? v : null);
    return [
      {
        ...baseView(rec.header, line),
        subtype: stringOrNull(line.subtype),
        trigger: stringOrNull(m.trigger),
        preTokens: num(m.preTokens),
        postTokens: num(m.postTokens),
        tokensSaved: num(m.tokensSaved),
        cumulativeDroppedTokens: num(m.cumulativeDroppedTokens),
        durationMs: num(m.durationMs),
        logicalParentUuid: stringOrNull(line.logicalParentUuid),
        summary: trimText(typeof line.content === 'string' ? line.content : '', o.maxChars) || null,
      },
    ];
  });
}

/**
 * --usage: one view per API message. A message's lines are consecutive within its
 * chain (the main conversation or one subagent), so a message is complete when the
 * next assistant line of its chain has another message.id, or at the end of input.
 */
export function usage(): Question {
  const kinds = new Set<Kind>(['assistant']);
  const pending = new Map<string, { id: string; view: View }>();
  return {
    name: 'usage',
    kinds,
    match: (rec) => isClaude(rec) && kinds.has(rec.header.kind) && messageUsage(objectLine(rec)) !== null,
    views(rec) {
      const line = isClaude(rec) && kinds.has(rec.header.kind) ? objectLine(rec) : null;
      const u = messageUsage(line);
      if (!u) return [];
      const chain = `${rec.header.src ?? ''}\0${line.sessionId ?? ''}\0${line.agentId ?? ''}\0${line.isSidechain === true}`;
      const held = pending.get(chain);
      if (held && u.id !== null && held.id === u.id) {
        held.view.last_n = rec.header.n;
        held.view.lines = (held.view.lines as number) + 1;
        for (const f of TOKEN_FIELDS) held.view[f] = u.tokens[f];
        return [];
      }
      const out = held ? [held.view] : [];
      const view: View = {
        ...baseView(rec.header, line),
        message_id: u.id,
        model: u.model,
        sidechain: line.isSidechain === true,
        lines: 1,
        last_n: rec.header.n,
        ...u.tokens,
      };
      if (u.id === null) {
        pending.delete(chain);
        out.push(view);
      } else pending.set(chain, { id: u.id, view });
      return out;
    },
    end() {
      const out = [...pending.values()].map((p) => p.view);
      pending.clear();
      return out.sort((a, b) => (a.n as number) - (b.n as number));
    },
  };
}

/** --modes: effort on assistant lines, and permission-mode / mode records, when the value changes. */
export function modes(): Question {
  const kinds = new Set<Kind>(['assistant', 'meta']);
  const last = new Map<string, string>();
  const change = (rec: RecordView): { type: string; value: string; previous: string | null } | null => {
    const line = isClaude(rec) && kinds.has(rec.header.kind) ? objectLine(rec) : null;
    if (!line) return null;
    let type: string;
    let value: unknown;
    if (line.type === 'assistant') [type, value] = ['effort', line.effort];
    else if (line.type === 'permission-mode') [type, value] = ['permission-mode', line.permissionMode];
    else if (line.type === 'mode') [type, value] = ['mode', line.mode];
    else return null;
    if (typeof value !== 'string') return null;
    const key = `${rec.header.src ?? ''}\0${line.sessionId ?? ''}\0${line.agentId ?? ''}\0${type}`;
    const previous = last.get(key) ?? null;
    if (previous === value) return null;
    last.set(key, value);
    return { type, value, previous };
  };
  return {
    name: 'modes',
    kinds,
    match: (rec) => change(rec) !== null,
    views(rec) {
      const c = change(rec);
      return c ? [{ ...baseView(rec.header, rec.value()), ...c }] : [];
    },
  };
}

/** The view of a record when no question is asked: what it is and its text. */
export function lineView(rec: RecordView, maxChars: number): View {
  const h = rec.header;
  if (h.kind === 'invalid') return { ...baseView(h, null), kind: h.kind, type: null, text: trimText(h.raw ?? h.error ?? '', maxChars) };
  const line = rec.value();
  const text = line && (line.type === 'user' || line.type === 'assistant') ? contentText(line.message?.content) : [...lineStrings(line)].join('\n');
  return { ...baseView(h, line), kind: h.kind, type: stringOrNull(line?.type), text: trimText(text, maxChars) };
}

/** Build the question for a flag. */
export function makeQuestion(flag: QuestionFlag, o: QuestionOptions): Question {
  switch (flag) {
    case 'human-prompts':
      return humanPrompts(o);
    case 'tool-calls':
      return toolCalls(o);
    case 'tool-results':
      return toolResults(o);
    case 'reasoning':
      return reasoning(o);
    case 'skills':
      return skills(o);
    case 'subagents':
      return subagents(o);
    case 'hooks':
      return hooks(o);
    case 'compactions':
      return compactions(o);
    case 'usage':
      return usage();
    case 'modes':
      return modes();
  }
}
