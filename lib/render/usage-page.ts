// tx-render --usage: tx-stats buckets (--by day, week, month, ...) as one page people
// read: the totals, the cost and the tokens of each bucket as bars stacked by model,
// and the same numbers in tables. The buckets are few (one a day), so they are held
// until the end; the page is written at once.
import { keyed } from '../core/keyed.js';
import { escapeHtml as h } from './escape.js';
import { UPLOT, USAGE_CSP, USAGE_SCRIPT, USAGE_STYLE } from './usage-assets.js';

type Obj = Record<string, any>;
const KINDS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const;

/** Buckets gathered for the page. */
export class UsagePage {
  private by: string | null = null;
  private readonly buckets: Obj[] = [];

  /** Take one parsed line; a string says why it is not part of the page. */
  add(value: unknown): string | null {
    if (!value || typeof value !== 'object' || Array.isArray(value) || typeof (value as Obj).by !== 'string') return 'not a tx-stats bucket (tx-stats --by day), skipped';
    const b = value as Obj;
    if (this.by === null) this.by = b.by;
    else if (b.by !== this.by) return `a ${b.by} bucket among ${this.by} buckets, skipped`;
    this.buckets.push(b);
    return null;
  }

  /** The whole page. */
  html(): string {
    const bs = this.buckets;
    const by = this.by ?? 'day';
    const label = (b: Obj) => (b.key === null || b.key === undefined ? '(none)' : String(b.key)) + (b.harness !== undefined && by !== 'session' ? ` ${b.harness}` : '');
    const models = new Map<string, { cost: number; tokens: number; unpriced: boolean }>();
    for (const b of bs) {
      for (const [m, v] of Object.entries<Obj>(b.models ?? {})) {
        const e = models.get(m) ?? { cost: 0, tokens: 0, unpriced: false };
        e.cost += typeof v.cost_usd === 'number' ? v.cost_usd : 0;
        e.unpriced ||= v.cost_usd === null;
        e.tokens += KINDS.reduce((a, k) => a + (Number(v[k]) || 0), 0);
        models.set(m, e);
      }
    }
    // Models by cost, the costliest at the bottom of each bar.
    const names = [...models.keys()].sort((a, b) => models.get(b)!.cost - models.get(a)!.cost || models.get(b)!.tokens - models.get(a)!.tokens || (a < b ? -1 : 1));
    const values = keyed<{ cost: number[]; tokens: number[] }>();
    for (const m of names) values[m] = { cost: bs.map((b) => Number(b.models?.[m]?.cost_usd) || 0), tokens: bs.map((b) => KINDS.reduce((a, k) => a + (Number(b.models?.[m]?.[k]) || 0), 0)) };
    const data = { by, keys: bs.map(label), models: names, values };
    const total = { cost: 0, messages: 0, input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    const sessions = new Set<string>();
    for (const b of bs) {
      total.cost += Number(b.cost_usd) || 0;
      total.messages += Number(b.messages) || 0;
      for (const k of KINDS) total[k] += Number(b.tokens?.[k]) || 0;
      for (const s of Array.isArray(b.session_ids) ? b.session_ids : []) sessions.add(String(s));
    }
    const unpriced = names.filter((m) => models.get(m)!.unpriced);
    const span = bs.length > 0 ? `${label(bs[0])} to ${label(bs[bs.length - 1])}` : 'no usage';
    const fact = (value: string, what: string) => `<div class="fact"><b>${h(value)}</b><span>${h(what)}</span></div>`;
    const row = (cells: string[]) => `<tr>${cells.map((c) => `<td>${h(c)}</td>`).join('')}</tr>`;
    const rows = bs.map((b) => row([label(b), count(b.sessions), count(b.messages), count(b.tokens?.input_tokens), count(b.tokens?.output_tokens), count(b.tokens?.cache_read_input_tokens), count(b.tokens?.cache_creation_input_tokens), usd(b.cost_usd) + (Object.keys(b.unpriced_models ?? {}).length > 0 ? ' +?' : '')]));
    const modelRows = names.map((m) => row([m, count(models.get(m)!.tokens), models.get(m)!.unpriced ? 'no price' : usd(models.get(m)!.cost)]));
    const json = JSON.stringify(data).replace(/</g, '\\u003c');
    return (
      `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="${h(USAGE_CSP)}">\n` +
      `<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="referrer" content="no-referrer">\n<title>Usage by ${h(by)}</title>\n` +
      `<!-- ${h(UPLOT.notice)} -->\n<style>${UPLOT.style}</style>\n<style>${USAGE_STYLE}</style>\n</head>\n<body>\n<main>\n` +
      `<h1>Usage by ${h(by)}, ${h(span)}</h1>\n<div class="facts">${fact(`$${usd(total.cost)}`, 'cost (USD)')}${fact(count(total.messages), 'API messages')}${sessions.size > 0 ? fact(count(sessions.size), 'sessions') : ''}${fact(count(total.output_tokens), 'output tokens')}${fact(count(total.input_tokens + total.cache_read_input_tokens + total.cache_creation_input_tokens), 'input tokens (with cache)')}</div>\n` +
      `<div class="chart" id="cost-chart"></div>\n<h2>Tokens</h2>\n<div class="chart" id="tokens-chart"></div>\n` +
      `<h2>By ${h(by)}</h2>\n<table id="buckets"><thead><tr>${[by, 'sessions', 'messages', 'input', 'output', 'cache read', 'cache write', 'cost USD'].map((c) => `<th>${h(c)}</th>`).join('')}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody>` +
      `<tfoot>${row(['total', '', count(total.messages), count(total.input_tokens), count(total.output_tokens), count(total.cache_read_input_tokens), count(total.cache_creation_input_tokens), usd(total.cost)])}</tfoot></table>\n` +
      `<h2>By model</h2>\n<table id="models"><thead><tr><th>model</th><th>tokens</th><th>cost USD</th></tr></thead><tbody>\n${modelRows.join('\n')}\n</tbody></table>\n` +
      `<p class="note">Each API message priced at its model's prices (tx-stats(1)); input tokens do not include cache reads and writes.${unpriced.length > 0 ? ` No price for ${h(unpriced.join(', '))}: +? marks costs that leave them out.` : ''}</p>\n` +
      `</main>\n<script type="application/json" id="usage-data">${json}</script>\n<script>${UPLOT.script}</script>\n<script>${USAGE_SCRIPT}</script>\n</body>\n</html>\n`
    );
  }
}

function count(n: unknown): string {
  return typeof n === 'number' ? n.toLocaleString('en-US') : '';
}

function usd(n: unknown): string {
  return typeof n === 'number' ? n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : '';
}
