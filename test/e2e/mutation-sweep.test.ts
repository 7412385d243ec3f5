// A tool never crashes on any input: slices of the real corpus files (and of every pi session file),
// mutated as drift and damage would (a value of another type in a field, a `__proto__`
// key, a string cut short, two lines glued, a deep nest, a blank line, a CR, lines
// dropped or repeated), go through every tool. Each must end with status 0, 1 or 2,
// with no internal error and no stack trace on stderr, and `tx-parse | tx-native` must
// give the slice back byte for byte. The slices and mutations come from a fixed seed.
// Records are data too: every header field forged to every other type goes through every
// tool, and lines that are not JSON objects among native lines come back from tx-native.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import t from 'tap';
import { HARNESSES } from '../../lib/codecs.js';
import { corpusFiles, prng, repo, runBin, type BinResult } from '../helpers.js';
import { piFiles } from '../pi/lines.js';

const files = [...corpusFiles('claude-code'), ...corpusFiles('codex'), ...piFiles()];
const CASES = 12;

/** Values a field may turn into. */
const ODD: unknown[] = [
  null, 0, -1, 1e308, true, '', ' ', '__proto__', 'constructor', [], [null], {}, 'x'.repeat(5000),
  '<command-name>/x</command-name>', '\u0000', [{ type: 'tool_result' }], [{ type: 'text' }],
  [{ type: 'tool_use' }], { type: 'queued_command' },
];
/** Fields the harnesses' codecs read. */
const FIELDS = [
  'type', 'subtype', 'message', 'content', 'role', 'text', 'payload', 'attachment', 'toolUseResult', 'name',
  'input', 'id', 'tool_use_id', 'parentUuid', 'uuid', 'sessionId', 'timestamp', 'usage', 'model',
  'isSidechain', 'isMeta', 'isCompactSummary', 'compactMetadata', 'origin', 'arguments', 'output', 'call_id',
  'summary', 'leafUuid', 'version', 'hookEvent', 'hookName', 'is_error', 'promptSource', 'logicalParentUuid',
  'parentId', 'toolCallId', 'isError', 'stopReason', 'firstKeptEntryId', 'thinkingSignature',
];

/** A slice of a corpus file with 4 to 15 mutations, as text. */
function mutatedSlice(random: () => number): { from: string; text: string } {
  const pick = <T>(a: T[]): T => a[Math.floor(random() * a.length)];
  const from = pick(files);
  const all = readFileSync(from, 'utf8').split('\n').filter((l) => l !== '');
  const start = Math.floor(random() * all.length);
  const lines = all.slice(start, start + 1 + Math.floor(random() * 120));
  for (let m = 4 + Math.floor(random() * 12); m > 0; m--) {
    if (lines.length === 0) lines.push('{}');
    const i = Math.floor(random() * lines.length);
    const r = random();
    if (r < 0.6) {
      let value: any;
      try {
        value = JSON.parse(lines[i]);
      } catch {
        continue;
      }
      // Every object of the line, found without recursion; one gets an odd value, loses a key, or gains `__proto__`.
      const objects: any[] = [];
      const stack = [value];
      while (stack.length > 0 && objects.length < 2000) {
        const v = stack.pop();
        if (v && typeof v === 'object') {
          objects.push(v);
          for (const k of Object.keys(v)) stack.push(v[k]);
        }
      }
      // The line's own fields (the envelope every codec reads) as often as all the nested objects together.
      const o = random() < 0.5 ? value : pick(objects);
      const keys = Object.keys(o);
      const odd = structuredClone(pick(ODD));
      const s = random();
      if (s < 0.5 && keys.length > 0) o[pick(keys)] = odd;
      else if (s < 0.75) o[pick(FIELDS)] = odd;
      else if (s < 0.9 && keys.length > 0) delete o[pick(keys)];
      else Object.defineProperty(o, '__proto__', { value: odd, enumerable: true, configurable: true, writable: true });
      try {
        lines[i] = JSON.stringify(value);
      } catch {
        // A deep nest an earlier mutation inserted: JSON.stringify runs out of stack; the line stays as it was.
      }
    } else if (r < 0.67) lines[i] = lines[i].slice(0, Math.floor(random() * lines[i].length));
    else if (r < 0.73 && i + 1 < lines.length) lines.splice(i, 2, lines[i] + lines[i + 1]);
    else if (r < 0.77) lines.splice(i, 0, '['.repeat(3000) + ']'.repeat(3000));
    else if (r < 0.81) lines.splice(i, 0, '{"a":'.repeat(5000) + '1' + '}'.repeat(5000));
    else if (r < 0.85) lines.splice(i, 0, '');
    else if (r < 0.89) lines[i] += '\r';
    else if (r < 0.94) lines.splice(i, 1);
    else lines.splice(i, 0, pick(lines));
  }
  return { from, text: lines.join('\n') + (random() < 0.9 ? '\n' : '') };
}

