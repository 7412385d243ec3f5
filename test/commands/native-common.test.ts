// tx-native from Common: the codec fixpoint tx-common(tx-native(c)) = c, determinism,
// --install, and path safety against hostile ids, cwds and artifact names.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { toolView } from '../../lib/claude-code/tool-view.js';
import { projectSlug } from '../../lib/claude-code/slug.js';
import { commonTool } from '../../lib/commands/common.js';
import { nativeTool } from '../../lib/commands/native.js';
import { parseTool } from '../../lib/commands/parse.js';
import type { Block, CommonLine, CommonMessage, CommonSession } from '../../lib/common.js';
import { continued, corpusFiles, runBin, runTool } from '../helpers.js';

const ndjson = (lines: unknown[]) => lines.map((l) => JSON.stringify(l) + '\n').join('');
const parseNdjson = (b: Buffer) => b.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** Common → tx-native → tx-parse → tx-common, in process. */
async function roundTrip(common: string, nativeArgs: string[] = []): Promise<{ lines: any[]; native: Buffer; stderr: string }> {
  const native = await runTool(nativeTool, nativeArgs, [common]);
  const records = await runTool(parseTool, [], [native.stdout]);
  const back = await runTool(commonTool, [], [records.stdout]);
  return { lines: parseNdjson(back.stdout), native: native.stdout, stderr: native.stderr + records.stderr + back.stderr };
}

/**
 * The ids tx-native regenerates by design are the native lines' uuids: user message ids
 * and slash-command tool_use ids. Rename user message ids and every UUID-shaped
 * tool id by order of first appearance, so two streams compare equal exactly when they agree up to that renaming.
 */
function canonical(lines: any[]): any[] {
  const names = new Map<string, string>();
  const users = new Map<string, string>();
  const rename = (id: string) => {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return id;
    if (!names.has(id)) names.set(id, `tool-${names.size}`);
    return names.get(id) as string;
  };
  return lines.map((l) => {
    const c = structuredClone(l);
    if (c.type === 'session') {
      names.clear();
      users.clear();
      delete c.src;
      return c;
    }
    if (c.role === 'user') {
      if (!users.has(c.id)) users.set(c.id, `user-${users.size}`);
      c.id = users.get(c.id);
    }
    for (const b of c.content) {
      if (b.type === 'tool_use') b.id = rename(b.id);
      if (b.type === 'tool_result') b.tool_use_id = rename(b.tool_use_id);
    }
    return c;
  });
}

