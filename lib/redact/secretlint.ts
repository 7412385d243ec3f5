// secretlint's recommended preset (an npm dependency, kept by its authors), run through
// @secretlint/core on one string at a time. lintSource is asynchronous while a line is
// redacted synchronously, so a line is redacted in passes: a pass asks for the findings
// of each string, strings not linted yet are queued and linted between passes, and the
// pass is run again until every string it asked about was known (see TextRedactor.settle).
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { isUrlPassword } from './name-rules.js';
import type { Finding } from './scan.js';

/**
 * The preset with its defaults, except that AWS access key ids (AKIA…) are reported too:
 * off by default in secretlint as an id is half a credential, but a shared transcript
 * should not hand it out either.
 */
const CONFIG = {
  rules: [{ id: recommended.meta.id, rule: recommended, rules: [{ id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true } }] }],
};
const PREFIX = '@secretlint/secretlint-rule-';
/** Rule names as secretlint's ids without their package prefix, shortened where long. */
const SHORT: Record<string, string> = { 'database-connection-string': 'database', privatekey: 'private-key', basicauth: 'basic-auth' };

/**
 * Text every finding of the preset's rules (11.7.1) contains, as written in their
 * regexes (the Slack webhook host is matched case-insensitively there, in
 * lower case here, as webhook URLs are written): AWS key prefixes and `SECRET_ACCESS_KEY`, PEM headers, npm, Slack, SendGrid,
 * Shopify, GitHub, OpenAI/Anthropic (`sk-`), Linear, 1Password prefixes, and
 * `scheme://user:password@` for Basic auth and database URLs. A string without any is
 * not handed to secretlint: a lint costs about 2 ms, most strings hold none.
 */
export const SECRETLINT_HINT =
  /hooks\.slack\.com|A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|[Ss]ecret_?[Aa]ccess|SECRET_?ACCESS|-----BEGIN|_authToken|npm_|xox[abpor]-|xapp-|SG\.|shp(?:pa|ca|at|ss)_|gh[pousr]_|github_pat_|sk-|lin_api_|ops_|:\/\/[^:/\s]*:[^@/\s]*@/;

/**
 * SECRETLINT_HINT's texts as keywords of the one pass over a raw line (keywords.ts),
 * folded to lower case: a line holding none is not parsed. `SG.` folded would be in every
 * `msg.`: SECRETLINT_CASED looks for it as written. A keyword found where the hint is
 * not (`canvas` holds `anva`) only costs the line a parse; each string is then tested
 * against SECRETLINT_HINT itself.
 */
export const SECRETLINT_KEYWORDS = [
  'hooks.slack.com', 'a3t', 'akia', 'agpa', 'aida', 'aroa', 'aipa', 'anpa', 'anva', 'asia', 'secretaccess', 'secret_access', '-----begin', '_authtoken', 'npm_',
  'xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxr-', 'xapp-', 'shppa_', 'shpca_', 'shpat_', 'shpss_', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'sk-', 'lin_api_', 'ops_', '://',
];

/** The one text of SECRETLINT_HINT looked for in a raw line as written. */
export const SECRETLINT_CASED = /SG\./;

/** The rule name a secretlint rule id is reported as. */
export function shortRuleId(id: string): string {
  const name = id.startsWith(PREFIX) ? id.slice(PREFIX.length) : id;
  return SHORT[name] ?? name;
}

/** The rules of the preset, by their short names. */
export function secretlintRules(): string[] {
  return recommended.rules.map((r) => shortRuleId(r.meta.id)).filter((id) => id !== 'filter-comments');
}

/** A URL's user and password; a `${…}` reference is read whole, colon and all. */
const URL_PASSWORD = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:\$\{[^{}\s]{1,128}\}|[^:/\s{}]){0,128}:(\$\{[^{}\s]{1,128}\}|[^@/\s]{1,256})@/;

/** Lints one text with the preset; a URL finding is narrowed to its password, so the host stays readable. */
export async function lintText(text: string): Promise<Finding[]> {
  const result = await lintSource({ source: { content: text, filePath: '/text', contentType: 'text' }, options: { config: CONFIG, noPhysicFilePath: true } });
  const found: Finding[] = [];
  for (const m of result.messages) {
    let [start, end] = m.range;
    const rule = shortRuleId(m.ruleId);
    // secretlint 11.7.1 reports an AWS secret key at the start of `AWS_SECRET_ACCESS_KEY=`
    // with the key's length; the key itself is in the message's data.
    const key = (m.data as Record<string, unknown> | undefined)?.KEY;
    if (rule === 'aws' && typeof key === 'string' && text.slice(start, end) !== key) {
      const at = text.indexOf(key, start);
      if (at >= 0 && at - start < 256) [start, end] = [at, at + key.length];
    }
    if (rule === 'database' || rule === 'basic-auth') {
      const pw = URL_PASSWORD.exec(text.slice(start, end));
      if (pw) {
        start += pw[0].length - 1 - pw[1].length;
        end = start + pw[1].length;
      }
      // A template's password (`${DB_PASSWORD:-postgres}`) or a placeholder (`user:pass@`) is none.
      if (!isUrlPassword(text.slice(start, end))) continue;
    }
    const secret = text.slice(start, end);
    // A placeholder an inner pass wrote (`postgres://u:[REDACTED:url-password]@h`) is not a secret again.
    if (end > start && !secret.includes('[REDACTED:')) found.push({ start, end, rule, secret });
  }
  return found;
}

/** secretlint's findings for the strings of one line: known ones at once, the rest queued for the next pass. */
export class SecretlintFinder {
  private readonly known = new Map<string, Finding[]>();
  private readonly queued = new Set<string>();

  /** The findings in `text`, or none yet when it has not been linted (it is queued). */
  find(text: string): Finding[] {
    if (!SECRETLINT_HINT.test(text)) return [];
    const hits = this.known.get(text);
    if (hits) return hits.map((h) => ({ ...h }));
    this.queued.add(text);
    return [];
  }

  /** Whether a pass asked about a string not linted yet. */
  get pending(): boolean {
    return this.queued.size > 0;
  }

  /** Lint the queued strings. */
  async lintQueued(): Promise<void> {
    const texts = [...this.queued];
    this.queued.clear();
    for (const text of texts) this.known.set(text, await lintText(text));
  }

  /** Forget the line's strings (memory stays one line's worth). */
  clear(): void {
    this.known.clear();
    this.queued.clear();
  }
}
