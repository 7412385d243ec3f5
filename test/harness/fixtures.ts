/** Walking and counting recorded fixture trees. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every .jsonl file under a folder, sorted. */
export function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      const p = path.join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e.endsWith('.jsonl')) out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** What a fixture's files hold. */
export interface Census {
  lines: number;
  bytes: number;
  types: Set<string>;
  attachments: Set<string>;
  subtypes: Set<string>;
  blocks: Set<string>;
  models: Set<string>;
}

/** Count what a fixture's files hold: line types, attachment types, system subtypes, block types. */
export function census(dir: string): Census {
  const c: Census = { lines: 0, bytes: 0, types: new Set(), attachments: new Set(), subtypes: new Set(), blocks: new Set(), models: new Set() };
  for (const f of jsonlFiles(dir)) {
    const data = readFileSync(f, 'utf8');
    c.bytes += Buffer.byteLength(data);
    for (const line of data.split('\n')) {
      if (!line) continue;
      c.lines++;
      let o: Record<string, unknown>;
      try {
        o = JSON.parse(line) as Record<string, unknown>;
      } catch {
        c.types.add('(invalid)');
        continue;
      }
      c.types.add(String(o.type));
      if (o.type === 'attachment') c.attachments.add(String((o.attachment as { type?: unknown } | undefined)?.type));
      if (o.type === 'system') c.subtypes.add(String(o.subtype));
      const model = (o.message as { model?: unknown } | undefined)?.model;
      if (o.type === 'assistant' && typeof model === 'string') c.models.add(model);
      const content = (o.message as { content?: unknown } | undefined)?.content;
      if (Array.isArray(content)) {
        for (const b of content as Array<{ type?: string; content?: unknown }>) {
          c.blocks.add(String(b?.type));
          if (b?.type === 'tool_result' && Array.isArray(b.content)) for (const inner of b.content as Array<{ type?: string }>) c.blocks.add(`tool_result>${inner?.type}`);
        }
      } else if (typeof content === 'string') c.blocks.add('(string)');
    }
  }
  return c;
}

/** Every file under a folder, sorted. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      const p = path.join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(dir);
  return out;
}


/**
 * The census of a folder as tokens: `type:T`, `attachment:T`, `subtype:T`,
 * `block:T` (with `block:tool_result>T` for blocks inside a tool result), `model:M`
 * (assistant lines), and
 * `file:P` for every prefix-free piece P of each file's path (a folder name with
 * its slash, or an extension such as `.meta.json`).
 */
export function censusTokens(dir: string): Set<string> {
  const c = census(dir);
  const tokens = new Set<string>();
  for (const t of c.types) tokens.add(`type:${t}`);
  for (const t of c.attachments) tokens.add(`attachment:${t}`);
  for (const t of c.subtypes) tokens.add(`subtype:${t}`);
  for (const t of c.blocks) tokens.add(`block:${t}`);
  for (const t of c.models) tokens.add(`model:${t}`);
  for (const f of listFiles(dir)) {
    const rel = path.relative(dir, f).split(path.sep);
    for (const part of rel.slice(0, -1)) tokens.add(`file:${part}/`);
    const name = rel.at(-1)!;
    const dot = name.indexOf('.');
    if (dot > 0) tokens.add(`file:${name.slice(dot)}`);
  }
  return tokens;
}
