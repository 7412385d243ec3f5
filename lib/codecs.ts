// The registry: the one place that knows which harnesses exist. A harness is one entry:
// its line members (detect, classify, envelope), which every tool loads, and a loader
// of its other facets (lib/codec.ts, CodecFacets), each a module of its folder imported
// the first time a tool asks for it. So tx-filter loads every harness's questions and no
// converter, writer or store; tx-ls and tx-native load the one harness they are asked for.
import { statSync } from 'node:fs';
import { claudeLineCodec } from './claude-code/codec-line.js';
import type { CodecFacets, FacetName, LineCodec } from './codec.js';
import { codexLineCodec } from './codex/codec-line.js';
import { readStoredSessionsWith } from './core/input/input-streams.js';
import { geminiLineCodec } from './gemini/codec-line.js';
import { opencodeLineCodec } from './opencode/codec-line.js';
import { piLineCodec } from './pi/codec-line.js';
import type { Harness } from './record.js';

/** One harness: its line members, and its facets by module name (each module's default export). */
interface Entry {
  line: LineCodec;
  load(facet: FacetName): Promise<{ default: unknown }>;
}

/**
 * Every harness, in detection order: the first whose detect accepts a parsed line wrote
 * it. The last one reads any JSON object no other harness claims.
 */
const REGISTRY: readonly Entry[] = [
  // Before Codex: an early rollout's bare response item and a pi entry share type "message".
  { line: piLineCodec, load: (facet) => import(`./pi/${facet}.js`) },
  { line: codexLineCodec, load: (facet) => import(`./codex/${facet}.js`) },
  { line: geminiLineCodec, load: (facet) => import(`./gemini/${facet}.js`) },
  { line: opencodeLineCodec, load: (facet) => import(`./opencode/${facet}.js`) },
  { line: claudeLineCodec, load: (facet) => import(`./claude-code/${facet}.js`) },
];

const BY_NAME = new Map<Harness, Entry>(REGISTRY.map((e) => [e.line.harness, e]));
const FALLBACK = REGISTRY[REGISTRY.length - 1];
const DETECTING = REGISTRY.slice(0, -1).map((e) => e.line);

/** Every harness name, in alphabetical order (as messages and help texts list them). */
export const HARNESSES: readonly Harness[] = REGISTRY.map((e) => e.line.harness).sort();

/** The harness a JSON object no other harness claims is read as (and the one tools default to). */
export const DEFAULT_HARNESS: Harness = FALLBACK.line.harness;

/** True when a harness of that name is registered. */
export function isHarness(name: string): boolean {
  return BY_NAME.has(name);
}

/** The registry entry of a harness; a name no harness has gets the default one, as a line of it would be read. */
function entry(harness: Harness): Entry {
  return BY_NAME.get(harness) ?? FALLBACK;
}

/** The line members of a harness. */
export function lineCodecFor(harness: Harness): LineCodec {
  return entry(harness).line;
}

/** The line members of the harness that wrote a parsed native line. */
export function detectLineCodec(line: unknown): LineCodec {
  for (const codec of DETECTING) if (codec.detect(line)) return codec;
  return FALLBACK.line;
}

/** The harness that wrote a parsed native line. */
export function detectHarness(line: unknown): Harness {
  return detectLineCodec(line).harness;
}

const loaded = new Map<string, unknown>();
const loading = new Map<string, Promise<unknown>>();

/** A facet of a harness's codec, imported the first time it is asked for. */
export async function loadFacet<F extends FacetName>(harness: Harness, facet: F): Promise<CodecFacets[F]> {
  const e = entry(harness);
  const key = `${facet}\0${e.line.harness}`;
  if (loaded.has(key)) return loaded.get(key) as CodecFacets[F];
  let p = loading.get(key);
  if (!p) {
    p = e.load(facet).then((m) => {
      loaded.set(key, m.default);
      return m.default;
    });
    loading.set(key, p);
  }
  return (await p) as CodecFacets[F];
}

/** A facet already loaded (by loadFacet or loadAll), for a synchronous loop; throws when it was not. */
export function facetOf<F extends FacetName>(harness: Harness, facet: F): CodecFacets[F] {
  const got = loaded.get(`${facet}\0${entry(harness).line.harness}`);
  if (got === undefined) throw new Error(`the ${facet} facet of ${harness} was used before it was loaded`);
  return got as CodecFacets[F];
}

/** A facet of every harness, in detection order. */
export function loadAll<F extends FacetName>(facet: F): Promise<CodecFacets[F][]> {
  return Promise.all(REGISTRY.map((e) => loadFacet(e.line.harness, facet)));
}

// A session a store keeps in no file of its own is named `DB#ID` (the database's path,
// its id: SessionStore.read), and every tool reads it by that name through its store.
readStoredSessionsWith((name) => {
  const at = name.lastIndexOf('#');
  if (at <= 0) return null;
  try {
    if (!statSync(name.slice(0, at)).isFile()) return null;
  } catch {
    return null;
  }
  return (async () => {
    for (const codec of await loadAll('codec')) {
      const bytes = codec.store?.read?.(name) ?? null;
      if (bytes !== null) return [...bytes].map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    }
    throw new Error('no such file, nor a session of a store');
  })();
});
