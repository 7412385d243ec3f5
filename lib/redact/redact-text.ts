// Redacting one string: the secrets in it, the secrets in the JSON string literals it
// holds (a tool's input or output that is JSON text), and the secrets in the base64
// runs it holds that decode to text, found by secretlint's preset and tx-redact's own
// rules. Each secret becomes `[REDACTED:<rule>]`.
import { createHash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { forEachBase64Run, MIN_BASE64 } from './base64-runs.js';
import type { HomeMasker } from './home.js';
import { NAME_RULES, SECRET_NAME } from './name-rules.js';
import { nonOverlapping, type Finding, type Scanner } from './scan.js';
import { SECRETLINT_CASED, SecretlintFinder } from './secretlint.js';
import type { JsonRedactor } from './walk.js';

/** Rules that know a secret by the name given to it; a URL's password keeps its own rule's name, as before secretlint's. */
const NAME_RULE_IDS = new Set(NAME_RULES.map((r) => r.id).filter((id) => id !== 'url-password'));

/** The shortest member name searched for secrets. */
const MIN_SECRET_NAME = 8;

/** How deep JSON string literals inside strings are decoded: a string in JSON text in a string… */
export const MAX_JSON_DEPTH = 4;
/** How deep base64 inside base64 (or inside JSON text) is decoded. */
export const MAX_BASE64_DEPTH = 2;

/** What a report line says of one secret: its rule and a short hash, never the secret. */
export interface Redaction {
  rule: string;
  /** The first 12 hex digits of the secret's SHA-256. */
  hash: string;
}

/** The text a secret is replaced with. */
export function placeholder(rule: string): string {
  return `[REDACTED:${rule}]`;
}

/** A short, one-way name for a secret, so reports can say "the same secret again". */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 12);
}

const LITERAL = /"(?:[^"\\\n]|\\.)*"/g;

function looksLikeText(bytes: Buffer): boolean {
  for (const b of bytes) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return false;
  return true;
}

/** The encoding a base64 run is read with, or null for a run that mixes the two alphabets. */
function runEncoding(run: string): 'base64' | 'base64url' | null {
  const urlSafe = /[-_]/.test(run);
  if (urlSafe && /[+/]/.test(run)) return null;
  return urlSafe ? 'base64url' : 'base64';
}

/** How many characters of a run are decoded for a first look: images and archives are not decoded whole. */
const HEAD = 64;

/** Whether a run's first bytes (its first HEAD characters decoded) can begin text: no control bytes. */
function headLooksLikeText(run: string, encoding: 'base64' | 'base64url'): boolean {
  return looksLikeText(Buffer.from(run.length > HEAD ? run.slice(0, HEAD) : run, encoding));
}

/** How many letters of an escape (`\n`, `\u000a`) can stand before a run in a raw line. */
const ESCAPE_LETTERS = [1, 5];

/**
 * Whether a raw line holds a base64 run that redactBase64 would decode, in any string
 * its JSON holds, at any depth of JSON text in strings. Such a run is a raw run (base64
 * characters need no escapes), or, after a backslash, a raw run without the letters of
 * the escape before it (`\n`, `\u000a`: one or five); escapes that spell a base64
 * character (`\/`, `\u0041`) make the survey read every string anyway.
 */
function holdsTextBase64(raw: string): boolean {
  let found = false;
  forEachBase64Run(raw, (start, end) => {
    const run = raw.slice(start, end);
    const encoding = runEncoding(run);
    if (encoding === null) return false;
    const afterEscape = start > 0 && raw.charCodeAt(start - 1) === 0x5c;
    found = headLooksLikeText(run, encoding) || (afterEscape && ESCAPE_LETTERS.some((skip) => run.length - skip >= MIN_BASE64 && headLooksLikeText(run.slice(skip, skip + HEAD), encoding)));
    return found;
  });
  return found;
}

/** What a look at a raw line found: the keywords its strings can hold (null: any). */
export interface LineSurvey {
  keywords: string[] | null;
}

const ANY: LineSurvey = { keywords: null };

/** Redacts strings with a scanner (and a home masker under --home), collecting what it replaced. */
export class TextRedactor {
  private readonly secretlint = new SecretlintFinder();

  constructor(
    private readonly scanner: Scanner,
    private readonly home: HomeMasker | null,
  ) {}

  /**
   * A look at a raw line's bytes before it is parsed: null when nothing in it can need
   * redacting (no rule keyword or secretlint hint, found in one pass; no base64 run that starts like text,
   * nothing for --home),
   * else the keywords its strings can hold (null: any, when escapes could spell one).
   */
  survey(raw: string): LineSurvey | null {
    const keywords = this.scanner.keywordsIn(raw);
    // A keyword spelled with \u escapes (JSON.stringify never writes printable ASCII so), or a '/' written '\/'.
    const escaped = /\\u00[2-7][0-9a-fA-F]|\\\//.test(raw);
    if (keywords.length > 0 || escaped || SECRETLINT_CASED.test(raw) || this.scanner.hasRulesWithoutKeywords || (this.home !== null && this.home.mayHold(raw)) || holdsTextBase64(raw)) {
      return { keywords: escaped ? null : keywords };
    }
    return null;
  }

  /**
   * Run `pass` (one redaction of a line, with its own `found`) until secretlint knew every
   * string it asked about: strings it had not linted yet are linted between passes.
   */
  async settle<T>(pass: () => T): Promise<T> {
    try {
      for (;;) {
        const result = pass();
        if (!this.secretlint.pending) return result;
        await this.secretlint.lintQueued();
      }
    } finally {
      this.secretlint.clear();
    }
  }

