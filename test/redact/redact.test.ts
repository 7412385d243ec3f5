// tx-redact's behaviours, one named case each, on small inputs.
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { redactTool } from '../../lib/commands/redact.js';
import { parseRulesFile } from '../../lib/redact/rules.js';
import { repo, runTool } from '../helpers.js';

const GHP = 'ghp_Zr4TgH8kQ2wX7mN1pL5vB9cD3fJ6sA0eYuIo';
const report = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));

t.test('the fixture session: each secret replaced where it stands, unchanged lines byte for byte', async (t) => {
  const input = readFileSync(repo('fixtures/redact/session.jsonl'));
  const res = await runTool(redactTool, ['--report'], [input]);
  t.equal(res.status, 0);
  const inLines = input.toString().split('\n');
  const outLines = res.stdout.toString().split('\n');
  t.equal(outLines.length, inLines.length);
  t.match(outLines[0], /ANTHROPIC_API_KEY=\[REDACTED:anthropic-key\]"/);
  t.match(outLines[1], /postgres:\/\/shop:\[REDACTED:url-password\]@db\.internal/);
  // JSON text inside a tool result keeps its layout; the token is named by its own rule.
  t.equal(JSON.parse(outLines[2]).message.content[0].content, '{\n  "github_token": "[REDACTED:github]"\n}');
  t.equal(outLines[3], inLines[3], 'a line without secrets keeps its bytes');
  t.same(report(res.stderr).map((r) => [r.rule, r.n]), [['anthropic-key', 1], ['url-password', 2], ['github', 3]]);
  t.notOk(res.stderr.includes('Xq9fT2vLm8Rw') || res.stdout.includes('Xq9fT2vLm8Rw'), 'the secret is nowhere');
});

t.test('a record keeps its header and its line stays the last key', async (t) => {
  const rec = `{"harness":"claude-code","n":7,"src":"s.jsonl","kind":"prompt","line":{"type":"user","message":{"content":"use ${GHP} now"}}}\n`;
  const res = await runTool(redactTool, ['--report'], [rec]);
  const out = res.stdout.toString();
  t.match(out, /^\{"harness":"claude-code","n":7,"src":"s.jsonl","kind":"prompt","line":\{.*\}\}\n$/);
  t.match(out, /use \[REDACTED:github\] now/);
  t.same(report(res.stderr), [{ rule: 'github', n: 7, src: 's.jsonl', hash: report(res.stderr)[0].hash }], 'the report names the record n and src');
});

t.test('CRLF, a BOM and a missing final newline are kept', async (t) => {
  const res = await runTool(redactTool, [], [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`{"a":"x"}\r\n{"b":"${GHP}"}`)])]);
  t.same(res.stdout, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"x"}\r\n{"b":"[REDACTED:github]"}')]));
});

t.test('secrets in base64 that decodes to text are redacted and encoded again', async (t) => {
  const blob = Buffer.from(`GITHUB_TOKEN=${GHP}\n`).toString('base64');
  const res = await runTool(redactTool, [], [JSON.stringify({ data: blob }) + '\n']);
  const out = JSON.parse(res.stdout.toString()).data;
  t.equal(Buffer.from(out, 'base64').toString(), 'GITHUB_TOKEN=[REDACTED:github]\n');
});

t.test('a secret found inside JSON text is reported once', async (t) => {
  const inner = JSON.stringify({ url: 'postgres://u:Sup3rS3cretPw@h/db' });
  const res = await runTool(redactTool, ['--report'], [JSON.stringify({ out: JSON.stringify({ inner }) }) + '\n']);
  t.equal(report(res.stderr).length, 1);
});

t.test('--check writes nothing and exits 1 when something would be redacted, 0 when not', async (t) => {
  const dirty = await runTool(redactTool, ['--check'], [`{"a":"${GHP}"}\n`]);
  t.equal(dirty.status, 1);
  t.equal(dirty.stdout.length, 0);
  t.match(dirty.stderr, /1 secret to redact on 1 line/);
  const clean = await runTool(redactTool, ['--check'], ['{"a":"nothing"}\n']);
  t.equal(clean.status, 0);
});

