// Finding which rule keywords a text holds, in one pass of one regular expression. The
// keywords are written as a trie (`to(?:ken(?:=|:)|…)`), not as a list of alternatives:
// V8 tries each alternative at each character, so 150 keywords listed took twice as
// long as the same keywords as a trie. (An Aho-Corasick automaton in JavaScript took
// longer still: a loop over a line's characters costs more than V8's compiled regex.)
// A `"` in a keyword also matches `\"`, `\\\"`…, as a raw JSON line writes it inside a
// string, or inside JSON text in one.

interface Node {
  next: Map<string, Node>;
  end: boolean;
}

function escapeChar(c: string): string {
  if (c === '"') return '\\\\*"';
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

function source(node: Node): string {
  const alternatives = [...node.next].map(([c, child]) => escapeChar(c) + source(child));
  if (alternatives.length === 0) return '';
  const body = alternatives.length === 1 ? alternatives[0]! : `(?:${alternatives.join('|')})`;
  // Greedy: the longest keyword at a place is matched; those it ends with are found by canonical().
  return node.end ? `(?:${body})?` : body;
}

/** A set of lower-case keywords, and the ones a text holds. */
export class KeywordFinder {
  private readonly pattern: RegExp | null;
  /** Each keyword and the keywords it starts with (itself included). */
  private readonly prefixes = new Map<string, string[]>();

  constructor(words: string[]) {
    const root: Node = { next: new Map(), end: false };
    for (const word of words) {
      let node = root;
      for (const c of word.toLowerCase()) {
        let child = node.next.get(c);
        if (!child) node.next.set(c, (child = { next: new Map(), end: false }));
        node = child;
      }
      node.end = true;
    }
    const known = new Set(words.map((w) => w.toLowerCase()));
    for (const word of known) this.prefixes.set(word, [...known].filter((k) => word.startsWith(k)));
    this.pattern = words.length > 0 ? new RegExp(source(root), 'gi') : null;
  }

  /** Every keyword `text` holds, each once, in lower case. */
  in(text: string): string[] {
    const re = this.pattern;
    if (!re) return [];
    const seen = new Set<string>();
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      // From the next character on, so keywords that overlap this one are found too.
      re.lastIndex = m.index + 1;
      let word = m[0].toLowerCase();
      if (word.includes('\\')) word = word.replace(/\\+"/g, '"');
      // The longest keyword at a place stands for those it starts with (`sk-` in `sk-ant-`).
      for (const k of this.prefixes.get(word)!) seen.add(k);
    }
    return [...seen];
  }
}
