// tx-stats for a person at a terminal: a table of the buckets (or the sessions), one
// row each, and their total. A cost that leaves out messages of a model with no price
// is marked `+?`, and the models are named under the table.

type Row = Record<string, unknown>;

const COLUMNS = ['sessions', 'messages', 'input', 'output', 'cache read', 'cache write', 'cost USD'];

/** The table of tx-stats objects: buckets, or session summaries. */
export function usageTable(objects: Row[]): string {
  const buckets = objects.length > 0 && typeof objects[0].by === 'string';
  const head = [buckets ? String(objects[0].by) : 'session', ...(buckets ? COLUMNS : ['harness', ...COLUMNS.slice(1)])];
  const rows: string[][] = [];
  const total = { sessions: 0, messages: 0, input: 0, output: 0, read: 0, write: 0, cost: 0 };
  const unpriced = new Set<string>();
  for (const o of objects) {
    const t = (o.tokens ?? {}) as Record<string, number>;
    const messages = Number(buckets ? o.messages : o.api_messages) || 0;
    const cost = typeof o.cost_usd === 'number' ? o.cost_usd : 0;
    const missing = Object.keys(((buckets ? o.unpriced_models : (o.coverage as Row | undefined)?.unpriced_models) ?? {}) as Row);
    for (const m of missing) unpriced.add(m);
    const sessions = buckets ? Number(o.sessions) || 0 : 1;
    total.sessions += sessions;
    total.messages += messages;
    total.input += t.input_tokens ?? 0;
    total.output += t.output_tokens ?? 0;
    total.read += t.cache_read_input_tokens ?? 0;
    total.write += t.cache_creation_input_tokens ?? 0;
    total.cost += cost;
    const label = buckets ? keyLabel(o) : String(o.session ?? '(no session id)').slice(0, 36);
    const second = buckets ? count(sessions) : String(o.harness ?? '');
    rows.push([label, second, count(messages), count(t.input_tokens), count(t.output_tokens), count(t.cache_read_input_tokens), count(t.cache_creation_input_tokens), money(cost, missing.length > 0)]);
  }
  rows.push(['total', buckets ? '' : '', count(total.messages), count(total.input), count(total.output), count(total.read), count(total.write), money(total.cost, unpriced.size > 0)]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  const rule = widths.map((w) => '─'.repeat(w)).join('  ');
  const out = [line(head), rule, ...rows.slice(0, -1).map(line), rule, line(rows[rows.length - 1])];
  if (unpriced.size > 0) out.push('', `+? leaves out models with no price: ${[...unpriced].sort().join(', ')} (see --prices)`);
  return out.join('\n') + '\n';
}

function keyLabel(o: Row): string {
  const key = o.key === null || o.key === undefined ? '(none)' : String(o.key);
  return o.harness !== undefined && o.by !== 'session' ? `${key} ${o.harness}` : key;
}

function count(n: unknown): string {
  return typeof n === 'number' ? n.toLocaleString('en-US') : '0';
}

function money(usd: number, partial: boolean): string {
  return `${usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}${partial ? ' +?' : ''}`;
}
