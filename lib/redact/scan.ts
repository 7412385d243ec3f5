// Finding the secrets in one text with tx-redact's own rules and a --rules file's: a rule
// runs on a text only when one of its keywords is in it; the secret is the rule's
// secretGroup, else its first non-empty group, else the whole match; a secret at or
// below the rule's entropy is dropped (the meaning of these fields in gitleaks' rules).
import { KeywordFinder } from './keywords.js';
import type { Rule, RuleSet } from './rule.js';

/** One secret in a text: where it is, the rule that found it, and the secret itself. */
export interface Finding {
  start: number;
  end: number;
  rule: string;
  secret: string;
}

/** Shannon entropy of a text in bits per character. */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let length = 0;
  for (const c of counts.values()) length += c;
  let entropy = 0;
  for (const c of counts.values()) {
    const p = c / length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

/** A scanner: the rule set, and one pass over a text that tells which rules' keywords it holds. */
export class Scanner {
  private readonly keywords: KeywordFinder;
  private readonly byKeyword = new Map<string, Rule[]>();
  private readonly always: Rule[] = [];

  constructor(readonly ruleSet: RuleSet) {
    for (const rule of ruleSet.rules) {
      if (rule.keywords.length === 0) this.always.push(rule);
      for (const k of rule.keywords) {
        let list = this.byKeyword.get(k);
        if (!list) this.byKeyword.set(k, (list = []));
        list.push(rule);
      }
    }
    this.keywords = new KeywordFinder([...new Set([...this.byKeyword.keys(), ...(ruleSet.hints ?? []).map((h) => h.toLowerCase())])]);
  }

  /** Whether some rule runs on every text, keywords or not. */
  get hasRulesWithoutKeywords(): boolean {
    return this.always.length > 0;
  }

  /** Every keyword in `text` (lower case), in one pass. */
  keywordsIn(text: string): string[] {
    return this.keywords.in(text);
  }

  /**
   * The rules to run on `text`: those whose keywords it holds. `among`, the keywords of
   * the raw line the text came from, narrows the search to those (a text decoded from
   * the line's JSON escapes holds no keyword the raw line does not).
   */
  private candidates(text: string, among: string[] | null): Rule[] {
    const chosen = new Set<Rule>(this.always);
    if (among === null) {
      for (const word of this.keywordsIn(text)) for (const rule of this.byKeyword.get(word) ?? []) chosen.add(rule);
    } else if (among.length > 0) {
      const lower = text.toLowerCase();
      for (const word of among) if (lower.includes(word)) for (const rule of this.byKeyword.get(word) ?? []) chosen.add(rule);
    }
    return chosen.size === 0 ? [] : this.ruleSet.rules.filter((r) => chosen.has(r));
  }

  /** Every secret in `text`, without overlaps (the earlier, then the longer, wins), in order. */
  find(text: string, among: string[] | null = null): Finding[] {
    const rules = this.candidates(text, among);
    if (rules.length === 0) return [];
    const found: Finding[] = [];
    for (const rule of rules) findByRule(text, rule, found);
    return nonOverlapping(found);
  }
}

/** Findings in text order without overlaps: of two that overlap, the earlier (then the longer) is kept, stretched over both. */
export function nonOverlapping(found: Finding[]): Finding[] {
  if (found.length < 2) return found;
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Finding[] = [];
  for (const f of found) {
    const last = kept[kept.length - 1];
    if (last && f.start < last.end) {
      if (f.end > last.end) {
        last.secret += f.secret.slice(f.secret.length - (f.end - last.end));
        last.end = f.end;
      }
      continue;
    }
    kept.push({ ...f });
  }
  return kept;
}

const PLACEHOLDER = /^\[REDACTED:[^\]]*\]$/;

function findByRule(text: string, rule: Rule, found: Finding[]): void {
  const re = rule.regex;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    // A match's line ends are not part of the secret.
    let mStart = m.index;
    let mEnd = m.index + m[0].length;
    while (mStart < mEnd && text[mStart] === '\n') mStart++;
    while (mEnd > mStart && text[mEnd - 1] === '\n') mEnd--;
    let start = mStart;
    let end = mEnd;
    const indices = m.indices!;
    if (rule.pick) {
      const g = rule.pick(m);
      if (g === 0 || !indices[g]) continue;
      [start, end] = indices[g]!;
    } else if (m.length >= 2) {
      let g = rule.secretGroup;
      if (g === 0) for (let k = 1; k < m.length && g === 0; k++) if (m[k]) g = k;
      if (g > 0 && g < m.length && m[g] && indices[g]) [start, end] = indices[g]!;
    }
    if (end <= start) continue;
    const secret = text.slice(start, end);
    // What an inner pass (JSON text, base64) already replaced is not found again.
    if (PLACEHOLDER.test(secret)) continue;
    if (rule.entropy > 0 && shannonEntropy(secret) <= rule.entropy) continue;
    found.push({ start, end, rule: rule.id, secret });
  }
}
