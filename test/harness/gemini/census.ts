/**
 * What recorded Gemini chat files hold, as tokens a scenario can expect:
 * `files:N` (chat files), `line:meta` (a metadata line; `line:meta*2` when one file has
 * two), `line:$set.KEY`, `line:$rewindTo`, `msg:TYPE` (message lines), `part:KIND`
 * (parts of message contents, checkpoints included), `result:KIND` (parts of call
 * results), `status:S` and `tool:NAME` (tool calls), `calls:N` (calls of one message),
 * `thoughts` (thought summaries kept beside the content), `displayContent`, and
 * `snapshot` (a compression's `<state_snapshot>` message).
 */
import { readFileSync } from 'node:fs';
import { jsonlFiles } from '../fixtures.js';

function partKind(p: any): string {
  if (!p || typeof p !== 'object') return typeof p;
  if (p.thought) return 'thought';
  for (const k of ['functionCall', 'functionResponse', 'inlineData', 'fileData', 'executableCode', 'codeExecutionResult']) if (k in p) return k;
  return 'text' in p ? 'text' : 'other';
}

function message(m: any, tokens: Set<string>): void {
  const content = typeof m.content === 'string' ? [{ text: m.content }] : Array.isArray(m.content) ? m.content : [];
  for (const p of content) {
    tokens.add(`part:${partKind(p)}`);
    if (typeof p?.text === 'string' && p.text.trimStart().startsWith('<state_snapshot>')) tokens.add('snapshot');
  }
  if (Array.isArray(m.thoughts) && m.thoughts.length > 0) tokens.add('thoughts');
  if (m.displayContent !== undefined) tokens.add('displayContent');
  if (Array.isArray(m.toolCalls)) {
    tokens.add(`calls:${m.toolCalls.length}`);
    for (const c of m.toolCalls) {
      tokens.add(`status:${String(c?.status)}`);
      tokens.add(`tool:${String(c?.name)}`);
      const result = Array.isArray(c?.result) ? c.result : c?.result ? [c.result] : [];
      for (const p of result) tokens.add(`result:${partKind(p)}`);
    }
  }
}

/** The census tokens of a folder of chat files. */
export function geminiCensus(dir: string): Set<string> {
  const tokens = new Set<string>();
  const files = jsonlFiles(dir);
  tokens.add(`files:${files.length}`);
  for (const f of files) {
    let metas = 0;
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (!line) continue;
      let o: any;
      try {
        o = JSON.parse(line);
      } catch {
        tokens.add('line:(invalid)');
        continue;
      }
      if (typeof o.sessionId === 'string' && typeof o.projectHash === 'string') {
        metas++;
        tokens.add('line:meta');
      } else if (o.$set && typeof o.$set === 'object') {
        for (const k of Object.keys(o.$set)) tokens.add(`line:$set.${k}`);
        if (Array.isArray(o.$set.messages)) for (const m of o.$set.messages) message(m, tokens);
      } else if (typeof o.$rewindTo === 'string') tokens.add('line:$rewindTo');
      else if (typeof o.id === 'string') {
        tokens.add(`msg:${String(o.type)}`);
        message(o, tokens);
      } else tokens.add('line:(other)');
    }
    if (metas > 1) tokens.add(`line:meta*${metas}`);
  }
  return tokens;
}
