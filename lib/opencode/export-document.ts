// The `opencode export` document as a stream of lines and back. The client writes
// `JSON.stringify({info, messages}, null, 2)` and a newline (packages/opencode/src/cli/
// cmd/export.ts): the session's info, then one message (info and parts) after another.
// In that layout each message sits on its own run of physical lines, opening with
// `    {` and closing with `    }` or `    },`, so a reader takes one message at a time
// (memory bounded by the largest message, never the whole document) and checks that
// laying the value out again gives the same bytes. The writer lays lines out the same way,
// so a document the client wrote comes back byte for byte.

/** One line of the document: the session's info or one message, with the physical line it starts on. */
export interface ExportUnit {
  value: object;
  /** 1-based physical line of the document the unit starts on. */
  n: number;
}

type State = 'open' | 'info' | 'between' | 'messages' | 'message' | 'close' | 'end' | 'whole';

/** `JSON.stringify(value, null, 2)` of a value nested `depth` levels (2 spaces each) inside the document. */
export function layOut(value: unknown, depth: number): string {
  const text = JSON.stringify(value, null, 2);
  if (depth === 0) return text;
  // Strings never hold a raw newline in JSON, so every newline is the layout's own.
  return text.replaceAll('\n', '\n' + '  '.repeat(depth));
}

/**
 * Reads an export document fed one physical line at a time (without its newline). A
 * document that leaves the client's layout is still read: what is left of it is held
 * and parsed once its end is seen, and `problem` says so (its lines are written back in
 * the client's layout: the same JSON value, other bytes).
 */
export class ExportReader {
  private state: State = 'open';
  /** The lines of the unit being read, from its first line. */
  private buf: string[] = [];
  private start = 0;
  /** Units given so far (the rest of a document out of layout is parsed as what follows them). */
  private given = 0;
  /** Why the document was not read in the client's layout, or null. */
  problem: string | null = null;

  /** Take the next physical line (`n`: its 1-based number); returns the units it completes. */
  push(line: string, n: number): ExportUnit[] {
    if (this.state === 'whole') {
      this.buf.push(line);
      return [];
    }
    switch (this.state) {
      case 'open':
        this.buf = [line];
        if (line === '{') return this.to('info');
        return this.fallback(`line ${n} is not the document's opening brace`);
      case 'info':
        this.buf.push(line);
        if (this.buf.length === 2) {
          this.start = n;
          if (line !== '  "info": {') return this.fallback(`line ${n} does not open "info"`);
          return [];
        }
        if (line !== '  },') return [];
        return this.complete(['{', ...this.buf.slice(2, -1), '}'], 1, 'between', 'the info');
      case 'between':
        this.buf = [line];
        if (line === '  "messages": [') return this.to('messages');
        if (line === '  "messages": []') return this.to('close');
        return this.fallback(`line ${n} does not open "messages"`);
      case 'messages':
        this.buf = [line];
        if (line === '  ]') return this.to('close');
        this.start = n;
        if (line === '    {') return this.to('message');
        return this.fallback(`line ${n} does not open a message`);
      case 'message':
        this.buf.push(line);
        if (line !== '    },' && line !== '    }') return [];
        return this.complete(['{', ...this.buf.slice(1, -1), '}'], 2, 'messages', 'the message');
      case 'close':
        this.buf.push(line);
        if (line === '}') return this.to('end');
        return this.fallback(`line ${n} is not the document's closing brace`);
      case 'end':
        if (line === '') return [];
        this.buf = [line];
        return this.fallback(`line ${n} follows the document's end`);
    }
  }

  /** After the last line: the units of what was held out of layout (none for a document in layout). */
  end(): ExportUnit[] {
    if (this.state === 'end') return [];
    if (this.state !== 'whole') this.problem ??= 'the document ends early';
    return this.readRest();
  }

  private to(state: State): ExportUnit[] {
    this.state = state;
    return [];
  }

  /** The unit whose lines (outer braces flush left) are exactly the client's layout at `depth`. */
  private complete(lines: string[], depth: number, next: State, what: string): ExportUnit[] {
    const pad = '  '.repeat(depth);
    const inner = lines.slice(1, -1);
    if (inner.some((l) => !l.startsWith(pad))) return this.fallback(`${what} that starts on line ${this.start} is not in the client's layout`);
    const flat = ['{', ...inner.map((l) => l.slice(pad.length)), '}'].join('\n');
    let value: unknown;
    try {
      value = JSON.parse(flat);
    } catch {
      return this.fallback(`${what} that starts on line ${this.start} is not JSON`);
    }
    if (value === null || typeof value !== 'object' || JSON.stringify(value, null, 2) !== flat) return this.fallback(`${what} that starts on line ${this.start} is not in the client's layout`);
    this.buf = [];
    this.given++;
    this.state = next;
    return [{ value, n: this.start }];
  }

  private fallback(why: string): ExportUnit[] {
    this.problem = `not in the layout opencode export writes (${why}); read whole, written back in that layout`;
    this.state = 'whole';
    return [];
  }

  /**
   * Parse what was held. Before any unit it is the whole document; after the info it is
   * the rest of the messages array and the document's close, read as an array of its own.
   */
  private readRest(): ExportUnit[] {
    const text = this.buf.join('\n');
    this.buf = [];
    const n = this.start || 1;
    if (this.given === 0) {
      const doc = JSON.parse(text) as { info?: unknown; messages?: unknown };
      if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('not an export document: not a JSON object');
      const units: ExportUnit[] = [];
      if (doc.info && typeof doc.info === 'object') units.push({ value: doc.info, n: 1 });
      if (Array.isArray(doc.messages)) for (const m of doc.messages) if (m && typeof m === 'object') units.push({ value: m, n });
      return units;
    }
    // The rest: `"messages": [ {…}, … ] }`, or from a message on: `{…}, … ] }`; cut to the array's elements.
    let rest = text.trim();
    if (!rest.endsWith('}')) throw new Error('not an export document: no closing brace after the messages');
    rest = rest.slice(0, -1).trim();
    const open = /^"messages"\s*:\s*\[/.exec(rest);
    if (open) rest = rest.slice(open[0].length).trim();
    if (rest.endsWith(']')) rest = rest.slice(0, -1);
    const values = JSON.parse('[' + rest + ']') as unknown[];
    return values.filter((v): v is object => v !== null && typeof v === 'object').map((value) => ({ value, n }));
  }
}

/** Writes the lines of one session (its info first, then its messages) as the client's export document. */
export class ExportWriter {
  private messages = 0;
  private opened = false;

  /** The text for the session's info (the document's head). */
  info(info: unknown): string {
    this.opened = true;
    return '{\n  "info": ' + layOut(info, 1) + ',\n  "messages": [';
  }

  /** The text for one message. */
  message(m: unknown): string {
    if (!this.opened) throw new Error('a message before the session info');
    return (this.messages++ === 0 ? '\n    ' : ',\n    ') + layOut(m, 2);
  }

  /** The document's tail. */
  end(): string {
    if (!this.opened) throw new Error('no session info');
    // An empty array is laid out `[]` on the info's line.
    return this.messages === 0 ? ']\n}\n' : '\n  ]\n}\n';
  }
}
