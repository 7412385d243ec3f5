// The rule set tx-redact scans with: gitleaks' default rules, a few of its own for the
// secrets that go through agent sessions and that gitleaks' rules miss or only catch in
// some surroundings, and the rules of a --rules file.
import { compileGitleaks, compileRule, type Allowlist, type GitleaksRule, type Rule } from './gitleaks.js';
import { GITLEAKS } from './gitleaks/rules.js';

/**
 * tx-redact's own rules, in gitleaks' format. gitleaks' anthropic and openai rules want
 * the exact length of one key generation and a quote or space after it, its jwt rule a
 * quote or space after the token, and its private-key rule the END line; these take the
 * same secrets in any surroundings, truncated private keys, and passwords in URLs.
 */
export const OWN_RULES: GitleaksRule[] = [
  { id: 'anthropic-key', regex: '\\bsk-ant-(?:api|admin|oat|ort|sid)[0-9]{2}-[A-Za-z0-9_-]{20,}', keywords: ['sk-ant-'] },
  { id: 'openai-key', regex: '\\bsk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|\\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|\\bsk-[A-Za-z0-9]{48}\\b', keywords: ['sk-'] },
  { id: 'json-web-token', regex: '\\beyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}', keywords: ['eyj'] },
  {
    id: 'private-key-block',
    regex: '-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\\s\\S]*?(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|$)',
    keywords: ['-----begin'],
  },
  {
    id: 'url-password',
    // scheme://user:password@host — the password alone is the secret.
    regex: '\\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\\s:/?#@"\'`<>\\\\]{1,128}:([^\\s/?#@"\'`<>\\\\]{1,256})@[^\\s/?#@"\'`<>\\\\]',
    secretGroup: 1,
    keywords: ['://'],
  },
];

/** A set of rules with the global allowlist they share. */
export interface RuleSet {
  rules: Rule[];
  allowlist: Allowlist;
  /** Where the gitleaks rules come from (for --list-rules and the report). */
  gitleaksVersion: string;
}

/** Rules that name a secret only when no rule for its kind of secret does. */
const CATCH_ALL = new Set(['generic-api-key']);

/**
 * gitleaks' rules, then tx-redact's, then gitleaks' catch-all, then `extra`: a secret two
 * rules find is named by the first, so a GitHub token is `github-pat`, not a generic key.
 */
export function defaultRuleSet(extra: Rule[] = []): RuleSet {
  const gitleaks = compileGitleaks(GITLEAKS);
  const own = OWN_RULES.map((r) => compileRule(r)!);
  const specific = gitleaks.rules.filter((r) => !CATCH_ALL.has(r.id));
  const catchAll = gitleaks.rules.filter((r) => CATCH_ALL.has(r.id));
  return { rules: [...specific, ...own, ...catchAll, ...extra], allowlist: gitleaks.allowlist, gitleaksVersion: GITLEAKS.version };
}

/**
 * Read a --rules file: one JSON object a line, `{"id":…,"regex":…}` with optional
 * `keywords`, `secretGroup`, `entropy` (gitleaks' fields); blank lines and lines
 * starting with `#` are skipped. Throws an Error naming the line that is wrong.
 */
export function parseRulesFile(text: string, name: string): Rule[] {
  const rules: Rule[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    const where = `${name}:${i + 1}`;
    let value: any;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`${where}: not a JSON object`);
    }
    if (!value || typeof value !== 'object' || typeof value.id !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(value.id)) throw new Error(`${where}: "id" must be a name of letters, digits, '-', '_' or '.'`);
    if (typeof value.regex !== 'string' || value.regex === '') throw new Error(`${where}: "regex" must be a non-empty string`);
    if (value.keywords !== undefined && !(Array.isArray(value.keywords) && value.keywords.every((k: unknown) => typeof k === 'string' && k !== ''))) throw new Error(`${where}: "keywords" must be a list of non-empty strings`);
    if (value.secretGroup !== undefined && !(Number.isInteger(value.secretGroup) && value.secretGroup >= 0)) throw new Error(`${where}: "secretGroup" must be a whole number`);
    if (value.entropy !== undefined && typeof value.entropy !== 'number') throw new Error(`${where}: "entropy" must be a number`);
    let rule: Rule | null;
    try {
      rule = compileRule({ id: value.id, regex: value.regex, keywords: value.keywords, secretGroup: value.secretGroup, entropy: value.entropy });
    } catch (err) {
      throw new Error(`${where}: bad regex: ${(err as Error).message}`);
    }
    if (rule!.regex.test('')) throw new Error(`${where}: the regex matches the empty string`);
    rules.push(rule!);
  }
  return rules;
}
