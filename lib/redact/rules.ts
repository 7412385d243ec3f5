// The rules tx-redact scans with besides secretlint's preset: its own, for the secrets
// that go through agent sessions in any surroundings, and the rules of a --rules file.

/** A rule as written: an id, a JavaScript regex, and gitleaks-style optional fields. */
export interface RuleSource {
  id: string;
  regex: string;
  keywords?: string[];
  secretGroup?: number;
  entropy?: number;
}

/** A rule ready to scan: its regex is global and has match indices. */
export interface Rule {
  id: string;
  regex: RegExp;
  /** Lower-case words, one of which must be in a text for the rule to run; empty: always runs. */
  keywords: string[];
  /** The group that is the secret (0: the first non-empty group, else the whole match). */
  secretGroup: number;
  /** Secrets with Shannon entropy at or below this are not secrets (0: no threshold). */
  entropy: number;
}

/** Compile a rule; a leading `(?i)` (as gitleaks writes it) makes the regex case-insensitive. */
export function compileRule(r: RuleSource): Rule {
  const insensitive = r.regex.startsWith('(?i)');
  return {
    id: r.id,
    regex: new RegExp(insensitive ? r.regex.slice(4) : r.regex, insensitive ? 'gdi' : 'gd'),
    keywords: (r.keywords ?? []).map((k) => k.toLowerCase()),
    secretGroup: r.secretGroup ?? 0,
    entropy: r.entropy ?? 0,
  };
}

/**
 * tx-redact's own rules. secretlint's anthropic and openai rules want the exact length
 * of one key generation, its private-key rule the END line, and it has no JWT rule;
 * these take the same secrets in any surroundings, truncated private keys, and
 * passwords in any URL scheme. A run is written `C{20}C*`, not `C{20,}`: V8 backtracks
 * `{20,}` through a stack of a few bytes a character (55 MB for a 2 MB run, kept), and
 * `C*` without one.
 */
export const OWN_RULES: RuleSource[] = [
  { id: 'anthropic-key', regex: '\\bsk-ant-(?:api|admin|oat|ort|sid)[0-9]{2}-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*', keywords: ['sk-ant-'] },
  { id: 'openai-key', regex: '\\bsk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*|\\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|\\bsk-[A-Za-z0-9]{48}\\b', keywords: ['sk-'] },
  { id: 'json-web-token', regex: '\\beyJ[A-Za-z0-9_-]{10}[A-Za-z0-9_-]*\\.eyJ[A-Za-z0-9_-]{10}[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]{10}[A-Za-z0-9_-]*', keywords: ['eyj'] },
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

/** A set of rules run by tx-redact's own engine. */
export interface RuleSet {
  rules: Rule[];
}

/** tx-redact's own rules, then `extra` (a --rules file's). */
export function defaultRuleSet(extra: Rule[] = []): RuleSet {
  return { rules: [...OWN_RULES.map(compileRule), ...extra] };
}

/**
 * Read a --rules file: one JSON object a line, `{"id":…,"regex":…}` with optional
 * `keywords`, `secretGroup`, `entropy` (the fields of gitleaks' rules; the regex is
 * JavaScript's, a leading `(?i)` accepted); blank lines and lines
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
    let rule: Rule;
    try {
      rule = compileRule({ id: value.id, regex: value.regex, keywords: value.keywords, secretGroup: value.secretGroup, entropy: value.entropy });
    } catch (err) {
      throw new Error(`${where}: bad regex: ${(err as Error).message}`);
    }
    if (rule.regex.test('')) throw new Error(`${where}: the regex matches the empty string`);
    rules.push(rule);
  }
  return rules;
}
