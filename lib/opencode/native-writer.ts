// The OpenCode writer as tx-native drives it (NativeWriter): the session's info goes
// first, before the lines of the first message. tx-native names a session by a UUID; an
// OpenCode session id (`ses_…`, newest first by its time digits) is made from it, the
// same UUID giving the same id.
import type { CommonMessage, CommonSession } from '../common.js';
import type { FromCommonOptions, NativeWriter } from '../codec.js';
import { OpencodeWriter } from './from-common.js';
import { IdMaker } from './ids.js';

/** The OpenCode session id tx-native's UUID stands for. */
export function sessionIdFor(uuid: string, session: CommonSession, now = Date.now()): string {
  const started = session.started_at ? Date.parse(session.started_at) : NaN;
  return new IdMaker(`tx-native\0${uuid}`).session(Number.isFinite(started) ? started : now);
}

/** A NativeWriter over OpencodeWriter: its info first. */
export class OpencodeNativeWriter implements NativeWriter {
  private readonly writer: OpencodeWriter;
  private begun = false;
  /** The session id the lines name. */
  readonly id: string;

  constructor(session: CommonSession, options: FromCommonOptions) {
    this.id = options.sessionId.startsWith('ses_') ? options.sessionId : sessionIdFor(options.sessionId, session);
    this.writer = new OpencodeWriter(session, { sessionId: this.id, cwd: options.cwd });
  }

  get warnings(): string[] {
    return this.writer.warnings;
  }

  private head(): object[] {
    if (this.begun) return [];
    this.begun = true;
    return [this.writer.info()];
  }

  message(m: CommonMessage): object[] {
    return [...this.head(), ...this.writer.message(m)];
  }

  finish(): object[] {
    return [...this.head(), ...this.writer.finish()];
  }

  /** The id the store names the session by. */
  storeId(): string {
    return this.id;
  }
}
