// The session a tool reads when it is given no file and stdin is a terminal: the
// current session of the working directory (tx-ls --current picks the same one).
import { currentSessions, DEFAULT_WINDOW_MINUTES } from '../claude-code/current.js';
import { projectsRoot } from '../claude-code/store.js';
import { UsageError, type Context } from '../core/run.js';

/** The newest session of the working directory, said on stderr; a usage error when there is none. */
export function currentSessionForTerminal(ctx: Context): string {
  const root = projectsRoot(ctx.proc.env);
  const cwd = ctx.proc.cwd();
  const sessions = root === null ? [] : currentSessions(root, cwd, DEFAULT_WINDOW_MINUTES);
  if (sessions.length === 0) throw new UsageError(`stdin is a terminal and ${cwd} has no session${root === null ? '' : ` under ${root}`}; name a FILE or pipe one in`);
  ctx.note(`reading the current session ${sessions[0].path} (stdin is a terminal)`);
  if (sessions.length > 1) ctx.note(`${sessions.length - 1} other session(s) of this directory changed within ${DEFAULT_WINDOW_MINUTES} minutes; see tx-ls --current`);
  return sessions[0].path;
}
