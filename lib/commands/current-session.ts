// The session a tool reads when it is given no file and stdin is a terminal: the
// current session of the working directory (tx-ls --current picks the same one).
import { existsSync } from 'node:fs';
import { DEFAULT_WINDOW_MINUTES, type FoundSession } from '../codec.js';
import { loadAll } from '../codecs.js';
import { UsageError, type Context } from '../core/tool.js';

/** The newest session of the working directory in any harness's store, said on stderr; a usage error when there is none. */
export async function currentSessionForTerminal(ctx: Context): Promise<string> {
  const cwd = ctx.proc.cwd();
  const roots: string[] = [];
  let sessions: FoundSession[] = [];
  const codecs = await loadAll('codec');
  for (const [i, codec] of codecs.entries()) {
    const config = codec.store?.configDir(ctx.proc.env) ?? null;
    if (!codec.store || config === null) continue;
    const root = codec.store.rootIn(config);
    // A harness that was never used here has no store to name (the last one is always named).
    if (!existsSync(root) && i < codecs.length - 1) continue;
    roots.push(root);
    sessions = sessions.concat(codec.store.current(root, cwd, DEFAULT_WINDOW_MINUTES, (p) => ctx.warn({ src: p.path }, p.message)));
  }
  sessions.sort((a, b) => b.stat.mtimeMs - a.stat.mtimeMs || a.path.localeCompare(b.path));
  if (sessions.length === 0) throw new UsageError(`stdin is a terminal and ${cwd} has no session${roots.length === 0 ? '' : ` under ${roots.join(' or ')}`}; name a FILE or pipe one in`);
  ctx.note(`reading the current session ${sessions[0].path} (stdin is a terminal)`);
  if (sessions.length > 1) ctx.note(`${sessions.length - 1} other session(s) of this directory changed within ${DEFAULT_WINDOW_MINUTES} minutes; see tx-ls --current`);
  return sessions[0].path;
}