t.test('--text reads JSON lines as text; a line that is not JSON is redacted as text with a note', async (t) => {
  const res = await runTool(redactTool, [], [`not json ${GHP} here\n`]);
  t.equal(res.stdout.toString(), 'not json [REDACTED:github] here\n');
  t.match(res.stderr, /stdin:1: not JSON, redacted as text/);
});

t.test('--home masks the user of a home path, and the name later on', async (t) => {
  const lines = ['{"cwd":"/Users/carol/app"}', '{"text":"carol@laptop ran it; carolina did not"}'].join('\n') + '\n';
  const res = await runTool(redactTool, ['--home'], [lines]);
  t.equal(res.stdout.toString(), '{"cwd":"/Users/[REDACTED:home]/app"}\n{"text":"[REDACTED:home]@laptop ran it; carolina did not"}\n');
  const escaped = await runTool(redactTool, ['--home'], ['{"cwd":"\\/home\\/dave\\/x"}\n']);
  t.equal(escaped.stdout.toString(), '{"cwd":"/home/[REDACTED:home]/x"}\n', "a path written with '\\/' is found too");
});

t.test('--rules adds rules; a bad rules file is a usage error naming the line', async (t) => {
  const res = await runTool(redactTool, ['--text', '--rules', repo('fixtures/redact/rules.ndjson')], ['order ord_0123456789abcdef01234567 ok\n']);
  t.equal(res.stdout.toString(), 'order [REDACTED:shop-order-token] ok\n');
  t.throws(() => parseRulesFile('{"id":"x","regex":"a*"}', 'r.ndjson'), /r\.ndjson:1: the regex matches the empty string/);
  t.throws(() => parseRulesFile('\n{"id":"x"}', 'r.ndjson'), /r\.ndjson:2: "regex"/);
  t.throws(() => parseRulesFile('{"id":"x","regex":"é+","keywords":["é"]}', 'r.ndjson'), /r\.ndjson:1: "keywords" must be ASCII/, 'keywords are found in a raw line as ASCII');
  const dir = mkdtempSync(join(tmpdir(), 'tx-redact-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'bad.ndjson'), '{"id":"x","regex":"("}\n');
  const bad = await runTool(redactTool, ['--rules', join(dir, 'bad.ndjson')], ['']);
  t.equal(bad.status, 2);
  t.match(bad.stderr, /bad\.ndjson:1: bad regex/);
});

t.test('odd input never crashes it: not UTF-8, deep nesting, empty lines', async (t) => {
  const deep = '['.repeat(20000) + `"${GHP}"` + ']'.repeat(20000);
  const res = await runTool(redactTool, [], [Buffer.from([0xff, 0xfe, 0x0a]), '\n', deep + '\n']);
  t.equal(res.status, 0);
  t.equal(res.stdout.toString('latin1').split('\n').length, 4);
  t.notMatch(res.stderr, /internal error/);
});

t.test('a --rules regex is JavaScript; a leading (?i), as gitleaks writes it, makes it case-insensitive', async (t) => {
  const [rule] = parseRulesFile('{"id":"x","regex":"(?i)secret-[0-9]{4}"}', 'r.ndjson');
  t.ok(rule.regex.test('SECRET-1234'));
  t.throws(() => parseRulesFile('{"id":"x","regex":"(?P<n>a)"}', 'r.ndjson'), /r\.ndjson:1: bad regex/, 'Go-only syntax is a usage error');
});

t.test('--list-rules names secretlint\'s rules and tx-redact\'s own', async (t) => {
  const res = await runTool(redactTool, ['--list-rules'], []);
  const ids = res.stdout.toString().trim().split('\n');
  for (const id of ['aws', 'github', 'slack', 'private-key', 'database', 'anthropic-key', 'url-password', 'gitlab', 'stripe', 'huggingface', 'google', 'pypi', 'twilio', 'azure', 'telegram', 'discord', 'datadog', 'url-query-secret', 'authorization', 'secret-assignment']) t.ok(ids.includes(id), id);
  t.notOk(ids.includes('filter-comments'), 'the preset\'s comment filter is not a rule that finds secrets');
});

t.test('a docker-compose template is no password: its ${VAR:-default} references stay whole', async (t) => {
  // The shape of a compose file read in a session: defaults in every URL, repeated.
  const compose = ['services:', '  api:', '    environment:', '      DATABASE_URL: postgresql://${POSTGRES_USER:-postgres}:${POSTGRES_PASSWORD:-postgres}@db:5432/${POSTGRES_DB:-app}', '      REDIS_URL: redis://:${REDIS_PASSWORD:-}@cache:6379', '  db:', '    environment:', '      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-postgres}'].join('\n');
  const line = JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: compose }] } });
  const res = await runTool(redactTool, ['--report'], [`${line}\n`.repeat(30)]);
  t.same(report(res.stderr), [], 'nothing reported');
  t.equal(res.stdout.toString(), `${line}\n`.repeat(30), 'every line kept byte for byte');
  const real = await runTool(redactTool, ['--text'], ['postgresql://${POSTGRES_USER:-postgres}:S3cr3tPassw0rd@db:5432/app\n']);
  t.equal(real.stdout.toString(), 'postgresql://${POSTGRES_USER:-postgres}:[REDACTED:url-password]@db:5432/app\n', 'a real password after a templated user: the password alone');
});

