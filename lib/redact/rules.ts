// The rules tx-redact scans with besides secretlint's preset: its own (shape-rules.ts:
// secrets known by their shape; name-rules.ts: secrets known by the name they are given)
// and the rules of a --rules file.
import { NAME_RULES } from './name-rules.js';
import type { Rule, RuleSet, RuleSource } from './rule.js';
import { SECRETLINT_KEYWORDS } from './secretlint.js';
import { SHAPE_RULES } from './shape-rules.js';

export type { Rule, RuleSet, RuleSource } from './rule.js';

/** Compile a rule; a leading `(?i)` (as gitleaks writes it) makes the regex case-insensitive. */
export function compileRule(r: RuleSource): Rule {
  const insensitive = r.regex.startsWith('(?i)');
  return {
    id: r.id,
    regex: new RegExp(insensitive ? r.regex.slice(4) : r.regex, insensitive ? 'gdi' : 'gd'),
    keywords: (r.keywords ?? []).map((k) => k.toLowerCase()),
    secretGroup: r.secretGroup ?? 0,
    entropy: r.entropy ?? 0,
    ...(r.pick ? { pick: r.pick } : {}),
  };
}


/** tx-redact's own rules: the shapes first, so a secret both find is named by its shape. */
export const OWN_RULES: RuleSource[] = [...SHAPE_RULES, ...NAME_RULES];

/** tx-redact's own rules, then `extra` (a --rules file's). */
export function defaultRuleSet(extra: Rule[] = []): RuleSet {
  return { rules: [...OWN_RULES.map(compileRule), ...extra], hints: SECRETLINT_KEYWORDS };
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
    if (value.keywords !== undefined && value.keywords.some((k: string) => /[^\x00-\x7f]/.test(k))) throw new Error(`${where}: "keywords" must be ASCII`);
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
