// What a rule of tx-redact's own engine is, as written and as compiled (rules.ts compiles).

/** A rule as written: an id, a JavaScript regex, and gitleaks-style optional fields. */
export interface RuleSource {
  id: string;
  regex: string;
  keywords?: string[];
  secretGroup?: number;
  entropy?: number;
  /** Our own rules only: the group holding the secret in a match, or 0 when the match holds none. */
  pick?: (m: RegExpExecArray) => number;
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
  /** The group holding the secret, or 0 to drop the match (a placeholder, a reference); set by our own rules. */
  pick?: (m: RegExpExecArray) => number;
}

/** A set of rules run by tx-redact's own engine. */
export interface RuleSet {
  rules: Rule[];
  /** Keywords of another finder (secretlint's), looked for in the same pass: a line holding one is parsed. */
  hints?: string[];
}
