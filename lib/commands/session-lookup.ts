// A session named by its id (or a unique prefix of it), looked up in the stores of every
// harness, the way tx-ls discovers them.
import { existsSync } from 'node:fs';
import type { Codec } from '../codec.js';
import { loadAll } from '../codecs.js';
import { ToolError } from '../core/tool.js';

/** A harness's sessions root, from its configuration directory. */
export interface StoreRoot {
  codec: Codec;
  root: string;
}

/** The sessions roots that exist: each harness's configuration directory from `configs` (by harness), else from the environment. */
export async function storeRoots(env: NodeJS.ProcessEnv, configs: ReadonlyMap<string, string> = new Map()): Promise<StoreRoot[]> {
  const roots: StoreRoot[] = [];
  for (const codec of await loadAll('codec')) {
    if (!codec.store) continue;
    const config = configs.get(codec.harness) ?? codec.store.configDir(env);
    if (config === null) continue;
    const root = codec.store.rootIn(config);
    if (existsSync(root)) roots.push({ codec, root });
  }
  return roots;
}

/** Every session file of the roots whose id is `id`, else those whose id starts with it. */
export function sessionsById(roots: StoreRoot[], id: string): { codec: Codec; path: string }[] {
  const exact: { codec: Codec; path: string }[] = [];
  const prefixed: { codec: Codec; path: string }[] = [];
  const wanted = id.toLowerCase();
  for (const { codec, root } of roots) {
    for (const found of codec.store!.discover(root, () => {})) {
      const stem = codec.store!.idOf(found.path).toLowerCase();
      if (stem === wanted) exact.push({ codec, path: found.path });
      else if (stem.startsWith(wanted)) prefixed.push({ codec, path: found.path });
    }
  }
  return exact.length > 0 ? exact : prefixed;
}

/** The one session file an id (or a unique prefix of one) names in the roots; a ToolError says why there is none. */
export function sessionById(roots: StoreRoot[], id: string): { codec: Codec; path: string } {
  const matches = sessionsById(roots, id);
  if (matches.length === 0) throw new ToolError(`no session ${id} in the stores (${roots.length > 0 ? roots.map((r) => r.root).join(', ') : 'none found'})`);
  if (matches.length > 1) throw new ToolError(`${id} names ${matches.length} sessions: ${matches.map((m) => m.path).join(', ')}`);
  return matches[0];
}
