// Small OpenCode sessions made in a test, in the shape the client stores (only the fields
// each test needs beyond the ones every message has), and the recorded ones.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { exportTextUnits } from '../../lib/opencode/export-file.js';
import type { MessageWithParts, Part, SessionInfo } from '../../lib/opencode/shape.js';
import { repo } from '../helpers.js';

export const SID = 'ses_000000000000TestSession000';

let counter = 0;
const next = (prefix: string) => `${prefix}_${(++counter).toString(16).padStart(12, '0')}TestTestTestTe`;

/** A session info. */
export function sessionInfo(extra: Partial<SessionInfo> = {}): SessionInfo {
  return { id: SID, slug: 'test-session', projectID: 'global', directory: '/home/user/project', title: 'A test', version: '1.18.33', time: { created: 1_700_000_000_000, updated: 1_700_000_000_000 }, ...extra };
}

/** A part of a message (ids filled in). */
export function part(messageID: string, fields: Record<string, unknown>): Part {
  return { ...fields, id: next('prt'), sessionID: SID, messageID } as Part;
}

/** A user message with the parts `fields` make. */
export function user(parts: Record<string, unknown>[], extra: Record<string, unknown> = {}): MessageWithParts {
  const id = next('msg');
  return { info: { role: 'user', time: { created: 1_700_000_000_000 + counter }, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-x' }, ...extra, id, sessionID: SID } as any, parts: parts.map((f) => part(id, f)) };
}

/** An assistant message with the parts `fields` make. */
export function assistant(parts: Record<string, unknown>[], extra: Record<string, unknown> = {}): MessageWithParts {
  const id = next('msg');
  const tokens = { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } };
  const info = { parentID: 'msg_000000000000TestParent0000', role: 'assistant', mode: 'build', agent: 'build', path: { cwd: '/home/user/project', root: '/' }, cost: 0, tokens, modelID: 'claude-x', providerID: 'anthropic', time: { created: 1_700_000_000_000 + counter, completed: 1_700_000_000_001 + counter }, finish: 'stop', ...extra, id, sessionID: SID };
  return { info: info as any, parts: parts.map((f) => part(id, f)) };
}

/** A completed tool part's fields. */
export function toolPart(callID: string, tool: string, input: Record<string, unknown>, state: Record<string, unknown>): Record<string, unknown> {
  return { type: 'tool', tool, callID, state: { input, ...state } };
}

/** The folder of the recorded sessions. */
export const RECORDED = repo('fixtures', 'recorded-opencode');

/** Every recorded export document, with its scenario. */
export function recordedExports(): { scenario: string; file: string }[] {
  const out: { scenario: string; file: string }[] = [];
  for (const scenario of readdirSync(RECORDED).sort()) {
    if (scenario.includes('.') || scenario === 'CLI_VERSION') continue;
    for (const f of readdirSync(path.join(RECORDED, scenario)).sort()) if (f.endsWith('.json')) out.push({ scenario, file: path.join(RECORDED, scenario, f) });
  }
  return out;
}

/** The lines (units' values) of a recorded export document. */
export function recordedLines(file: string): object[] {
  return exportTextUnits(readFileSync(file, 'utf8')).units.map((u) => u.value);
}

// From packages/opencode/src/session/session.sql.ts and project.sql.ts of the client.
/** The client's tables, as far as a session needs them. */
export const SCHEMA = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, icon_url text, icon_url_override text, icon_color text, time_created integer NOT NULL, time_updated integer NOT NULL, time_initialized integer, sandboxes text NOT NULL, commands text);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL REFERENCES project(id) ON DELETE CASCADE, workspace_id text, parent_id text, slug text NOT NULL, directory text NOT NULL, path text, title text NOT NULL, version text NOT NULL, share_url text, summary_additions integer, summary_deletions integer, summary_files integer, summary_diffs text, metadata text, cost real DEFAULT 0 NOT NULL, tokens_input integer DEFAULT 0 NOT NULL, tokens_output integer DEFAULT 0 NOT NULL, tokens_reasoning integer DEFAULT 0 NOT NULL, tokens_cache_read integer DEFAULT 0 NOT NULL, tokens_cache_write integer DEFAULT 0 NOT NULL, revert text, permission text, agent text, model text, time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL REFERENCES session(id) ON DELETE CASCADE, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL REFERENCES message(id) ON DELETE CASCADE, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
PRAGMA journal_mode = WAL;
`;
