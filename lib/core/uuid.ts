// Deterministic line ids: UUIDv5 (RFC 9562, SHA-1) of a namespace and a name.
import { createHash } from 'node:crypto';

/** txcript's own namespace, for ids derived from names that are not UUIDs. */
export const TXCRIPT_NAMESPACE = '6c1f0c1e-8d3b-5a4e-9f27-747863726970';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical UUID string (any version). */
export function isUuid(s: unknown): s is string {
  return typeof s === 'string' && UUID.test(s);
}

/** The UUIDv5 of `name` in `namespace` (itself a UUID). */
export function uuidV5(namespace: string, name: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
