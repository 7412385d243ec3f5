// Field paths: which strings of a JSON value a tool rewrites (`tx-escape --field`).
// Syntax, documented in tx-escape(1):
//   PATH  := '.' | ['.'] STEP ('.' STEP | '[]' | '[' N ']')*
//   STEP  := KEY | '*' | '[]' | '[' N ']'
// KEY is any text with `.`, `[`, `]`, `*` and `\` written as `\.`, `\[`, `\]`, `\*`,
// `\\`; `*` is every member of an object or array, `[]` every element of an array,
// `[N]` element N. The value a path reaches, and every string inside it, is selected;
// object keys are never rewritten, and a path that reaches nothing selects nothing.

/** One step of a field path. */
export type PathStep = { key: string } | { every: 'array' | 'member' } | { index: number };

/** Parse a field path; throws an Error saying what is wrong with it. */
export function parseFieldPath(text: string): PathStep[] {
  if (text === '.') return [];
  const steps: PathStep[] = [];
  let i = text.startsWith('.') ? 1 : 0;
  let needStep = true;
  while (i < text.length) {
    const c = text[i];
    if (c === '[') {
      const close = text.indexOf(']', i);
      const inside = close < 0 ? null : text.slice(i + 1, close);
      if (inside === '') steps.push({ every: 'array' });
      else if (inside !== null && /^[0-9]+$/.test(inside)) steps.push({ index: Number(inside) });
      else throw new Error(`bad field path ${JSON.stringify(text)}: '[' must open '[]' or '[N]'`);
      i = close + 1;
      needStep = false;
      continue;
    }
    if (c === '.') {
      if (needStep) throw new Error(`bad field path ${JSON.stringify(text)}: empty step`);
      needStep = true;
      i++;
      continue;
    }
    if (!needStep) throw new Error(`bad field path ${JSON.stringify(text)}: expected '.' or '[' at offset ${i}`);
    if (c === '*' && (i + 1 === text.length || text[i + 1] === '.' || text[i + 1] === '[')) {
      steps.push({ every: 'member' });
      i++;
      needStep = false;
      continue;
    }
    let key = '';
    while (i < text.length && text[i] !== '.' && text[i] !== '[') {
      if (text[i] === ']') throw new Error(`bad field path ${JSON.stringify(text)}: unmatched ']'`);
      if (text[i] === '\\') {
        if (i + 1 >= text.length) throw new Error(`bad field path ${JSON.stringify(text)}: '\\' at the end`);
        i++;
      }
      key += text[i++];
    }
    steps.push({ key });
    needStep = false;
  }
  if (needStep && steps.length > 0) throw new Error(`bad field path ${JSON.stringify(text)}: empty step`);
  if (steps.length === 0) throw new Error(`bad field path ${JSON.stringify(text)}: empty (use '.' for the whole value)`);
  return steps;
}

/** An object or array of a parsed JSON value. */
export type Container = Record<string, unknown> | unknown[];

function isContainer(v: unknown): v is Container {
  return v !== null && typeof v === 'object';
}

/** A place holding a value: a container and its key, or the root. */
type Place = { parent: Container; key: string | number } | { parent: null };

function children(v: unknown, step: PathStep): Array<{ parent: Container; key: string | number }> {
  if (!isContainer(v)) return [];
  if ('key' in step) return !Array.isArray(v) && Object.hasOwn(v, step.key) ? [{ parent: v, key: step.key }] : [];
  if ('index' in step) return Array.isArray(v) && step.index < v.length ? [{ parent: v, key: step.index }] : [];
  if (Array.isArray(v)) return v.map((_, k) => ({ parent: v, key: k }));
  return step.every === 'member' ? Object.keys(v).map((k) => ({ parent: v, key: k })) : [];
}

function valueAt(root: unknown, place: Place): unknown {
  return place.parent === null ? root : (place.parent as any)[place.key];
}

/** Where a string sits: its container and key, or null for a string that is the whole value. */
export type StringPlace = { parent: Container; key: string | number } | null;

/**
 * Rewrite with `fn` every string selected by any of `paths` (each string once, however
 * many paths reach it), in place. Returns the new root and whether any string changed.
 */
export function rewriteStrings(root: unknown, paths: PathStep[][], fn: (s: string, place: StringPlace) => string): { value: unknown; changed: boolean } {
  const selected = new Map<Container, Set<string | number>>();
  let rootSelected = false;
  // Iterative, so that a deeply nested line cannot overflow the call stack.
  const mark = (start: unknown, startPlace: Place) => {
    const todo: Array<[unknown, Place]> = [[start, startPlace]];
    while (todo.length > 0) {
      const [v, place] = todo.pop()!;
      if (typeof v === 'string') {
        if (place.parent === null) rootSelected = true;
        else {
          let keys = selected.get(place.parent);
          if (!keys) selected.set(place.parent, (keys = new Set()));
          keys.add(place.key);
        }
      } else if (isContainer(v)) {
        for (const child of children(v, { every: 'member' })) todo.push([(child.parent as any)[child.key], child]);
      }
    }
  };
  for (const path of paths) {
    let places: Place[] = [{ parent: null }];
    for (const step of path) places = places.flatMap((place) => children(valueAt(root, place), step));
    for (const place of places) mark(valueAt(root, place), place);
  }
  let changed = false;
  if (rootSelected) {
    const next = fn(root as string, null);
    return { value: next, changed: next !== root };
  }
  for (const [parent, keys] of selected) {
    for (const key of keys) {
      const before = (parent as any)[key] as string;
      const after = fn(before, { parent, key });
      if (after !== before) {
        (parent as any)[key] = after;
        changed = true;
      }
    }
  }
  return { value: root, changed };
}
