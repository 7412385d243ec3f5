// The session context the client writes as the first user message of a session
// (environmentContext.ts getEnvironmentContext): `<session_context>` with the date, the
// platform, the project's temporary folder and the workspace directories. A chat file
// names no working directory anywhere else; its `projectHash` is the SHA-256 of the
// project root, so a workspace directory whose hash matches is the session's cwd.
import { createHash } from 'node:crypto';

/** The opening of the client's session context message. */
export const SESSION_CONTEXT = '<session_context>';

/** The workspace directories a session context lists (`- **Workspace Directories:**` then `  - DIR` lines). */
export function workspaceDirectories(text: string): string[] {
  const at = text.indexOf('**Workspace Directories:**');
  if (at < 0) return [];
  const dirs: string[] = [];
  for (const line of text.slice(at).split('\n').slice(1)) {
    const m = /^ {2}- (.+)$/.exec(line);
    if (!m) break;
    dirs.push(m[1]!);
  }
  return dirs;
}

/** The client's project hash of a project root. */
export function projectHash(root: string): string {
  return createHash('sha256').update(root).digest('hex');
}

/** The directory among `dirs` whose hash is `hash`, or null. */
export function projectRoot(dirs: string[], hash: string | undefined): string | null {
  if (hash === undefined) return null;
  return dirs.find((d) => projectHash(d) === hash) ?? null;
}
