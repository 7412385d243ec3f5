// tx-stats --merge: tx-stats output from several runs (other machines, other parts of
// a store) read back and merged, exactly, into what one run over all of it writes.
// Buckets of one grouping fold into each other; hour buckets fold into 5-hour blocks
// with --by block; session summaries of the same session add up (counts and token sums
// add, first and last timestamps are the earliest and the latest, lists are joined,
// costs add in whole nanodollars). What is exact, and when, is in tx-stats(1), MERGING.
import { splitLines } from '../core/input/lines.js';
import { stdoutIsTerminal, UsageError, type Context } from '../core/tool.js';
import { Buckets, GROUPINGS, type By } from './buckets.js';
import { type Bucket } from './bucket.js';
import { dollars, nanosOf } from './cost.js';
import { TOKEN_KINDS, zeroTokens, type Tokens } from './event.js';
import type { UsageOptions } from './options.js';
import { UsageTally, type ModelTally } from './tally.js';

type Obj = Record<string, unknown>;

/** Merge the tx-stats objects of the inputs and write the result. */
export async function mergeStats(ctx: Context, usage: UsageOptions): Promise<void> {
  const sessions = new Map<string, Obj>();
  const loose: Obj[] = [];
  const groups = new Map<By, Buckets>();
  for await (const input of ctx.inputs()) {
    for await (const line of splitLines(input.stream)) {
      if (line.bytes.length === 0) continue;
      const where = { src: input.src, n: line.n };
      let o: unknown;
      try {
        o = JSON.parse(line.bytes.toString('utf8'), keyedObjects);
      } catch {
        ctx.warn(where, 'not JSON, skipped');
        continue;
      }
      if (!isObject(o)) ctx.warn(where, 'not a tx-stats object, skipped');
      else if (typeof o.by === 'string') {
        const problem = takeBucket(groups, o, usage);
        if (problem) ctx.warn(where, problem);
      } else if (typeof o.harness === 'string' && 'session' in o && typeof o.lines === 'number') {
        if (o.session === null) loose.push(o);
        else {
          const key = `${o.harness}\0${String(o.session)}`;
          const had = sessions.get(key);
          if (had) mergeInto(had, o, 0);
          else sessions.set(key, o);
        }
      } else ctx.warn(where, 'not a tx-stats session summary or bucket, skipped');
    }
  }
  const objects: Obj[] = [...sessions.values(), ...loose];
  for (const b of groups.values()) objects.push(...b.objects());
  if (ctx.args.table === true || (stdoutIsTerminal(ctx.proc) && ctx.args.ndjson !== true)) await ctx.out.write((await import('./table.js')).usageTable(objects));
  else for (const o of objects) await ctx.out.writeJson(o);
}

/** Fold one bucket read back into the buckets of its grouping; a string says why it cannot be. */
function takeBucket(groups: Map<By, Buckets>, o: Obj, usage: UsageOptions): string | null {
  const by = o.by as By;
  if (!(GROUPINGS as readonly string[]).includes(by)) return `unknown grouping ${JSON.stringify(o.by)}, skipped`;
  if (by === 'block') return 'blocks do not merge exactly (a block depends on every message before it): merge --by hour output with --merge --by block; skipped';
  const into = usage.by === 'block' && by === 'hour' ? 'block' : by;
  if (usage.by !== null && usage.by !== into) return `a ${by} bucket, not merged into --by ${usage.by}; skipped`;
  let buckets = groups.get(into);
  if (!buckets) groups.set(into, (buckets = new Buckets(into, usage.calendar)));
  const key = o.key === null ? null : String(o.key);
  const harness = typeof o.harness === 'string' ? o.harness : null;
  const bucket: Bucket = { id: '', key, harness, hour: null, tally: tallyOf(o), sessions: new Set(), moreSessions: 0 };
  if (by === 'hour') {
    bucket.hour = key === null ? null : Date.parse(key);
    bucket.id = `${harness}\0${bucket.hour}`;
  } else bucket.id = by === 'session' ? `${harness}\0${key ?? ''}` : by === 'project' ? (key === null ? '' : `p${key}`) : (key ?? '');
  // Sessions named are counted once however many runs saw them; without names, by number.
  if (Array.isArray(o.session_ids)) for (const id of o.session_ids) bucket.sessions.add(String(id).replace(':', '\0'));
  else bucket.moreSessions = Number(o.sessions) || 0;
  buckets.fold([bucket]);
  return null;
}

/** A bucket's tally, rebuilt from what it printed. */
function tallyOf(o: Obj): UsageTally {
  const t = new UsageTally();
  t.messages = Number(o.messages) || 0;
  t.tokens = tokensOf(o.tokens);
  t.nanos = typeof o.cost_usd === 'number' ? nanosOf(o.cost_usd) : 0;
  const unpriced = (isObject(o.unpriced_models) ? o.unpriced_models : {}) as Record<string, number>;
  for (const [name, m] of Object.entries(isObject(o.models) ? o.models : {})) {
    if (!isObject(m)) continue;
    const priced = typeof m.cost_usd === 'number';
    const entry: ModelTally = { messages: Number(m.messages) || 0, tokens: tokensOf(m), nanos: priced ? nanosOf(m.cost_usd as number) : 0, unpriced: priced ? 0 : Number(unpriced[name]) || 1 };
    t.byModel.set(name, entry);
  }
  return t;
}

function tokensOf(v: unknown): Tokens {
  const t = zeroTokens();
  if (isObject(v)) for (const k of TOKEN_KINDS) t[k] = Number(v[k]) || 0;
  return t;
}

// A summary's shape is a few levels deep; input deeper than this is not a summary.
const MAX_DEPTH = 8;

/** Merge summary `b` into `a`, field by field (tx-stats(1), MERGING). */
function mergeInto(a: Obj, b: Obj, depth: number): void {
  if (depth > MAX_DEPTH) throw new UsageError('--merge: an object nested deeper than a tx-stats summary');
  for (const [k, v] of Object.entries(b)) {
    if (!Object.hasOwn(a, k)) {
      a[k] = v;
      continue;
    }
    const had = a[k];
    if (k === 'cost_usd') a[k] = had === null || v === null ? null : dollars(nanosOf(Number(had)) + nanosOf(Number(v)));
    else if (k === 'first_timestamp' || k === 'last_timestamp') a[k] = pickTime(had, v, k === 'first_timestamp');
    else if (typeof had === 'number' && typeof v === 'number') a[k] = had + v;
    else if (Array.isArray(had) && Array.isArray(v)) {
      const seen = new Set(had.map((x) => JSON.stringify(x)));
      for (const x of v) if (!seen.has(JSON.stringify(x))) had.push(x);
    } else if (isObject(had) && isObject(v)) mergeInto(had, v, depth + 1);
    else if (had === null) a[k] = v;
  }
}

/** The earlier (or later) of two timestamps as written; the one already there on a tie, as one run keeps the first seen. */
function pickTime(a: unknown, b: unknown, earliest: boolean): unknown {
  const ta = typeof a === 'string' ? Date.parse(a) : NaN;
  const tb = typeof b === 'string' ? Date.parse(b) : NaN;
  if (Number.isNaN(tb)) return a;
  if (Number.isNaN(ta)) return b;
  return (earliest ? tb < ta : tb > ta) ? b : a;
}

/** JSON objects as objects without a prototype, so that every key from the data is an ordinary key. */
function keyedObjects(_key: string, value: unknown): unknown {
  return isObject(value) ? Object.assign(Object.create(null), value) : value;
}

function isObject(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
