// Where a Gemini CLI chat file becomes Common: the conversation `gemini --resume` rebuilds
// from it. Lines are replayed as the client loads them (chat-log.ts: records replaced by
// id, `$rewindTo`, checkpoints), then each record becomes Common messages (turns.ts). The
// session line comes first but is known only at the end, so records wait in the log's
// spool. Under --active the messages are the list the client loads; without it, every
// message the file recorded, in the order first written (rewound and compressed-away ones
// too), a compression's snapshot marked `after_compaction`.
import type { SessionConverter, ToCommonOptions } from '../codec.js';
import type { CommonSession } from '../common.js';
import { ChatLog } from './chat-log.js';
import { isMetadataLine } from './detect.js';
import { projectRoot } from './session-context.js';
import { TurnBuilder } from './turns.js';

/** The name records and Common sessions carry for this harness. */
export const GEMINI_HARNESS = 'gemini';

/** Converts one Gemini session's chat lines to Common. */
export class GeminiToCommon implements SessionConverter {
  private readonly log = new ChatLog();

  constructor(private readonly opts: Pick<ToCommonOptions, 'src' | 'active'>) {}

  /** On stdin: a metadata line naming another session begins a new session (a resume's second metadata line names the same). */
  startsNewSession(line: any): boolean {
    const id = this.log.metadata.sessionId;
    return isMetadataLine(line) && id !== undefined && line.sessionId !== id;
  }

  /** Every kind of line can change the conversation. */
  reads(): boolean {
    return true;
  }

  /** Take one parsed chat line. */
  push(line: unknown): void {
    this.log.push(line);
  }

  /** The session line, then its messages, each one line of text. */
  *finish(): Generator<string> {
    const turns = new TurnBuilder(this.opts.active);
    yield JSON.stringify(this.sessionLine()) + '\n';
    for (const rec of this.log.messages(this.opts.active)) {
      for (const m of turns.messages(rec, this.log.restarts.has(String(rec.id)))) yield JSON.stringify(m) + '\n';
    }
  }

  /** Subagent chats live in a folder of their own; none are followed yet. */
  followers(): string[] {
    return [];
  }

  /** Remove the spool's file, whatever happened. */
  dispose(): void {
    this.log.clear();
  }

  private sessionLine(): CommonSession {
    const meta = this.log.metadata;
    const stem = this.opts.src?.split('/').pop()?.replace(/\.jsonl?$/, '');
    const s: CommonSession = { type: 'session', harness: GEMINI_HARNESS, id: meta.sessionId ?? stem ?? '' };
    if (meta.summary !== undefined && meta.summary.trim() !== '') {
      s.title = meta.summary;
      s.ai_title = meta.summary;
    }
    const cwd = projectRoot(this.log.contextDirs ?? [], meta.projectHash);
    if (cwd !== null) s.cwd = cwd;
    if (this.log.model !== undefined) s.model = this.log.model;
    if (meta.startTime !== undefined) s.started_at = meta.startTime;
    if (this.opts.src !== undefined) s.src = this.opts.src;
    return s;
  }
}
