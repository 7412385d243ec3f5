// tx-stats over every recorded Gemini chat file (and every public one), checked against a
// plain JSON.parse loop written here, which counts another way than the codec: tokens as
// the sum of each answer's own `total` (the API's totalTokenCount), where the codec adds
// up its parts; an answer, a prompt or a call is counted by its id once, whichever of its
// copies (a record written again, a checkpoint) comes first. Each API message is priced
// by the price database's own calculator here, and the sum is the summary's cost_usd.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import t from 'tap';
import { publicGeminiChats, recordedGeminiChats } from '../harness/gemini/index.js';
import { repo } from '../helpers.js';

const bin = (name: string) => repo('build', 'bin', `${name}.js`);
const prices = createRequire(import.meta.url)('@pydantic/genai-prices') as typeof import('@pydantic/genai-prices');

/** What a file holds, counted here: each answer with tokens once, each prompt and call once. */
function counted(file: string): { total: number; messages: number; prompts: number; calls: number; usd: number } {
  const text = readFileSync(file, 'utf8');
  // A document (an older client's chat) holds the same records in its `messages`.
  const records: any[] = text.startsWith('{\n') ? JSON.parse(text).messages : text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const answers = new Set<string>();
  const prompts = new Set<string>();
  const calls = new Set<string>();
  let total = 0;
  let usd = 0;
  for (const r of records) {
    if (typeof r?.id !== 'string') continue;
    if (r.type === 'gemini' && r.tokens && !answers.has(r.id)) {
      answers.add(r.id);
      total += r.tokens.total;
      const got = prices.calcPrice({ input_tokens: r.tokens.input, cache_read_tokens: r.tokens.cached, output_tokens: r.tokens.output + r.tokens.thoughts }, r.model);
      usd += got ? Number(got.total_price) : NaN;
    }
    if (r.type === 'gemini') for (const c of r.toolCalls ?? []) calls.add(c.id);
    const said = typeof r.content === 'string' ? r.content : (r.content ?? []).map((p: any) => p.text ?? '').join('');
    // A slash command the client expanded into a prompt (/init): displayContent is what was typed.
    const typed = typeof r.displayContent === 'string' ? r.displayContent : (r.displayContent ?? []).map((p: any) => p.text ?? '').join('');
    if (typed.trimStart().startsWith('/')) continue;
    if (r.type === 'user' && !/^(System: )?Please continue\.$/.test(said.trim()) && !said.trimStart().startsWith('<') && !said.trimStart().startsWith('/') && !(r.content ?? [])[0]?.functionResponse) prompts.add(r.id);
  }
  return { total, messages: answers.size, prompts: prompts.size, calls: calls.size, usd };
}

const files = [...recordedGeminiChats().map((c) => c.file), ...publicGeminiChats().map((c) => c.file)];

t.test('tx-stats counts each Gemini answer, prompt and call once, and its tokens add up to the answers’ own totals', async (t) => {
  t.ok(files.length >= 14, 'every recorded chat file');
  for (const file of files) {
    const r = spawnSync(process.execPath, [bin('tx-stats'), '--ndjson', file], { encoding: 'utf8' });
    t.equal(r.status, 0, r.stderr);
    const summaries = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const s = summaries[0];
    const want = counted(file);
    const name = path.relative(repo(), file);
    t.equal(summaries.length, 1, `${name}: one session`);
    t.equal(s.harness, 'gemini');
    t.equal(s.api_messages, want.messages, `${name}: API messages`);
    const { input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens } = s.tokens;
    t.equal(input_tokens + output_tokens + cache_read_input_tokens + cache_creation_input_tokens, want.total, `${name}: tokens = the answers' totals`);
    t.equal(s.human_turns.typed, want.prompts, `${name}: prompts`);
    t.equal(s.tool_calls.total, want.calls, `${name}: calls`);
    t.ok(Math.abs(s.cost_usd - want.usd) < 1e-9, `${name}: cost ${s.cost_usd} is the database's ${want.usd}`);
    t.same(s.coverage.unpriced_models, {}, `${name}: every model priced`);
  }
});

t.test('tx-stats --by day buckets Gemini answers at their own times, with their cost', async (t) => {
  const tools = recordedGeminiChats().find((c) => c.scenario === 'tools')!.file;
  const r = spawnSync(process.execPath, [bin('tx-stats'), '--by', 'day', '--tz', 'UTC', '--ndjson', tools], { encoding: 'utf8' });
  t.equal(r.status, 0, r.stderr);
  const buckets = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const want = counted(tools);
  t.equal(buckets.length, 1, 'one day');
  t.equal(buckets[0].messages ?? buckets[0].api_messages, want.messages, 'every answer in it');
  t.ok(Math.abs(buckets[0].cost_usd - want.usd) < 1e-9, 'at its cost');
});
