// One Claude Code session on its way to Common (tx-common): its converter, the messages
// held back until its end, and the session line made from what its lines said. The
// session line goes first but is only known at the end (the title can be the file's
// last line), so the messages wait in a spool (memory up to 1 MB, then a
// temporary file) and memory stays flat.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { SessionConverter, ToCommonOptions } from '../codec.js';
import type { CommonMessage, CommonSession } from '../common.js';
import type { Kind, RecordView } from '../record.js';
import type { RawStrings } from '../core/json/raw-strings.js';
import { Spool } from '../core/output/spool.js';
import { ActiveChain } from './active-chain.js';
import { listSubagentFiles } from './subagent-files.js';
import { ClaudeToCommon, passesThrough, RAW_KINDS, UNREAD_KINDS, type SessionFacts } from './to-common.js';
import { stringifyJson } from '../core/json/json-text.js';

/** Converts one Claude Code session's lines, then writes its session line and messages. */
export class ClaudeSessionConverter implements SessionConverter {
  private readonly conv: ClaudeToCommon;
  private readonly spool = new Spool();
  private activeFrom = 0;
  /** A sessionId seen on this session's user or assistant lines (to notice the next session on stdin). */
  private sessionId?: string;
  /** Under --active: the parent links and where each message lies, to keep the resumed chain. */
  private readonly chain: ActiveChain | null;

  constructor(private readonly options: ToCommonOptions) {
    this.chain = options.active ? new ActiveChain() : null;
    this.conv = new ClaudeToCommon({
      sidechains: options.sidechains,
      active: options.active,
      emit: (m: CommonMessage, uuids: string[]) => {
        const start = this.spool.size;
        // Two writes, not one of `json + '\n'`: that string would be copied whole to be encoded.
        if (options.raw) options.raw.write(stringifyJson(m), this.spool);
        else this.spool.write(stringifyJson(m));
        this.spool.write('\n');
        if (!m.sidechain) this.chain?.message(start, this.spool.size, uuids);
      },
      compacted: () => {
        this.activeFrom = this.spool.size;
      },
      preserved: (uuids: Set<string>, anchor: string) => this.chain?.preserve(uuids, anchor, this.activeFrom),
    });
  }

  // On stdin, a user or assistant line of another sessionId that starts a chain (no
  // parent) starts a new session: a resumed file's first line carries the old
  // sessionId but continues the chain, so it does not.
  startsNewSession(line: any): boolean {
    if (!line || typeof line !== 'object' || (line.type !== 'user' && line.type !== 'assistant')) return false;
    const id = line.sessionId;
    return typeof id === 'string' && id !== '' && this.sessionId !== undefined && id !== this.sessionId && (line.parentUuid === null || line.parentUuid === undefined);
  }

  // Under --active every line with a uuid is a link of the chain, whatever its kind.
  reads(kind: Kind): boolean {
    return this.chain !== null || !UNREAD_KINDS.has(kind);
  }

  // A tool result's long output is carried as bytes (core/json/raw-strings.ts), not decoded and encoded again.
  parse(view: RecordView, unread: string | null): unknown {
    const raw = this.options.raw;
    if (!raw || !RAW_KINDS.has(view.header.kind)) return undefined;
    const at = view.unparsed();
    return at ? parseCarrying(at.buf, at.start, at.end, unread, raw) : undefined;
  }

  push(line: any, n: number): void {
    if ((line.type === 'user' || line.type === 'assistant') && typeof line.sessionId === 'string' && line.sessionId !== '') this.sessionId ??= line.sessionId;
    this.conv.push(line, n);
    this.chain?.line(line, line.isSidechain !== true || this.conv.facts.subagent === true);
  }

  *finish(): Iterable<string | Buffer> {
    this.conv.finish();
    yield JSON.stringify(sessionLine(this.conv.facts, this.options.src)) + '\n';
    const ranges = this.chain?.select();
    if (ranges) {
      for (const r of ranges) yield* this.spool.range(r.start, r.end);
    } else {
      yield* this.spool.read(this.options.active ? this.activeFrom : 0);
    }
  }