/** What is wrong with how a tool ended, or null: a status above 2, a signal, an internal error or a stack trace. */
function crash(r: BinResult): string | null {
  if (r.status === null || r.status > 2) return `status ${r.status}`;
  const err = r.stderr;
  if (/internal error|\n\s+at .+:\d+:\d+|(Type|Range|Reference|Syntax)Error/.test(err)) return `stderr: ${err.slice(0, 300)}`;
  return null;
}

const QUESTIONS = [
  ['--human-prompts'],
  ['--tool-calls', '--view'],
  ['--tool-results', '--errors', '--view'],
  ['--skills', '--view'],
  ['--subagents', '--view'],
  ['--hooks', '--view'],
  ['--compactions', '--view'],
  ['--usage', '--view'],
  ['--modes', '--view'],
  ['--reasoning', '--view'],
];
const ON_RECORDS: [string, string[]][] = [
  ...QUESTIONS.map((q) => ['tx-filter', q] as [string, string[]]),
  ['tx-stats', []],
  ['tx-common', []],
  ['tx-common', ['--active']],
  ['tx-render', ['--format', 'md']],
  ['tx-redact', []],
  ['tx-escape', []],
  ['tx-escape', ['-d']],
];

t.test('mutated slices of the corpus: every tool ends without a crash, and tx-parse | tx-native gives each slice back', { skip: files.length === 0 ? 'no corpus beside this checkout (../shared/corpus)' : false }, async (t) => {
  const scratch = mkdtempSync(join(tmpdir(), 'tx-mutation-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  // No tool run here may find a real store: every home points into the scratch directory.
  const env = { ...process.env, HOME: scratch, CLAUDE_CONFIG_DIR: join(scratch, 'claude'), CODEX_HOME: join(scratch, 'codex') };
  const random = prng(2026);
  for (let c = 0; c < CASES; c++) {
    const { from, text } = mutatedSlice(random);
    const file = join(scratch, `case-${c}.jsonl`);
    writeFileSync(file, text);
    const what = `case ${c} (from ${basename(from)})`;
    const parsed = await runBin('tx-parse', [file], undefined, env);
    t.equal(crash(parsed), null, `${what}: tx-parse`);
    const back = await runBin('tx-native', [], parsed.stdout, env);
    t.equal(crash(back), null, `${what}: tx-parse | tx-native`);
    t.ok(back.stdout.equals(Buffer.from(text)), `${what}: tx-parse | tx-native gives the slice back byte for byte`);
    const runs = await Promise.all(ON_RECORDS.map(([name, args]) => runBin(name, args, parsed.stdout, env)));
    ON_RECORDS.forEach(([name, args], k) => t.equal(crash(runs[k]), null, `${what}: tx-parse | ${name} ${args.join(' ')}`));
    const onFile = await Promise.all([runBin('tx-stats', [file], undefined, env), runBin('tx-filter', ['--kind', 'assistant', '--invert', file], undefined, env)]);
    t.equal(crash(onFile[0]), null, `${what}: tx-stats on the file`);
    t.equal(crash(onFile[1]), null, `${what}: tx-filter on the file`);
    const common = runs[ON_RECORDS.findIndex(([name, args]) => name === 'tx-common' && args.length === 0)];
    for (const harness of HARNESSES) {
      const written = await runBin('tx-native', ['--harness', harness], common.stdout, env);
      t.equal(crash(written), null, `${what}: tx-common | tx-native --harness ${harness}`);
    }
  }
});

/** Every header field of a record, and values of every JSON type it may be forged to. */
const HEADER_FIELDS = ['src', 'n', 'bom', 'crlf', 'eol', 'glued', 'error', 'raw', 'raw_base64', 'harness', 'kind'];
const FORGED: unknown[] = [{ a: 1 }, [1], null, 42, -1, 1.5, 0, 'x', '', 'a\u0000b', true, false];
const FIXTURE = repo('fixtures', 'prototype-keys', 'claude-code', '-home-dev-app', 'dddddddd-0000-4000-8000-00000000000d.jsonl');

t.test('forged records: a header field of any other type is named and skipped by every tool that reads records, and crashes none', async (t) => {
  const scratch = mkdtempSync(join(tmpdir(), 'tx-forged-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const env = { ...process.env, HOME: scratch, CLAUDE_CONFIG_DIR: join(scratch, 'claude'), CODEX_HOME: join(scratch, 'codex') };
  const records = (await runBin('tx-parse', [FIXTURE], undefined, env)).stdout.toString().split('\n').filter(Boolean);
  const lines = [records[0]];
  let forged = 0;
  for (const field of HEADER_FIELDS) {
    for (const odd of FORGED) {
      const { line, ...header } = JSON.parse(records[2]);
      const fits = (field === 'n' && odd === 42) || (typeof odd === 'boolean' && ['bom', 'crlf', 'eol', 'glued'].includes(field)) || (typeof odd === 'string' && ['error', 'raw', 'raw_base64'].includes(field)) || (typeof odd === 'string' && odd !== '' && (field === 'kind' || field === 'harness')) || (field === 'src' && odd === 'x');
      if (fits) continue;
      header[field] = odd;
      // With `line` last (cut from the bytes) and first (parsed whole).
      lines.push(JSON.stringify({ ...header, line }), JSON.stringify({ line, ...header }));
      forged += 2;
    }
  }
  lines.push(records[3]);
  const file = join(scratch, 'forged.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  const naming: [string, string[]][] = [
    ['tx-native', []], ['tx-common', []], ['tx-common', ['--active']], ['tx-common', ['--subagents']], ['tx-stats', []], ['tx-stats', ['--subagents']],
    ['tx-filter', ['--human-prompts']], ['tx-filter', ['--tool-calls', '--view']], ['tx-render', ['--format', 'md']], ['tx-render', ['--format', 'md', '--subagents']],
  ];
  const passing: [string, string[]][] = [['tx-parse', []], ['tx-escape', []], ['tx-escape', ['-d']], ['tx-redact', []], ['tx-grep', ['proto']], ['tx-ls', ['--subagents']]];
  const runs = await Promise.all([...naming, ...passing].map(([name, args]) => runBin(name, [...args, file], undefined, env)));
  [...naming, ...passing].forEach(([name, args], k) => t.equal(crash(runs[k]), null, `${name} ${args.join(' ')}: no crash`));
  naming.forEach(([name, args], k) => {
    const named = runs[k].stderr.split('\n').filter((l) => /: not a record \("(\w+)" is .*\), skipped$/.test(l));
    t.equal(named.length, forged, `${name} ${args.join(' ')}: each forged line named once, with its field`);
    t.equal(runs[k].status, 0, `${name} ${args.join(' ')}: exit 0 without --strict`);
  });
  const native = runs[0].stdout.toString().split('\n').filter(Boolean);
  t.same(native, [records[0], records[3]].map((r) => JSON.stringify(JSON.parse(r).line)), 'tx-native writes back the two records and nothing of the forged lines');
  const parsed = runs[naming.length].stdout.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  t.equal(parsed.length, lines.length, 'tx-parse: one line out per line in');
  t.ok(parsed.slice(1, -1).every((r, i) => r.kind === 'other' && JSON.stringify(r.line) === JSON.stringify(JSON.parse(lines[i + 1]))), 'tx-parse reads each forged line as a native line, kept whole');
  const strict = await runBin('tx-stats', ['--strict', file], undefined, env);
  t.equal(strict.status, 1, 'tx-stats --strict: a forged record is a data error');
});

t.test('tx-native writes back lines that are not JSON objects among native lines byte for byte, as tx-parse | tx-native does', async (t) => {
  const scratch = mkdtempSync(join(tmpdir(), 'tx-nonobject-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const fixture = readFileSync(FIXTURE, 'utf8').split('\n').filter(Boolean);
  const odd = ['[1,2]', '42', '"str"', 'null', 'true', '', '  ', 'not json', '{"a":'];
  for (const [what, text] of [
    ['among native lines', [fixture[0], ...odd, fixture[1], ...odd, fixture[2]].join('\n') + '\n'],
    ['before the first native line', [...odd, fixture[0], fixture[1]].join('\r\n') + '\r\n'],
    ['last, without a final newline', [fixture[0], '[1,2]'].join('\n')],
  ]) {
    const file = join(scratch, 'odd.jsonl');
    writeFileSync(file, text);
    const direct = await runBin('tx-native', [file]);
    t.equal(crash(direct), null, `${what}: no crash`);
    t.ok(direct.stdout.equals(Buffer.from(text)), `${what}: tx-native gives the file back byte for byte`);
    const piped = await runBin('tx-native', [], (await runBin('tx-parse', [file])).stdout);
    t.ok(piped.stdout.equals(direct.stdout), `${what}: as tx-parse | tx-native does`);
  }
  const common = await runBin('tx-native', [], '42\n' + (await runBin('tx-common', [FIXTURE])).stdout.toString());
  t.notOk(common.stdout.toString().startsWith('42'), 'before a Common stream, such a line is skipped, not written into the session');
  t.match(common.stderr, 'stdin:1: neither a record nor a Common line, skipped');
});