/** A seeded generator of conversations that use every Common block type. */
function generator(seed: number) {
  let s = seed;
  const rnd = (n: number) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    // The high bits: an LCG's low bits repeat with a short period.
    return (s >>> 16) % n;
  };
  const pick = <T>(xs: T[]): T => xs[rnd(xs.length)];
  const words = ['parse', 'the', 'file', 'é', '日本', '🦀', '"quoted"', 'back\\slash', 'new\nline', '</local-command-stdout>', '<command-name>', 'tab\t', '<\\/command-args>'];
  const text = () => 'x ' + Array.from({ length: 1 + rnd(6) }, () => pick(words)).join(' ');
  let ids = 0;
  const id = (p: string) => `${p}_${seed}_${ids++}`;
  const toolUse = (): Block => {
    const kinds: [string, Record<string, unknown>][] = [
      ['Bash', { command: text(), description: text() }],
      ['Read', { file_path: '/src/a.ts', offset: 3, limit: 10 }],
      ['Write', { file_path: '/src/b.ts', content: text() }],
      ['Edit', { file_path: '/src/c.ts', old_string: text(), new_string: text() }],
      ['MultiEdit', { file_path: '/src/d.ts', edits: [{ old_string: 'a', new_string: 'b' }] }],
      ['Agent', { description: text(), subagent_type: 'general-purpose', prompt: text() }],
      ['Skill', { skill: 'tdd' }],
      ['mcp__db__query', { sql: 'select 1', limit: rnd(5) }],
      ['Freeform', { input: text() }],
    ];
    const [name, input] = pick(kinds);
    const block: any = { type: 'tool_use', id: id('toolu'), name, input };
    const view = toolView(name, input);
    if (view) block.tool = view;
    return block;
  };
  const image = (): Block => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: Buffer.from(text()).toString('base64') } });
  const session = (n: number): CommonLine[] => {
    const sid = `0b5e6a2e-${String(1000 + n).padStart(4, '0')}-4a4a-9999-${String(seed).padStart(12, '0')}`;
    const head: CommonSession = { type: 'session', harness: 'claude-code', id: sid, cwd: '/home/u/app', git_branch: 'main', version: '2.1.328', model: 'claude-test-1', started_at: '2026-11-01T10:00:00.000Z' };
    if (rnd(3) === 0) head.title = head.custom_title = text();
    else if (rnd(2)) head.title = text();
    if (rnd(3) === 0) head.ai_title = text();
    const out: CommonLine[] = [head];
    let pendingTools: string[] = [];
    let minute = 0;
    const ts = () => `2026-11-01T10:${String(minute++ % 60).padStart(2, '0')}:00.000Z`;
    const turns = 1 + rnd(5);
    for (let turn = 0; turn < turns; turn++) {
      // A user message: tool results for the last assistant's calls, a command and its output, then text or an image.
      const user: Block[] = pendingTools.map((tu): Block => ({ type: 'tool_result', tool_use_id: tu, content: pick<string | Block[]>([text(), [{ type: 'text', text: text() }], [image()], '', [{ type: 'tool_reference', tool_name: 'WebFetch' }]]), ...(rnd(3) === 0 ? { is_error: true } : {}) }));
      // A prompt typed while the tools ran.
      if (user.length > 0 && rnd(3) === 0) user.push({ type: 'text', text: text(), origin: 'queued' });
      pendingTools = [];
      if (user.length === 0 && rnd(3) === 0) {
        const cid = `c0ffee00-0000-4000-8000-${String(seed * 100 + turn).padStart(12, '0')}`;
        const name = pick(['/model', '/compact', '/review', '!']);
        // tx-common trims a command's arguments, as the client does when it runs one.
        const input: Record<string, unknown> = name === '!' ? { args: 'ls -la' } : { message: name.slice(1), ...(rnd(2) ? { args: text().trim() } : {}) };
        const view: any = { kind: 'command', name };
        if (typeof input.args === 'string') view.args = input.args;
        if (typeof input.message === 'string') view.message = input.message;
        user.push({ type: 'tool_use', id: cid, name, input, tool: view });
        user.push({ type: 'tool_result', tool_use_id: cid, content: text() });
      }
      if (user.length === 0 || rnd(2)) user.push(rnd(4) === 0 ? image() : { type: 'text', text: text() });
      if (rnd(4) === 0) user.push({ type: 'text', text: text() });
      if (rnd(6) === 0) user.push({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: text() }, title: 'notes.txt' });
      const u: CommonMessage = { type: 'message', id: `u-${seed}-${turn}`, role: 'user', timestamp: ts(), content: user };
      // A compaction starts the model's conversation over: it comes between turns, with no call open.
      if (turn > 0 && rnd(6) === 0 && !user.some((b) => b.type === 'tool_result')) u.after_compaction = true;
      out.push(u);
      const content: Block[] = [];
      if (rnd(2)) content.push({ type: 'thinking', thinking: rnd(3) ? text() : '', signature: 'sig' + rnd(1000) });
      if (rnd(5) === 0) content.push({ type: 'redacted_thinking', data: 'enc' + rnd(1000) });
      if (rnd(5) === 0) {
        const sid = id('srvtoolu');
        content.push({ type: 'server_tool_use', id: sid, name: 'web_search', input: { query: text() } });
        content.push({ type: 'web_search_tool_result', tool_use_id: sid, content: [{ type: 'web_search_result', url: 'https://example.org/', title: text(), encrypted_content: 'e' + rnd(100) }] });
      }
      content.push({ type: 'text', text: text() });
      if (rnd(5) === 0) content.push({ type: 'artifact', id: id('toolu'), name: 'report.md', description: text(), source: { type: 'path', path: '/home/u/app/report.md' } });
      const calls = rnd(3);
      for (let k = 0; k < calls; k++) content.push(toolUse());
      for (const b of content as any[]) if (b.type === 'tool_use' || b.type === 'artifact') pendingTools.push(b.id);
      const a: CommonMessage = { type: 'message', id: id('msg'), role: 'assistant', timestamp: ts(), model: 'claude-test-1', content, stop_reason: pendingTools.length ? 'tool_use' : 'end_turn', usage: { input_tokens: rnd(100), output_tokens: rnd(100) } };
      out.push(a);
    }
    // Calls left open at the end are answered, so the conversation is one a client can continue as it is.
    if (pendingTools.length > 0) out.push({ type: 'message', id: `u-${seed}-end`, role: 'user', timestamp: ts(), content: pendingTools.map((tu): Block => ({ type: 'tool_result', tool_use_id: tu, content: text() })) });
    return out;
  };
  return { session };
}

