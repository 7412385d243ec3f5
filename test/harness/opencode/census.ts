/** What the recorded OpenCode export documents of a folder show, as census tokens. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The export documents (`*.json`) of a folder, sorted. */
export function exportFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => path.join(dir, f));
}

/**
 * Census tokens of a folder of export documents: `role:R`, `part:T` (part types),
 * `tool:NAME`, `state:S` (tool states), `file:MIME` (file parts), `attachment:MIME` (tool
 * result attachments), `synthetic:T`, `error:NAME` (message errors), `summary:true`,
 * `session:child` (a session with a parentID), `compaction:tail` (a compaction that kept a tail), `tokens:cache-read` and `tokens:cache-write` (a message that counted them).
 */
export function exportCensus(dir: string): Set<string> {
  const tokens = new Set<string>();
  for (const f of exportFiles(dir)) {
    const doc = JSON.parse(readFileSync(f, 'utf8')) as { info?: { parentID?: string }; messages?: { info: any; parts: any[] }[] };
    if (doc.info?.parentID) tokens.add('session:child');
    for (const m of doc.messages ?? []) {
      tokens.add(`role:${String(m.info?.role)}`);
      if (m.info?.error?.name) tokens.add(`error:${String(m.info.error.name)}`);
      if (m.info?.summary === true) tokens.add('summary:true');
      if (m.info?.tokens?.cache?.read > 0) tokens.add('tokens:cache-read');
      if (m.info?.tokens?.cache?.write > 0) tokens.add('tokens:cache-write');
      for (const p of m.parts ?? []) {
        tokens.add(`part:${String(p?.type)}`);
        if (p?.type === 'compaction' && typeof p.tail_start_id === 'string') tokens.add('compaction:tail');
        if (p?.synthetic) tokens.add(`synthetic:${String(p.type)}`);
        if (p?.type === 'file') tokens.add(`file:${String(p.mime)}`);
        if (p?.type === 'tool') {
          tokens.add(`tool:${String(p.tool)}`);
          tokens.add(`state:${String(p.state?.status)}`);
          for (const a of p.state?.attachments ?? []) tokens.add(`attachment:${String(a?.mime)}`);
        }
      }
    }
  }
  return tokens;
}
