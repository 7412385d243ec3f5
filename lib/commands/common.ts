// tx-common: records in, the Common stream out (a session line, then its messages).
// A session's line is written after its last record, because what it says (the title,
// which can be the file's last line) is only known then; the messages wait in a spool
// (memory up to a few MB, then a temporary file), so memory stays flat.
import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import type { CommonMessage, CommonSession } from '../common.js';
import { ActiveChain } from '../claude-code/active-chain.js';
import { listSubagentFiles } from '../claude-code/subagent-files.js';
import { ClaudeToCommon, type SessionFacts } from '../claude-code/to-common.js';
import { splitLines } from '../core/lines.js';
import { readRecordStream } from '../core/records.js';
import type { Context, Tool } from '../core/run.js';
import { Spool } from '../core/spool.js';
import { parsePhysicalLine } from '../parse-line.js';
import { recordView, type RecordView } from '../record.js';

const HELP = `usage: tx-common [--active] [--sidechains] [--subagents] [--strict] [FILE...]

Turn records (from tx-parse) into the Common stream: for each session a
{"type":"session",…} line, then one {"type":"message",…} line per API message
(Anthropic Messages shape). Reads the files named (- is stdin), or stdin.

  --active       only the conversation after the last compaction, as the
                 client resumes it (default: the whole history)
  --sidechains   also convert sidechain lines kept inside a main file (marked
                 "sidechain":true; default: main chain only)
  --subagents    after each session read from a file, also convert its
                 subagents (<session>/subagents/agent-*.jsonl) as sessions
  --strict       exit 1 if any line was invalid or not a record
  -h, --help     this text        --version   the version
See tx-common(1).`;

/** One session being converted: its converter and the messages held back until its end. */
interface OpenSession {
  src?: string;
  conv: ClaudeToCommon;
  activeFrom: number;
  /** A sessionId seen on this session's user or assistant lines (to notice the next session on stdin). */
  sessionId?: string;
  /** Under --active: the parent links and where each message lies, to keep the resumed chain. */
  chain: ActiveChain | null;
}

/** Writes the Common stream of a sequence of records, one session after another. */
class CommonWriter {
  private session: OpenSession | null = null;
  private readonly spool = new Spool();
  private invalid = 0;
  private invalidSrc: string | undefined;
  private invalidSrcSet = false;
  private foreign = 0;

  constructor(private readonly ctx: Context) {}

  /** Take one record (or a line that is not one) from the input named `inputSrc`. */
  async record(view: RecordView | null, inputSrc: string | undefined, n: number): Promise<void> {
    const src = view?.header.src ?? inputSrc;
    if (!this.invalidSrcSet || src !== this.invalidSrc) {
      this.reportInvalid();
      this.invalidSrc = src;
      this.invalidSrcSet = true;
    }
    if (!view || view.header.kind === 'invalid') {
      this.invalid++;
      return;
    }
    if (view.header.harness !== 'claude-code') {
      this.foreign++;
      return;
    }
    let line: any;
    try {
      line = view.value();
    } catch {
      this.invalid++;
      return;
    }
    if (!line || typeof line !== 'object') {
      this.invalid++;
      return;
    }
    if (this.session && this.startsNewSession(this.session, src, line)) await this.finish();
    const session = this.session ?? this.open(src);
    if ((line.type === 'user' || line.type === 'assistant') && typeof line.sessionId === 'string' && line.sessionId !== '') session.sessionId ??= line.sessionId;
    session.conv.push(line, view.header.n ?? n);
    session.chain?.line(line, line.isSidechain !== true || session.conv.facts.subagent === true);
  }

  /** Finish the last session and report what was skipped. */
  async end(): Promise<void> {
    await this.finish();
    this.reportInvalid();
    if (this.foreign > 0) this.ctx.note(`${this.foreign} records of other harnesses skipped (only claude-code converts to Common so far)`);
  }

  /** Convert a native session file directly (subagent transcripts found by --subagents). */
  async nativeFile(file: string): Promise<void> {
    const stream = createReadStream(file, { highWaterMark: 1 << 20 });
    for await (const physical of splitLines(stream)) {
      for (const parsed of parsePhysicalLine(physical, file, 'claude-code')) {
        await this.record(recordView(parsed.header, parsed.lineBytes, parsed.value), file, physical.n);
      }
    }
    await this.finish();
  }

  // A new file is a new session. On stdin (no file names), a user or assistant line of
  // another sessionId that starts a chain (no parent) starts one: a resumed file's first
  // line carries the old sessionId but continues the chain, so it does not.
  private startsNewSession(s: OpenSession, src: string | undefined, line: any): boolean {
    if (src !== s.src) return true;
    if (src !== undefined) return false;
    if (line.type !== 'user' && line.type !== 'assistant') return false;
    const id = line.sessionId;
    return typeof id === 'string' && id !== '' && s.sessionId !== undefined && id !== s.sessionId && (line.parentUuid === null || line.parentUuid === undefined);
  }

  private open(src: string | undefined): OpenSession {
    const active = this.ctx.args.active === true;
    const session: OpenSession = {
      src,
      activeFrom: 0,
      chain: active ? new ActiveChain() : null,
      conv: new ClaudeToCommon({
        sidechains: this.ctx.args.sidechains === true,
        active,
        emit: (m: CommonMessage, uuids: string[]) => {
          const start = this.spool.size;
          this.spool.write(JSON.stringify(m) + '\n');
          if (!m.sidechain) session.chain?.message(start, this.spool.size, uuids);
        },
        compacted: () => {
          session.activeFrom = this.spool.size;
        },
        preserved: (uuids: Set<string>, anchor: string) => {
          const hits = session.chain?.find(uuids, session.activeFrom) ?? [];
          if (hits.length === 0) return;
          // The segment is contiguous: from its first message to its last.
          const start = this.spool.size;
          this.spool.write(this.spool.slice(hits[0].start, hits[hits.length - 1].end));
          session.chain?.message(start, this.spool.size, [], anchor);
        },
      }),
    };
    this.session = session;
    return session;
  }

  private async finish(): Promise<void> {
    const s = this.session;
    if (!s) return;
    this.session = null;
    try {
      s.conv.finish();
      await this.ctx.out.writeJson(sessionLine(s.conv.facts, s.src));
      const ranges = s.chain?.select();
      if (ranges) {
        for (const r of ranges) for (const piece of this.spool.range(r.start, r.end)) await this.ctx.out.write(piece);
      } else {
        for (const piece of this.spool.read(this.ctx.args.active ? s.activeFrom : 0)) await this.ctx.out.write(piece);
      }
    } finally {
      this.spool.clear();
    }
    if (this.ctx.args.subagents && s.src !== undefined && !s.conv.facts.subagent) {
      for (const sub of listSubagentFiles(s.src)) if (existsSync(sub.file)) await this.nativeFile(sub.file);
    }
  }

  private reportInvalid(): void {
    if (this.invalid > 0) this.ctx.warn({ src: this.invalidSrc }, `${this.invalid} invalid line${this.invalid === 1 ? '' : 's'} skipped`);
    this.invalid = 0;
  }

  /** Remove the temporary file, whatever happened. */
  dispose(): void {
    this.spool.clear();
  }
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

async function main(ctx: Context): Promise<void> {
  const writer = new CommonWriter(ctx);
  try {
    for await (const item of readRecordStream(ctx)) await writer.record(item.record, item.src, item.n);
    await writer.end();
  } finally {
    writer.dispose();
  }
}

/** The tx-common tool. */
export const commonTool: Tool = { name: 'tx-common', help: HELP, options: { boolean: ['active', 'sidechains', 'subagents'] }, main };
