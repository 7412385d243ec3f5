// gitleaks writes its rules in Go's RE2 syntax. JavaScript reads most of it as is; this
// rewrites the rest. Node 20 has no scoped flags, so a rule with `(?i)` anywhere, or a
// `(?i:…)` group, is case-insensitive as a whole, and `(?-i:…)` loses its case: such a
// rule matches a little more than in gitleaks, never less.

const POSIX_CLASSES: Record<string, string> = {
  alnum: 'A-Za-z0-9',
  alpha: 'A-Za-z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'A-Z',
  space: '\\t\\n\\v\\f\\r ',
  xdigit: '0-9A-Fa-f',
  word: '\\w',
  punct: '!-\\/:-@\\[-`{-~',
};

/** A Go (RE2) regular expression as a JavaScript RegExp; `extraFlags` are added (e.g. 'g', 'd'). */
export function goRegExp(source: string, extraFlags = ''): RegExp {
  let flags = extraFlags;
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      out += !inClass && next === 'z' ? '$' : c + next;
      i++;
      continue;
    }
    if (inClass) {
      if (c === '[' && source[i + 1] === ':') {
        const close = source.indexOf(':]', i + 2);
        const name = close < 0 ? '' : source.slice(i + 2, close);
        if (Object.hasOwn(POSIX_CLASSES, name)) {
          out += POSIX_CLASSES[name];
          i = close + 1;
          continue;
        }
      }
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      // A ']' right after '[' or '[^' is a literal in RE2 and must be escaped in JavaScript.
      if (source[i + 1] === '^') out += source[++i];
      if (source[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(' && source[i + 1] === '?') {
      const rest = source.slice(i + 2);
      const flagGroup = /^([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(rest);
      if (flagGroup && (flagGroup[1] || flagGroup[2] !== undefined)) {
        for (const f of flagGroup[1]) if ((f === 'i' || f === 's') && !flags.includes(f)) flags += f;
        // `(?i)` alone disappears; `(?i:` and `(?-i:` become plain groups.
        if (flagGroup[3] === ':') out += '(?:';
        i += 1 + flagGroup[0].length;
        continue;
      }
      if (rest.startsWith('P<')) {
        out += '(?<';
        i += 3;
        continue;
      }
    }
    out += c;
  }
  return new RegExp(out, flags);
}
