// What a session's header says that is only known at its end: when it ended, and
// how many tokens it used. Counted as turns pass, so nothing is kept but sums.
import type { CommonMessage, CommonSession, Usage } from '../common.js';
import { isCall } from './pairing.js';

/** Token sums of a session, by the API's usage fields. */
export interface TokenSums {
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
}

/** Running totals of one session. */
export class SessionTally {
  messages = 0;
  toolCalls = 0;
  first: string | undefined;
  last: string | undefined;
  readonly tokens: TokenSums = { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };

  /** Count one message. */
  add(m: CommonMessage): void {
    this.messages++;
    if (typeof m.timestamp === 'string' && !Number.isNaN(Date.parse(m.timestamp))) {
      if (this.first === undefined || m.timestamp < this.first) this.first = m.timestamp;
      if (this.last === undefined || m.timestamp > this.last) this.last = m.timestamp;
    }
    for (const b of m.content) if (isCall(b)) this.toolCalls++;
    if (m.role === 'assistant' && m.usage && typeof m.usage === 'object') {
      const u = usageNumbers(m.usage);
      this.tokens.input += u.input;
      this.tokens.output += u.output;
      this.tokens.cacheRead += u.cacheRead;
      this.tokens.cacheCreation += u.cacheCreation;
    }
  }

  /** Milliseconds from the first message to the last, when both have a time. */
  durationMs(): number | undefined {
    if (this.first === undefined || this.last === undefined) return undefined;
    return Date.parse(this.last) - Date.parse(this.first);
  }
}

const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

/** A message's usage as plain numbers (missing or odd fields count 0). */
export function usageNumbers(u: Usage): TokenSums {
  return { input: count(u.input_tokens), output: count(u.output_tokens), cacheRead: count(u.cache_read_input_tokens), cacheCreation: count(u.cache_creation_input_tokens) };
}

/** `1234567` as `1,234,567`. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A duration as `1h 02m`, `3m 04s` or `12s` (`fine`: under ten seconds to the tenth, `2.4s`). */
export function formatDuration(ms: number, fine = false): string {
  if (fine && ms < 9950) return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(sec).padStart(2, '0')}s`;
  return `${sec}s`;
}

/** A token line for one message: `in 2,542 · out 12 · cache read 0`. */
export function usageLine(u: Usage): string {
  const n = usageNumbers(u);
  const parts = [`in ${formatCount(n.input)}`, `out ${formatCount(n.output)}`];
  if (n.cacheRead > 0) parts.push(`cache read ${formatCount(n.cacheRead)}`);
  if (n.cacheCreation > 0) parts.push(`cache write ${formatCount(n.cacheCreation)}`);
  return parts.join(' · ');
}

/** A session's totals as the page and the Markdown say them. */
export function totals(t: SessionTally): { duration: string; tokens: string } {
  const ms = t.durationMs();
  const tk = t.tokens;
  return {
    duration: ms === undefined ? 'unknown' : formatDuration(ms),
    tokens: `in ${formatCount(tk.input)} · out ${formatCount(tk.output)} · cache read ${formatCount(tk.cacheRead)} · cache write ${formatCount(tk.cacheCreation)}`,
  };
}

/** The session a document is writing: its line, its anchors' prefix, its running totals. */
export interface OpenSession {
  session: CommonSession;
  /** 1-based position of the session in the document. */
  k: number;
  /** What its anchors start with: nothing for the first session, `s2-` for the second. */
  prefix: string;
  tally: SessionTally;
}

/** The sessions of one document, one open at a time. */
export class SessionSequence {
  private sessions = 0;
  open: OpenSession | null = null;

  /** Open the next session. */
  begin(session: CommonSession): OpenSession {
    const k = ++this.sessions;
    this.open = { session, k, prefix: k === 1 ? '' : `s${k}-`, tally: new SessionTally() };
    return this.open;
  }

  /** Close the open session, returning it (null when none was open). */
  close(): OpenSession | null {
    const open = this.open;
    this.open = null;
    return open;
  }

  /** Count a turn into the open session; its anchor id (`m12`, `s2-m12`). */
  count(n: number, message: CommonMessage): string {
    const open = this.open!;
    open.tally.add(message);
    return `${open.prefix}m${n}`;
  }

  /** How many sessions were begun. */
  get begun(): number {
    return this.sessions;
  }
}