t.test('member names: a secret as a name is redacted, a name that says secret has its value redacted', async (t) => {
  const glpat = 'glpat-Zr4TgH8kQ2wX7mN1pL5v';
  const line = `{"grants":{"${glpat}":{"role":"admin"},"__proto__":"kept","other":1},"env":{"API_KEY":"k7Hq2mZ9vB4nR8tY3pL6","MODE":"prod","Authorization":"Bearer k7Hq2mZ9vB4nR8tY3pL6wX"}}`;
  const res = await runTool(redactTool, ['--report'], [line + '\n']);
  const out = res.stdout.toString();
  t.notOk(out.includes(glpat) || out.includes('k7Hq2mZ9vB4nR8tY3pL6'), 'no secret left');
  t.equal(out, '{"grants":{"[REDACTED:gitlab]":{"role":"admin"},"__proto__":"kept","other":1},"env":{"API_KEY":"[REDACTED:secret-assignment]","MODE":"prod","Authorization":"Bearer [REDACTED:authorization]"}}\n', 'names in order, __proto__ a member still');
  t.same(report(res.stderr).map((r) => r.rule).sort(), ['authorization', 'gitlab', 'secret-assignment']);
  const two = await runTool(redactTool, [], [JSON.stringify({ a: { [glpat]: 1, 'glpat-Qq4TgH8kQ2wX7mN1pL5v': 2 } }) + '\n']);
  t.equal(two.stdout.toString(), '{"a":{"[REDACTED:gitlab]":1,"[REDACTED:gitlab] 2":2}}\n', 'two names redacted alike both stay');
});

t.test("a keyword with a quote is found however deep the JSON text escapes it", async (t) => {
  const pair = '"access_token": "k7Hq2mZ9vB4nR8tY3pL6wX1c"';
  let content = `{${pair}}`;
  for (let depth = 0; depth < 3; depth++) {
    const res = await runTool(redactTool, [], [JSON.stringify({ type: 'user', message: { content } }) + '\n']);
    t.notOk(res.stdout.toString().includes('k7Hq2mZ9vB4nR8tY3pL6wX1c'), `redacted at depth ${depth + 1}`);
    content = JSON.stringify({ result: content });
  }
});
