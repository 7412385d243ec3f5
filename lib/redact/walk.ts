// Redacting a parsed JSON line: every string value, told the name of the member that
// holds it (`{"API_KEY": "…"}` says its value is a secret), and every member name, as a
// name can be a secret too (a map keyed by token). Iterative, so a deeply nested line
// cannot overflow the call stack; containers are changed in place.

/** What the walk asks of a redactor: a member's value (its name given, or null in an array or at the top) and a member name. */
export interface JsonRedactor {
  value(text: string, name: string | null): string;
  name(text: string): string;
}

type Container = Record<string, unknown> | unknown[];

function isContainer(v: unknown): v is Container {
  return v !== null && typeof v === 'object';
}

/** Redact the strings and member names of a parsed JSON value; returns the value and whether anything changed. */
export function redactJson(root: unknown, redactor: JsonRedactor): { value: unknown; changed: boolean } {
  if (typeof root === 'string') {
    const next = redactor.value(root, null);
    return { value: next, changed: next !== root };
  }
  if (!isContainer(root)) return { value: root, changed: false };
  let changed = false;
  const todo: Container[] = [root];
  while (todo.length > 0) {
    const c = todo.pop()!;
    if (Array.isArray(c)) {
      for (let i = 0; i < c.length; i++) {
        const v = c[i];
        if (typeof v === 'string') {
          const next = redactor.value(v, null);
          if (next !== v) {
            c[i] = next;
            changed = true;
          }
        } else if (isContainer(v)) todo.push(v);
      }
      continue;
    }
    const names = Object.keys(c);
    for (const name of names) {
      const v = c[name];
      if (typeof v === 'string') {
        const next = redactor.value(v, name);
        if (next !== v) {
          c[name] = next;
          changed = true;
        }
      } else if (isContainer(v)) todo.push(v);
    }
    if (renameMembers(c, names, redactor)) changed = true;
  }
  return { value: root, changed };
}

/**
 * Member names with secrets in them get their redacted names, in place and in order.
 * Two names redacted alike (two tokens as keys of one map) are told apart by a number
 * after the second, so that no member is lost.
 */
function renameMembers(c: Record<string, unknown>, names: string[], redactor: JsonRedactor): boolean {
  const renamed = names.map((n) => redactor.name(n));
  if (renamed.every((n, i) => n === names[i])) return false;
  const entries = names.map((n) => c[n]);
  for (const n of names) delete c[n];
  const taken = new Set<string>();
  for (let i = 0; i < names.length; i++) {
    let name = renamed[i]!;
    for (let k = 2; taken.has(name); k++) name = `${renamed[i]} ${k}`;
    taken.add(name);
    // defineProperty: a member named `__proto__` stays a member, not the object's prototype.
    Object.defineProperty(c, name, { value: entries[i], enumerable: true, writable: true, configurable: true });
  }
  return true;
}