t.test('fixpoint: tx-common(tx-native(c)) equals c, up to the renaming of line uuids, for random conversations using every block type, native blocks, queued prompts and titles', async (t) => {
  const seen = new Set<string>();
  for (let seed = 1; seed <= 60; seed++) {
    const gen = generator(seed);
    const c = [...gen.session(0), ...(seed % 4 === 0 ? gen.session(1) : [])];
    for (const l of c) if (l.type === 'message') for (const b of l.content) seen.add(b.type);
    const { lines, stderr } = await roundTrip(ndjson(c));
    t.same(canonical(lines), canonical(c), `seed ${seed}`);
    t.equal(stderr, '', `seed ${seed}: nothing on stderr`);
  }
  t.same([...seen].sort(), ['artifact', 'document', 'image', 'redacted_thinking', 'server_tool_use', 'text', 'thinking', 'tool_result', 'tool_use', 'web_search_tool_result'], 'every block type was generated');
});

t.test('deterministic: the same Common input gives the same bytes', async (t) => {
  const c = ndjson(generator(7).session(0));
  const a = await runTool(nativeTool, [], [c]);
  const b = await runTool(nativeTool, [], [c]);
  t.ok(a.stdout.length > 0);
  t.ok(a.stdout.equals(b.stdout));
  const other = await runTool(nativeTool, ['--session-id', '11111111-2222-4333-8444-555555555555'], [c]);
  t.notOk(other.stdout.equals(a.stdout), '--session-id changes the ids');
  t.ok(parseNdjson(other.stdout).filter((l) => l.sessionId).every((l) => l.sessionId === '11111111-2222-4333-8444-555555555555'));
});

t.test('fixpoint holds for tx-common output of every corpus file, made continuable (tool calls a file leaves open get placeholder results)', async (t) => {
  const files = corpusFiles('claude-code');
  if (files.length === 0) {
    t.plan(0, 'no corpus beside this checkout');
    return;
  }
  for (const f of files) {
    const records = await runTool(parseTool, [], [readFileSync(f)]);
    const common = await runTool(commonTool, [], [records.stdout]);
    const c = parseNdjson(common.stdout);
    const { lines } = await roundTrip(common.stdout.toString('utf8'));
    t.same(canonical(lines), canonical(continued(c, 'claude-code')), f);
  }
});