  /** `text` with its secrets replaced; each replacement is pushed onto `found`. `survey` is its line's. */
  redact(text: string, found: Redaction[], survey: LineSurvey = ANY, jsonDepth = 0, base64Depth = 0): string {
    let out = text;
    if (jsonDepth < MAX_JSON_DEPTH && out.includes('\\') && out.includes('"')) out = this.redactLiterals(out, found, survey, jsonDepth, base64Depth);
    out = this.redactDirect(out, found, survey);
    if (base64Depth < MAX_BASE64_DEPTH && out.length >= MIN_BASE64) out = this.redactBase64(out, found, jsonDepth, base64Depth);
    return out;
  }

  /** What redactJson asks of this redactor for one line: its strings and member names, found pushed onto `found`. */
  forJson(found: Redaction[], survey: LineSurvey = ANY): JsonRedactor {
    return {
      value: (text, name) => this.redactMember(name, text, found, survey),
      // No secret any rule finds is shorter than this; most names are.
      name: (text) => (text.length < MIN_SECRET_NAME ? text : this.redact(text, found, survey)),
    };
  }

  /**
   * A member's string value: its own secrets, else, when the member's name says it holds
   * one (`API_KEY`, `password`, `Authorization`), the value as the name-rules read
   * `"NAME": "VALUE"` in JSON text.
   */
  private redactMember(name: string | null, value: string, found: Redaction[], survey: LineSurvey): string {
    const out = this.redact(value, found, survey);
    if (out !== value || name === null || !SECRET_NAME.test(name)) return out;
    const head = `"${name}": "`;
    const from = head.length;
    const to = from + value.length;
    const hits = this.scanner.find(`${head}${value}"`, survey.keywords).filter((h) => h.start >= from && h.end <= to);
    if (hits.length === 0) return out;
    return replaceAll(value, hits.map((h) => ({ ...h, start: h.start - from, end: h.end - from })), found);
  }

  private redactDirect(text: string, found: Redaction[], survey: LineSurvey): string {
    // Of two findings of the same secret the first named stays: our shape rules and URL
    // passwords, then secretlint's, then the rules that know a secret by its name only.
    let hits = this.scanner.find(text, survey.keywords);
    const linted = this.secretlint.find(text);
    if (linted.length > 0) {
      const byName = hits.filter((h) => NAME_RULE_IDS.has(h.rule));
      hits = nonOverlapping([...hits.filter((h) => !NAME_RULE_IDS.has(h.rule)), ...linted, ...byName]);
    }
    if (this.home) {
      const names = this.home.find(text);
      if (names.length > 0) hits = nonOverlapping([...hits, ...names]);
    }
    if (hits.length === 0) return text;
    return replaceAll(text, hits, found);
  }

  /** JSON string literals with escapes in them are decoded, redacted, and written back as literals. */
  private redactLiterals(text: string, found: Redaction[], survey: LineSurvey, jsonDepth: number, base64Depth: number): string {
    let out = '';
    let last = 0;
    LITERAL.lastIndex = 0;
    const literals: Array<[number, number]> = [];
    let m: RegExpExecArray | null;
    while ((m = LITERAL.exec(text)) !== null) if (m[0].includes('\\')) literals.push([m.index, m.index + m[0].length]);
    for (const [start, end] of literals) {
      let decoded: string;
      try {
        decoded = JSON.parse(text.slice(start, end));
      } catch {
        continue;
      }
      const next = this.redact(decoded, found, survey, jsonDepth + 1, base64Depth);
      if (next === decoded) continue;
      out += text.slice(last, start) + JSON.stringify(next);
      last = end;
    }
    return last === 0 ? text : out + text.slice(last);
  }

  /** Base64 runs that decode to text are redacted as text and encoded again the same way. */
  private redactBase64(text: string, found: Redaction[], jsonDepth: number, base64Depth: number): string {
    let out = '';
    let last = 0;
    const runs: Array<[number, number]> = [];
    forEachBase64Run(text, (start, end) => {
      runs.push([start, end]);
    });
    for (const [start, end] of runs) {
      const run = text.slice(start, end);
      const encoding = runEncoding(run);
      if (encoding === null || !headLooksLikeText(run, encoding)) continue;
      const urlSafe = encoding === 'base64url';
      const bytes = Buffer.from(run, encoding);
      if (!isUtf8(bytes) || !looksLikeText(bytes)) continue;
      const decoded = bytes.toString('utf8');
      // Decoded base64 holds keywords the raw line does not show.
      const next = this.redact(decoded, found, ANY, jsonDepth, base64Depth + 1);
      if (next === decoded) continue;
      let encoded = Buffer.from(next, 'utf8').toString(encoding);
      if (urlSafe && run.endsWith('=')) encoded += '='.repeat((4 - (encoded.length % 4)) % 4);
      if (!urlSafe && !run.endsWith('=') && run.length % 4 !== 0) encoded = encoded.replace(/=+$/, '');
      out += text.slice(last, start) + encoded;
      last = end;
    }
    return last === 0 ? text : out + text.slice(last);
  }
}

function replaceAll(text: string, hits: Finding[], found: Redaction[]): string {
  let out = '';
  let last = 0;
  for (const h of hits) {
    out += text.slice(last, h.start) + placeholder(h.rule);
    last = h.end;
    found.push({ rule: h.rule, hash: secretHash(h.secret) });
  }
  return out + text.slice(last);
}
