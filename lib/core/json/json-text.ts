// JSON text of a value however deeply it nests. JSON.parse reads any depth, but
// JSON.stringify recurses and throws "Maximum call stack size exceeded" somewhere past
// a few thousand levels. Native stringify is tried first (it is fast); a value too deep
// for it is written by an explicit stack, with the same output for what JSON.parse
// can give and for the objects the tools build (undefined members left out, toJSON called).

/** JSON.stringify(value) for a value of any depth (no replacer, no indent). */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return stringifyDeep(value);
  }
}

type Frame = { kind: 'array'; items: unknown[]; i: number } | { kind: 'object'; obj: Record<string, unknown>; keys: string[]; i: number; first: boolean };

function prepare(v: unknown, key: string): unknown {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') return (v as { toJSON(k: string): unknown }).toJSON(key);
  return v;
}

/** A value's JSON, or undefined for what JSON.stringify leaves out (undefined, functions, symbols). */
function scalar(v: unknown): string | undefined {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(v);
    default:
      return undefined;
  }
}

function stringifyDeep(root: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  // Write one value: a scalar at once, a container by pushing its frame.
  const open = (v: unknown): boolean => {
    if (v !== null && typeof v === 'object') {
      if (Array.isArray(v)) {
        out.push('[');
        stack.push({ kind: 'array', items: v, i: 0 });
      } else {
        out.push('{');
        stack.push({ kind: 'object', obj: v as Record<string, unknown>, keys: Object.keys(v), i: 0, first: true });
      }
      return true;
    }
    const s = scalar(v);
    if (s === undefined) return false;
    out.push(s);
    return true;
  };
  if (!open(prepare(root, ''))) return undefined as unknown as string;
  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    if (f.kind === 'array') {
      if (f.i >= f.items.length) {
        out.push(']');
        stack.pop();
        continue;
      }
      if (f.i > 0) out.push(',');
      const v = prepare(f.items[f.i], String(f.i));
      f.i++;
      if (!open(v)) out.push('null');
    } else {
      if (f.i >= f.keys.length) {
        out.push('}');
        stack.pop();
        continue;
      }
      const key = f.keys[f.i++];
      const v = prepare(f.obj[key], key);
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      out.push(`${f.first ? '' : ','}${JSON.stringify(key)}:`);
      f.first = false;
      open(v);
    }
  }
  return out.join('');
}