t.test('non-object tool inputs are wrapped as {"input": value}; odd tool_result content is flattened to JSON text', async (t) => {
  const c = [
    { type: 'session', harness: 'codex', id: 'rollout-1' },
    { type: 'message', id: 'u1', role: 'user', content: [{ type: 'text', text: 'go' }] },
    { type: 'message', id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'apply_patch', input: '*** Begin Patch' }] },
    { type: 'message', id: 'u2', role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: { exit_code: 0, output: 'ok' } }] },
  ];
  const native = parseNdjson((await runTool(nativeTool, [], [ndjson(c)])).stdout);
  t.same(native[1].message.content[0].input, { input: '*** Begin Patch' });
  t.same(native[2].message.content[0].content, '{"exit_code":0,"output":"ok"}');
  t.match(native[0].sessionId, /^[0-9a-f-]{36}$/, 'a non-UUID session id becomes a UUIDv5');
});

t.test('titles: a custom title is a custom-title line, the client\'s own an ai-title line, any other title a summary anchored to the last line of the main chain', async (t) => {
  const head = { type: 'session', harness: 'claude-code', id: '0b5e6a2e-1111-4a4a-9999-000000000002' };
  const body = [
    { type: 'message', id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] },
    { type: 'message', id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
  ];
  const titled = parseNdjson((await runTool(nativeTool, [], [ndjson([{ ...head, title: 'Named', custom_title: 'Named', ai_title: 'Greeting' }, ...body])])).stdout);
  t.same(titled.slice(-2), [
    { type: 'custom-title', customTitle: 'Named', sessionId: head.id },
    { type: 'ai-title', aiTitle: 'Greeting', sessionId: head.id },
  ]);
  const { lines } = await roundTrip(ndjson([{ ...head, title: 'Named', custom_title: 'Named', ai_title: 'Greeting' }, ...body]));
  t.match(lines[0], { title: 'Named', custom_title: 'Named', ai_title: 'Greeting' }, 'both titles come back through tx-common');
});

t.test('a title becomes a summary line anchored to the last line of the main chain', async (t) => {
  const c = [
    { type: 'session', harness: 'claude-code', id: '0b5e6a2e-1111-4a4a-9999-000000000001', title: 'Parser work' },
    { type: 'message', id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] },
    { type: 'message', id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
  ];
  const native = parseNdjson((await runTool(nativeTool, [], [ndjson(c)])).stdout);
  const last = native[native.length - 1];
  t.same({ type: last.type, summary: last.summary }, { type: 'summary', summary: 'Parser work' });
  t.equal(last.leafUuid, native[native.length - 2].uuid);
  t.equal(native[1].parentUuid, native[0].uuid, 'lines chain through parentUuid');
});

t.test('a Common message before any session line is reported and skipped', async (t) => {
  const r = await runTool(nativeTool, [], ['{"type":"message","id":"u","role":"user","content":[]}\n']);
  t.equal(r.stdout.length, 0);
  t.match(r.stderr, 'tx-native: stdin:1: a Common message before any session line, skipped');
});