  followers(): string[] {
    if (this.options.src === undefined || this.conv.facts.subagent) return [];
    return listSubagentFiles(this.options.src)
      .map((sub) => sub.file)
      .filter((file) => existsSync(file));
  }

  dispose(): void {
    this.spool.clear();
  }
}

/**
 * A Claude Code line from `start` to `end` of `buf`, the long tool output in its message
 * carried as bytes (core/json/raw-strings.ts) and its `unread` value, if any, read as null;
 * undefined to parse it as usual, which also says what is wrong with bytes that are not
 * JSON.
 */
export function parseCarrying(buf: Buffer, start: number, end: number, unread: string | null, raw: RawStrings): unknown {
  // Only a tool result or base64 data passes through (passesThrough): a line with neither is not scanned.
  if (end - start < raw.long || (!within(buf, TOOL_RESULT, start, end) && !within(buf, BASE64, start, end))) return undefined;
  try {
    return raw.parse(buf, start, end, 'message', unread, passesThrough);
  } catch {
    return undefined;
  }
}

const TOOL_RESULT = Buffer.from('"tool_result"');
const BASE64 = Buffer.from('"base64"');

/** `needle` occurs in `buf` between `start` and `end`. */
function within(buf: Buffer, needle: Buffer, start: number, end: number): boolean {
  const at = buf.indexOf(needle, start);
  return at >= 0 && at + needle.length <= end;
}

/** The session line for what a session's lines said. */
export function sessionLine(f: SessionFacts, src: string | undefined): CommonSession {
  const stem = src === undefined ? undefined : path.basename(src).replace(/\.jsonl$/, '');
  const agentFile = stem !== undefined && /^agent-/.test(stem);
  const subagent = f.subagent === true || agentFile;
  let id: string;
  if (subagent) id = agentFile ? (stem as string) : f.agentId ? `agent-${f.agentId}` : (f.sessionId ?? stem ?? '');
  else id = f.sessionId ?? stem ?? '';
  const s: CommonSession = { type: 'session', harness: 'claude-code', id };
  const title = f.customTitle ?? f.agentName ?? f.summary;
  if (title !== undefined) s.title = title;
  if (f.customTitle !== undefined) s.custom_title = f.customTitle;
  if (f.aiTitle !== undefined) s.ai_title = f.aiTitle;
  if (f.cwd !== undefined) s.cwd = f.cwd;
  if (f.gitBranch !== undefined) s.git_branch = f.gitBranch;
  if (f.version !== undefined) s.version = f.version;
  if (f.model !== undefined) s.model = f.model;
  if (f.startedAt !== undefined) s.started_at = f.startedAt;
  if (subagent && f.sessionId !== undefined) {
    const parent: NonNullable<CommonSession['parent']> = { session: f.sessionId };
    const meta = agentFile ? agentMeta(src as string) : null;
    if (typeof meta?.toolUseId === 'string') parent.tool_use_id = meta.toolUseId;
    if (f.agentId !== undefined) parent.agent_id = f.agentId;
    if (typeof meta?.agentType === 'string') parent.agent_type = meta.agentType;
    if (typeof meta?.description === 'string') parent.description = meta.description;
    s.parent = parent;
  }
  if (src !== undefined) s.src = src;
  return s;
}

/** The `.meta.json` beside a subagent transcript (`<session>/subagents/agent-ID.jsonl`), or null when there is none. */
function agentMeta(src: string): Record<string, unknown> | null {
  const m = /^agent-(.+)\.jsonl$/.exec(path.basename(src));
  const subagents = path.dirname(src);
  if (!m || path.basename(subagents) !== 'subagents') return null;
  const sessionFile = path.dirname(subagents) + '.jsonl';
  return listSubagentFiles(sessionFile).find((f) => f.agentId === m[1])?.meta ?? null;
}
