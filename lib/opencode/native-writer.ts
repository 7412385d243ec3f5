// The OpenCode writer as tx-native drives it (NativeWriter): the session's info goes
// first, before the lines of the first message. tx-native names a session by a UUID; an
// OpenCode session id (`ses_`, 12 hex digits, 14 base-62 characters, the client's shape)
// is made from it, the same UUID giving the same id. The user messages name the model the
// session continues with (config-model.ts).
import { createHash } from 'node:crypto';
import type { CommonMessage, CommonSession } from '../common.js';
import type { FromCommonOptions, NativeWriter } from '../codec.js';
import { configuredModel, parseModel } from './config-model.js';
import { OpencodeWriter } from './from-common.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The OpenCode session id tx-native's UUID stands for: the same UUID, the same id, whatever the session holds (tx-continue prints it before the session is written). */
export function sessionIdFor(uuid: string): string {
  const digest = createHash('sha256').update(`tx-native\0${uuid.toLowerCase()}`).digest();
  let tail = '';
  for (let i = 6; i < 20; i++) tail += BASE62[digest[i]! % 62];
  return `ses_${digest.subarray(0, 6).toString('hex')}${tail}`;
}

/** A NativeWriter over OpencodeWriter: its info first. */
export class OpencodeNativeWriter implements NativeWriter {
  private readonly writer: OpencodeWriter;
  private begun = false;
  /** The session id the lines name. */
  readonly id: string;

  constructor(session: CommonSession, options: FromCommonOptions) {
    this.id = options.sessionId.startsWith('ses_') ? options.sessionId : sessionIdFor(options.sessionId);
    const given = options.model === undefined ? null : parseModel(options.model);
    if (options.model !== undefined && given === null) throw new Error(`--model ${JSON.stringify(options.model)} is not PROVIDER/MODEL`);
    const continueWith = given ?? (options.env ? configuredModel(options.env) : null) ?? undefined;
    this.writer = new OpencodeWriter(session, { sessionId: this.id, cwd: options.cwd, seed: this.id, continueWith });
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
}