function scratch(t: any): string {
  const dir = mkdtempSync(join(tmpdir(), 'tx-install-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const SID = '0b5e6a2e-1111-4a4a-9999-000000000001';
const small = (extra: Partial<CommonSession> = {}, blocks: Block[] = [{ type: 'text', text: 'hello' }]) =>
  ndjson([
    { type: 'session', harness: 'claude-code', id: SID, cwd: '/home/u/my app', ...extra },
    { type: 'message', id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] },
    { type: 'message', id: 'm1', role: 'assistant', content: blocks },
  ]);

t.test('--install writes <config>/projects/<slug>/<id>.jsonl atomically and prints how to resume', async (t) => {
  const config = scratch(t);
  const r = await runBin('tx-native', ['--install', '--config-dir', config], small());
  t.equal(r.status, 0, r.stderr);
  const file = join(config, 'projects', projectSlug('/home/u/my app'), `${SID}.jsonl`);
  t.ok(existsSync(file), file);
  t.equal(r.stdout.length, 0, 'nothing on stdout');
  t.match(r.stderr, `installed ${file}`);
  t.match(r.stderr, `cd '/home/u/my app' && claude --resume ${SID}`);
  t.same(readdirSync(join(config, 'projects', projectSlug('/home/u/my app'))), [`${SID}.jsonl`], 'no temporary file left');
  const again = await runBin('tx-native', ['--install', '--config-dir', config], small());
  t.equal(again.status, 1, 'never over an existing session');
  t.match(again.stderr, 'already exists: not overwritten');
});

t.test('--install of an existing id says the command that installs it as a new session, and --session-id new does', async (t) => {
  const config = scratch(t);
  const project = join(config, 'projects', projectSlug('/home/u/my app'));
  t.equal((await runBin('tx-native', ['--install', '--config-dir', config], small())).status, 0);
  const again = await runBin('tx-native', ['--install', '--config-dir', config], small());
  t.equal(again.status, 1);
  t.match(again.stderr, `already exists: not overwritten; to install it as a new session, run: … | tx-native --install --config-dir ${config} --session-id new`);
  const fresh = await runBin('tx-native', ['--install', '--config-dir', config, '--session-id', 'new'], small());
  t.equal(fresh.status, 0, fresh.stderr);
  const files = readdirSync(project).sort();
  t.equal(files.length, 2, 'a second session beside the first');
  const id = files.find((f) => f !== `${SID}.jsonl`)!.replace(/\.jsonl$/, '');
  t.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a random (version 4) UUID');
  t.match(fresh.stderr, `claude --resume ${id}`);
  const other = await runBin('tx-native', ['--session-id', 'new'], small());
  const ids = new Set(parseNdjson(other.stdout).map((l) => l.sessionId).filter(Boolean));
  t.equal(ids.size, 1, 'one id for the whole session');
  t.notOk(ids.has(SID) || ids.has(id), 'a different id on every run');
});

t.test('--install finds the config dir in CLAUDE_CONFIG_DIR, and --cwd chooses the project', async (t) => {
  const config = scratch(t);
  const r = await runBin('tx-native', ['--install', '--cwd', '/srv/other'], small(), { ...process.env, CLAUDE_CONFIG_DIR: config });
  t.equal(r.status, 0, r.stderr);
  const file = join(config, 'projects', projectSlug('/srv/other'), `${SID}.jsonl`);
  t.ok(existsSync(file));
  t.ok(readFileSync(file, 'utf8').split('\n').filter(Boolean).every((l) => !l.includes('"cwd"') || JSON.parse(l).cwd === '/srv/other'));
});

t.test('path safety: hostile session ids and cwds cannot leave the store', async (t) => {
  const config = scratch(t);
  const bad = await runBin('tx-native', ['--install', '--config-dir', config, '--session-id', '../../../etc/passwd'], small());
  t.equal(bad.status, 2, 'a --session-id that is not a UUID is a usage error');
  const hostileId = await runBin('tx-native', ['--install', '--config-dir', config], small({ id: '../../escape' }));
  t.equal(hostileId.status, 0, hostileId.stderr);
  const hostileCwd = await runBin('tx-native', ['--install', '--config-dir', config, '--session-id', '22222222-2222-4222-8222-222222222222'], small({ cwd: '/../../../../tmp/x/../../etc' }));
  t.equal(hostileCwd.status, 0, hostileCwd.stderr);
  const relCwd = await runBin('tx-native', ['--install', '--config-dir', config, '--session-id', '33333333-3333-4333-8333-333333333333', '--cwd', '../..'], small());
  t.equal(relCwd.status, 0, relCwd.stderr);
  // Everything written is a UUID-named session file directly inside a project directory of the store.
  const projects = join(config, 'projects');
  const written: string[] = [];
  for (const dir of readdirSync(projects)) for (const f of readdirSync(join(projects, dir))) written.push(`${dir}/${f}`);
  t.equal(written.length, 3);
  for (const w of written) t.match(w, /^-[A-Za-z0-9-]*\/[0-9a-f-]{36}\.jsonl$/, w);
  t.same(readdirSync(config), ['projects'], 'nothing outside projects/');
});

t.test('path safety: inline artifacts land beneath the session directory; absolute, .. and symlinked paths are refused', async (t) => {
  const art = (name: string): Block => ({ type: 'artifact', id: 'toolu_a', name, source: { type: 'base64', data: Buffer.from('bytes').toString('base64') } });
  const config = scratch(t);
  const ok = await runBin('tx-native', ['--install', '--config-dir', config], small({}, [art('out/report.md')]));
  t.equal(ok.status, 0, ok.stderr);
  const sessionDir = join(config, 'projects', projectSlug('/home/u/my app'), SID);
  const written = join(sessionDir, 'artifacts', 'out', 'report.md');
  t.equal(readFileSync(written, 'utf8'), 'bytes');
  const file = readFileSync(join(config, 'projects', projectSlug('/home/u/my app'), `${SID}.jsonl`), 'utf8');
  t.match(file, JSON.stringify(written), 'the Artifact tool call names the written path');

  let n = 0;
  for (const name of ['/etc/evil', '../../evil', 'a/../../../evil', 'C:\\evil']) {
    const id = `44444444-4444-4444-8444-${String(++n).padStart(12, '0')}`;
    const r = await runBin('tx-native', ['--install', '--config-dir', config, '--session-id', id], small({}, [art(name)]));
    t.equal(r.status, 1, `${name} refused`);
    t.match(r.stderr, /artifact path .* (is absolute|leaves .*artifacts)/);
    t.notOk(existsSync(join(config, 'projects', projectSlug('/home/u/my app'), `${id}.jsonl`)), 'no session is installed');
  }
  const outside = scratch(t);
  const id = '55555555-5555-4555-8555-555555555555';
  const dir = join(config, 'projects', projectSlug('/home/u/my app'), id, 'artifacts');
  mkdirSync(dir, { recursive: true });
  symlinkSync(outside, join(dir, 'link'));
  const viaLink = await runBin('tx-native', ['--install', '--config-dir', config, '--session-id', id], small({}, [art('link/evil')]));
  t.equal(viaLink.status, 1);
  t.match(viaLink.stderr, `${join(dir, 'link')} is a symbolic link: refusing to write through it`);
  writeFileSync(join(outside, 'target'), 'keep');
  symlinkSync(join(outside, 'target'), join(dir, 'file'));
  const ontoLink = await runBin('tx-native', ['--install', '--config-dir', config, '--session-id', id], small({}, [art('file')]));
  t.equal(ontoLink.status, 1);
  t.equal(readFileSync(join(outside, 'target'), 'utf8'), 'keep', 'a symlinked file is never written through');
  t.same(readdirSync(outside), ['target']);
});

t.test('an inline artifact on stdout is an error that says what to do', async (t) => {
  const r = await runBin('tx-native', [], small({}, [{ type: 'artifact', id: 'x', name: 'a.txt', source: { type: 'text', text: 'hi' } }]));
  t.equal(r.status, 1);
  t.match(r.stderr, 'has inline bytes: write the session with --install');
});

t.test('--install refuses records, which are written back to standard output without it', async (t) => {
  const config = scratch(t);
  const r = await runBin('tx-native', ['--install', '--config-dir', config], '{"harness":"claude-code","n":1,"kind":"meta","line":{"type":"mode"}}\n');
  t.equal(r.status, 2);
  t.match(r.stderr, '--install writes sessions from a Common stream');
  t.same(readdirSync(config), []);
});

t.test('malformed Common lines are reported and left out, never a crash; a session left empty is not installed', async (t) => {
  const input = readFileSync('fixtures/native/malformed-common.jsonl');
  const lax = await runBin('tx-native', [], input);
  t.equal(lax.status, 0);
  t.notMatch(lax.stderr, /internal error|\n\s+at /);
  for (const said of ['stdin:2: a message whose content is not a block list, skipped', 'stdin:4: a tool_use block without id or name, left out', 'stdin:6: a message whose role is "narrator", skipped', 'stdin:7: a session parent without a session id, left out', 'stdin:10: a message with no usable block, skipped'])
    t.match(lax.stderr, said);
  t.equal(lax.stdout.length, 0, 'no message had anything the client could load');
  const strict = await runBin('tx-native', ['--strict'], input);
  t.equal(strict.status, 1);
  const config = scratch(t);
  const installed = await runBin('tx-native', ['--install', '--config-dir', config], input);
  t.match(installed.stderr, 'has no message the client could load: not installed');
  t.same(readdirSync(config).length === 0 ? [] : readdirSync(join(config, 'projects')).flatMap((d) => readdirSync(join(config, 'projects', d))), [], 'no empty session file, no temporary left');
});

t.test('a conversation larger than the context window: written with a note for its own client, refused under --strict-size, nothing installed then; --context-window must be a number', async (t) => {
  const config = scratch(t);
  const big = 'x'.repeat(8000);
  const lines = [
    { type: 'session', harness: 'codex', id: SID, cwd: '/home/u/app' },
    { type: 'message', id: 'u1', role: 'user', content: [{ type: 'text', text: big }] },
    { type: 'message', id: 'a1', role: 'assistant', content: [{ type: 'text', text: 'long ago' }] },
    { type: 'message', id: 'u2', role: 'user', content: [{ type: 'text', text: 'the summary' }], after_compaction: true },
    { type: 'message', id: 'a2', role: 'assistant', content: [{ type: 'text', text: 'on we go' }] },
  ];
  const c = ndjson(lines);
  for (const harness of ['claude-code', 'codex']) {
    const fits = await runBin('tx-native', ['--harness', harness, '--context-window', '1000'], c);
    t.equal(fits.status, 0, `${harness} resumes from the compaction by itself: only that part must fit`);
    t.equal(fits.stderr, '', 'and nothing is said of its size');
  }
  const after = ndjson([...lines, { type: 'message', id: 'u3', role: 'user', content: [{ type: 'text', text: big }] }]);
  const strict = await runBin('tx-native', ['--harness', 'codex', '--context-window', '1000', '--strict-size', '--install', '--config-dir', config], after);
  t.equal(strict.status, 1);
  t.match(strict.stderr, /is about 2\d{3} tokens \(estimated from its bytes\), more than the 1000-token context window of codex \(--context-window\) even from its latest compaction: not written \(--strict-size\)/);
  t.same(readdirSync(config), [], 'nothing installed');
  const own = await runBin('tx-native', ['--harness', 'codex', '--context-window', '1000', '--install', '--config-dir', config], after);
  t.equal(own.status, 0, 'its own client: written');
  t.match(own.stderr, /tx-native: session \S+ is about 2\d{3} tokens .* even from its latest compaction: written; the client may have to compact it before it goes on, or refuse it\n/);
  t.match(own.stderr, 'installed ', 'and installed');
  const other = await runBin('tx-native', ['--harness', 'claude-code', '--context-window', '1000'], after);
  t.equal(other.status, 0, 'another client whose largest window holds it: written');
  t.match(other.stderr, /more than the 1000-token context window of claude-code \(--context-window\) even from its latest compaction: written/);
  const cut = await runBin('tx-native', ['--harness', 'codex', '--from-compaction'], c);
  t.equal(cut.status, 0, cut.stderr);
  t.notMatch(cut.stdout.toString(), 'long ago', 'what came before the compaction is left out');
  t.match(cut.stdout.toString(), 'on we go');
  t.match(cut.stderr, 'started from the latest compaction (2 messages before it left out)');
  const bad = await runBin('tx-native', ['--context-window', 'lots'], c);
  t.equal(bad.status, 2);
  t.match(bad.stderr, '--context-window "lots" is not a positive number of tokens');
});
