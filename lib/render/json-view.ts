// A value as indented JSON for a person to read, whatever its depth and size. It is
// written with an explicit stack (JSON.stringify recurses, and a tool input nested a
// few thousand deep ran it out of stack), indentation stops growing past MAX_INDENT
// levels (else a value nested n deep would take n² spaces), and writing stops at a
// budget of characters. Up to that depth and size the text is JSON.stringify's, indent 2.
import { BLOCK_CAP } from './cap.js';

/** Levels past which nested values are not indented further. */
export const MAX_INDENT = 24;

type Frame = { items: unknown[]; keys: null; i: number } | { items: Record<string, unknown>; keys: string[]; i: number };

/** A scalar's JSON, or undefined for what JSON leaves out (undefined, functions, symbols). */
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
      return JSON.stringify(v.toString());
    default:
      return undefined;
  }
}

/** The value as indented JSON, up to `budget` characters (a little under the page's cap, leaving room for a note), and whether it was cut. */
export function jsonView(value: unknown, budget = BLOCK_CAP - 1000): { text: string; cut: boolean } {
  const out: string[] = [];
  let size = 0;
  const put = (s: string) => {
    out.push(s);
    size += s.length;
  };
  const pad = (depth: number) => '\n' + '  '.repeat(Math.min(depth, MAX_INDENT));
  const stack: Frame[] = [];
  /** Write a value: a scalar at once, an empty container whole, another by pushing its frame. */
  const open = (v: unknown): boolean => {
    if (v !== null && typeof v === 'object') {
      if (Array.isArray(v)) {
        if (v.length === 0) put('[]');
        else {
          put('[');
          stack.push({ items: v, keys: null, i: 0 });
        }
      } else {
        const keys = Object.keys(v).filter((k) => scalar((v as Record<string, unknown>)[k]) !== undefined || typeof (v as Record<string, unknown>)[k] === 'object');
        if (keys.length === 0) put('{}');
        else {
          put('{');
          stack.push({ items: v as Record<string, unknown>, keys, i: 0 });
        }
      }
      return true;
    }
    const s = scalar(v);
    if (s === undefined) return false;
    put(s.length > budget ? s.slice(0, budget) : s);
    return true;
  };
  if (!open(value)) return { text: 'null', cut: false };
  while (stack.length > 0) {
    if (size > budget) return { text: out.join('').slice(0, budget), cut: true };
    const f = stack[stack.length - 1];
    const length = f.keys === null ? f.items.length : f.keys.length;
    if (f.i >= length) {
      stack.pop();
      put(pad(stack.length) + (f.keys === null ? ']' : '}'));
      continue;
    }
    put((f.i > 0 ? ',' : '') + pad(stack.length));
    if (f.keys === null) {
      const v = f.items[f.i++];
      if (!open(v)) put('null');
    } else {
      const key = f.keys[f.i++];
      put(JSON.stringify(key) + ': ');
      if (!open((f.items as Record<string, unknown>)[key])) put('null');
    }
  }
  if (size > budget) return { text: out.join('').slice(0, budget), cut: true };
  return { text: out.join(''), cut: false };
}
