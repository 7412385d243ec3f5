// What tx-native says: its usage text, and the commands it prints (a word quoted as the
// shell reads it back; the command that installs the same input as a new session).
import { DEFAULT_HARNESS, HARNESSES, lineCodecFor } from '../codecs.js';
import type { Context } from '../core/tool.js';

/** tx-native's --help. */
export const HELP = `usage: tx-native [--strict] [FILE...]
       tx-native [--harness ${HARNESSES.join('|')}] [--session-id UUID]
                 [--from-compaction] [--context-window N] [--strict-size]
                 [--model-provider ID] [--model P/M]
                 [--install [--config-dir DIR] [--cwd DIR]] [FILE...]

Records in (from tx-parse, possibly filtered): each native line written back
exactly as it was, with its own line end, BOM, glue and final-newline state.

A Common stream in (from tx-common): each session written as a session of the
harness (${DEFAULT_HARNESS} by default), deterministically, made continuable first:
every tool call answered (a placeholder result where none was recorded), no
empty message, what the client needs first first, tool inputs as it takes them.
A conversation larger than the context window is written with a note saying so;
one for another harness that no model of it could hold is not written (exit 1).

  --harness NAME     the harness to write: ${HARNESSES.join(', ')}

  --session-id UUID  the new session's id (default: the Common session's id if it
                     is a UUID, else a UUIDv5 of it); one session only;
                     "new" makes a fresh random UUID
  --from-compaction  start each session from its latest compaction
  --context-window N the context window to fit, in tokens (default: the session's
                     own for its own harness, else the client's default)
  --strict-size      a conversation larger than the window is not written (exit 1)
  --model-provider ID  the model provider the session names, for a harness whose
                     sessions record one (Codex; default: the one the store's
                     configuration names under --install, else openai)
  --install          write each session where the client looks for it, atomically,
                     never over an existing session, and print the resume command
  --config-dir DIR   the harness's configuration directory (default from its
                     variable: ${HARNESSES.map(lineCodecFor).filter((c) => c.home).map((c) => `$${c.home!.variable}${c.home!.dir === undefined ? '' : `/${c.home!.dir}`}`).join(', ')}; else under HOME)
  --cwd DIR          the project directory to resume in (default: the session's cwd)
  --model P/M        the model the session continues with, for a client that
                     resumes with the model a session names (default: the
                     client's configured model, else the model that answered)
  --strict           exit 1 if any input line was skipped
  -h, --help         this text        --version   the version
See tx-native(1).`;

/** A word as the shell reads it back: bare when it is safe, else in single quotes. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The command that installs the same input as a new session: what to run when the id is taken. */
export function freshIdCommand(args: Context['args']): string {
  const words = ['tx-native', ...(args.harness !== undefined ? ['--harness', shellQuote(String(args.harness))] : []), '--install'];
  if (args['config-dir'] !== undefined) words.push('--config-dir', shellQuote(String(args['config-dir'])));
  if (args.cwd !== undefined) words.push('--cwd', shellQuote(String(args.cwd)));
  words.push('--session-id', 'new');
  const files = args._.map(String);
  return files.length > 0 && !files.includes('-') ? [...words, ...files.map(shellQuote)].join(' ') : `… | ${words.join(' ')}`;
}
