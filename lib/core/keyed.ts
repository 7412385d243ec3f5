// Objects keyed by values a transcript names (tool names, skills, hook names, line
// types, field names). A plain `{}` gives such a key its prototype's meaning:
// `__proto__` replaces the prototype, `valueOf` or `constructor` are already there. An
// object without a prototype holds every name as an ordinary key and still serialises
// as a plain JSON object.

/** An empty object with no prototype, for keys that come from data. */
export function keyed<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** Add `by` to the count under `key`. */
export function tally(counts: Record<string, number>, key: string, by = 1): void {
  counts[key] = (Object.hasOwn(counts, key) ? counts[key] : 0) + by;
}

/** The entry under `key`, made by `make` when there is none. */
export function entry<T>(table: Record<string, T>, key: string, make: () => T): T {
  if (!Object.hasOwn(table, key)) table[key] = make();
  return table[key];
}
