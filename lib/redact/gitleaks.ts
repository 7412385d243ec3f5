// gitleaks' rule format, and its rules compiled into the shape tx-redact scans with.
// The meaning follows gitleaks' detector: a rule runs on a text only when one of its
// keywords is in it; the secret is the rule's secretGroup, else its first non-empty
// group, else the whole match; a secret at or below the rule's entropy is dropped, and
// so is one an allowlist (gitleaks' global one, then the rule's) allows.
import { goRegExp } from './go-regex.js';

/** An allowlist as gitleaks writes it. */
export interface GitleaksAllowlist {
  regexes?: string[];
  stopwords?: string[];
  paths?: string[];
  regexTarget?: 'secret' | 'match' | 'line';
  condition?: 'AND' | 'OR';
}

/** A rule as gitleaks writes it. */
export interface GitleaksRule {
  id: string;
  regex?: string;
  secretGroup?: number;
  entropy?: number;
  keywords?: string[];
  path?: string;
  allowlists?: GitleaksAllowlist[];
}

/** A gitleaks configuration: its version, global allowlist and rules. */
export interface GitleaksConfig {
  version: string;
  allowlist: GitleaksAllowlist;
  rules: GitleaksRule[];
}

/** An allowlist ready to test a finding. */
export interface Allowlist {
  target: 'secret' | 'match' | 'line';
  regexes: RegExp[];
  stopwords: string[];
  /** AND condition: every part it has must allow (a path part never does: text has no path). */
  all: boolean;
  hasPaths: boolean;
}

/** A rule ready to scan: its regex is global and has match indices. */
export interface Rule {
  id: string;
  regex: RegExp;
  /** Lower-case words, one of which must be in a text for the rule to run; empty: always runs. */
  keywords: string[];
  secretGroup: number;
  /** Secrets with Shannon entropy at or below this are not secrets (0: no threshold). */
  entropy: number;
  allowlists: Allowlist[];
  /** The match also takes up to this many word characters, '.' or '-' before where the regex matched (see compileRule). */
  lead: number;
}

/**
 * gitleaks writes a hundred rules as `[\w.-]{0,50}?` + keyword + value. Scanned as is,
 * that lazy prefix makes the engine try 50 lengths at every position of every string;
 * the same matches are found by scanning without it and taking the word characters
 * before the match afterwards (the prefix holds no group and only widens the match).
 */
const LAZY_LEAD = /^(\(\?i\))?\[\\w\.-\]\{0,50\}\?/;

/** Compile an allowlist; regexes are in gitleaks' syntax. */
export function compileAllowlist(a: GitleaksAllowlist): Allowlist {
  return {
    target: a.regexTarget ?? 'secret',
    regexes: (a.regexes ?? []).map((r) => goRegExp(r)),
    stopwords: (a.stopwords ?? []).map((w) => w.toLowerCase()),
    all: a.condition === 'AND',
    hasPaths: (a.paths ?? []).length > 0,
  };
}

/** Compile a rule written in gitleaks' format, or null for a rule that only looks at file paths. */
export function compileRule(r: GitleaksRule): Rule | null {
  // Rules tied to a file name (a .tf or .yaml file…) cannot apply: a transcript string has none.
  if (r.regex === undefined || r.path !== undefined) return null;
  const lead = LAZY_LEAD.test(r.regex) ? 50 : 0;
  return {
    id: r.id,
    regex: goRegExp(lead > 0 ? r.regex.replace(LAZY_LEAD, '$1') : r.regex, 'gd'),
    lead,
    keywords: (r.keywords ?? []).map((k) => k.toLowerCase()),
    secretGroup: r.secretGroup ?? 0,
    entropy: r.entropy ?? 0,
    allowlists: (r.allowlists ?? []).map(compileAllowlist),
  };
}

/** Compile a whole gitleaks configuration: the global allowlist and the rules that can apply. */
export function compileGitleaks(config: GitleaksConfig): { allowlist: Allowlist; rules: Rule[] } {
  const rules: Rule[] = [];
  for (const r of config.rules) {
    const rule = compileRule(r);
    if (rule) rules.push(rule);
  }
  return { allowlist: compileAllowlist(config.allowlist), rules };
}
