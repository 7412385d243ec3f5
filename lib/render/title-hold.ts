// A session without a title is named by the first prompt a person typed, but its header
// is written before its turns. So the header waits: the turns written meanwhile (the
// client's context comes first, a few turns of it) are held until a turn with a prompt
// comes, or until HOLD_TURNS turns or HOLD_CHARS characters are held, then the header
// goes out, titled by that prompt or as the session names itself, and the turns after it.
import type { CommonMessage } from '../common.js';
import { promptTitle } from './context.js';

/** Turns a header may wait behind for its session's first prompt. */
const HOLD_TURNS = 16;

/** Characters of output a header may wait behind. */
const HOLD_CHARS = 1024 * 1024;

/** The header of the open session, waiting for its title, and the turns held behind it. */
export class TitleHold {
  private held: string[] | null = null;
  private size = 0;

  constructor(
    private readonly write: (text: string) => Promise<void>,
    /** Write the header, titled `title`, or as the session names itself when null. */
    private readonly header: (title: string | null) => Promise<void>,
  ) {}

  /** Let the open session's header wait for a prompt. */
  wait(): void {
    this.held = [];
    this.size = 0;
  }

  /** Write a turn's text, or hold it while the header waits; the message may hold the prompt it waits for. */
  async turn(message: CommonMessage, text: string): Promise<void> {
    if (this.held === null) return this.write(text);
    const title = promptTitle(message);
    if (title !== null) {
      await this.release(title);
      return this.write(text);
    }
    this.held.push(text);
    this.size += text.length;
    if (this.held.length >= HOLD_TURNS || this.size > HOLD_CHARS) await this.release(null);
  }

  /** Write the waiting header, then the turns held behind it (nothing when none waits). */
  async release(title: string | null): Promise<void> {
    const held = this.held;
    if (held === null) return;
    this.held = null;
    await this.header(title);
    for (const text of held) await this.write(text);
  }
}
