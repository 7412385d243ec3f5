// Parsing a JSON object without one of its top-level values: for a reader that never
// looks at that value, its bytes are skipped (found by a structural scan, neither
// decoded nor built into objects). Claude Code's toolUseResult, a second copy of a
// tool's output (whole files, for a Read or an Edit), is about 40% of the bytes of real
// sessions, and tx-stats and tx-common read none of it.
import { findTopLevelKey, keyBytes, valueEnd } from './json-scan.js';

/**
 * JSON.parse of `buf` from `start` to `end`, an object, with the value of its top-level
 * `key` read as null; undefined when the bytes do not hold that key (then parse them
 * whole). The skipped value is checked only as far as the scan goes (its strings close
 * and its brackets balance), not parsed: a malformed value there goes unnoticed. Throws
 * as JSON.parse does when the rest is not JSON.
 */
export function parseWithout(buf: Buffer, start: number, end: number, key: string): unknown {
  // Most lines lack the key: one search of the bytes says so before any scan.
  const needle = keyBytes(key);
  const at = buf.indexOf(needle, start);
  if (at < 0 || at + needle.length > end) return undefined;
  const object = buf.subarray(start, end);
  const found = findTopLevelKey(object, key);
  if (!found) return undefined;
  const after = valueEnd(object, found.value);
  if (after < 0) return undefined;
  return JSON.parse(object.toString('utf8', 0, found.value) + 'null' + object.toString('utf8', after));
}
