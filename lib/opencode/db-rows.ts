// OpenCode's SQLite store (1.2 and later) and the objects txcript reads, both ways. The
// tables are the client's (packages/opencode/src/session/session.sql.ts): a `session`
// row per session (its info spread over columns, JSON in some), a `message` row per
// message (`data`: the info without id and sessionID) and a `part` row per part
// (`data`: the part without id, sessionID and messageID). The mappings follow the
// client's own (Session.fromRow / toRow, and `{...data, id, sessionID}` for messages and
// parts), so an object read from a row is the object `opencode export` prints, key for key.
import type { MessageInfo, MessageWithParts, Part, SessionInfo } from './shape.js';

/** A row as a SQLite driver returns it: column name to value. */
export type Row = Record<string, unknown>;

const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v ?? undefined);
const opt = (v: unknown): unknown => (v === null ? undefined : v);

/** Drop the keys whose value is undefined (JSON.stringify would), keeping the order of the rest. */
function defined<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** A session row as the session's info (the client's Session.fromRow). */
export function sessionOfRow(r: Row): SessionInfo {
  const hasSummary = r.summary_additions !== null || r.summary_deletions !== null || r.summary_files !== null;
  const model = json(r.model) as { id: string; providerID: string; variant?: string } | undefined;
  const revert = json(r.revert) as Record<string, unknown> | undefined;
  return defined({
    id: r.id as string,
    slug: r.slug as string,
    projectID: r.project_id as string,
    workspaceID: opt(r.workspace_id),
    directory: r.directory as string,
    path: opt(r.path),
    parentID: opt(r.parent_id),
    title: r.title as string,
    agent: opt(r.agent),
    model: model ? defined({ id: model.id, providerID: model.providerID, variant: model.variant }) : undefined,
    version: r.version as string,
    summary: hasSummary ? defined({ additions: (r.summary_additions as number) ?? 0, deletions: (r.summary_deletions as number) ?? 0, files: (r.summary_files as number) ?? 0, diffs: json(r.summary_diffs) }) : undefined,
    cost: r.cost,
    tokens: { input: r.tokens_input, output: r.tokens_output, reasoning: r.tokens_reasoning, cache: { read: r.tokens_cache_read, write: r.tokens_cache_write } },
    share: r.share_url ? { url: r.share_url } : undefined,
    metadata: json(r.metadata),
    revert: revert ? defined({ messageID: revert.messageID, partID: revert.partID, snapshot: revert.snapshot, diff: revert.diff }) : undefined,
    permission: json(r.permission),
    time: defined({ created: r.time_created as number, updated: r.time_updated as number, compacting: opt(r.time_compacting), archived: opt(r.time_archived) }),
  } as Record<string, unknown>) as unknown as SessionInfo;
}

/** A message row and its part rows (already in the client's order) as one message with its parts. */
export function messageOfRows(m: Row, parts: Row[]): MessageWithParts {
  const info = { ...(json(m.data) as object), id: m.id, sessionID: m.session_id } as MessageInfo;
  return { info, parts: parts.map((p) => ({ ...(json(p.data) as object), id: p.id, sessionID: p.session_id, messageID: p.message_id }) as Part) };
}

/** Column values of a session row from the session's info (the client's Session.toRow), JSON columns as text. */
export function sessionRow(info: SessionInfo, projectID: string): Row {
  const s = info as Record<string, any>;
  const j = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
  const tokens = s.tokens ?? { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
  return {
    id: s.id,
    project_id: projectID,
    workspace_id: s.workspaceID ?? null,
    parent_id: s.parentID ?? null,
    slug: s.slug,
    directory: s.directory,
    path: s.path ?? null,
    title: s.title,
    agent: s.agent ?? null,
    model: j(s.model),
    version: s.version,
    share_url: s.share?.url ?? null,
    summary_additions: s.summary?.additions ?? null,
    summary_deletions: s.summary?.deletions ?? null,
    summary_files: s.summary?.files ?? null,
    summary_diffs: j(s.summary?.diffs),
    metadata: j(s.metadata),
    cost: s.cost ?? 0,
    tokens_input: tokens.input ?? 0,
    tokens_output: tokens.output ?? 0,
    tokens_reasoning: tokens.reasoning ?? 0,
    tokens_cache_read: tokens.cache?.read ?? 0,
    tokens_cache_write: tokens.cache?.write ?? 0,
    revert: j(s.revert),
    permission: j(s.permission),
    time_created: s.time.created,
    time_updated: s.time.updated,
    time_compacting: s.time.compacting ?? null,
    time_archived: s.time.archived ?? null,
  };
}

/** The `message` row and `part` rows of one message (`data` without the ids, as the client stores it). */
export function messageRows(m: MessageWithParts, sessionID: string): { message: Row; parts: Row[] } {
  const { id, sessionID: _s, ...data } = m.info;
  const created = typeof m.info.time?.created === 'number' ? m.info.time.created : 0;
  const updated = typeof m.info.time?.completed === 'number' ? m.info.time.completed : created;
  return {
    message: { id, session_id: sessionID, time_created: created, time_updated: updated, data: JSON.stringify(data) },
    parts: m.parts.map((p) => {
      const { id: pid, sessionID: _ps, messageID: _pm, ...pdata } = p;
      const start = typeof p.time?.start === 'number' ? p.time.start : created;
      return { id: pid, message_id: id, session_id: sessionID, time_created: start, time_updated: typeof p.time?.end === 'number' ? p.time.end : start, data: JSON.stringify(pdata) };
    }),
  };
}
