/**
 * Every recorded fixture survives tx-parse | tx-native byte for byte, and
 * tx-parse gives every line of them a known kind (none is "other").
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { recordedFixtures, repoRoot } from '../harness/index.js';

const root = repoRoot();
const parse = path.join(root, 'build', 'bin', 'tx-parse.js');
const native = path.join(root, 'build', 'bin', 'tx-native.js');
const bins = existsSync(parse) && existsSync(native);
const skip = bins ? false : 'build/bin/tx-parse.js or build/bin/tx-native.js is missing (build first)';

/** Run `node tx-parse.js FILE | node tx-native.js`, returning both stages' outputs. */
function pipeline(file: string): Promise<{ records: Buffer; native: Buffer; parseCode: number | null; nativeCode: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [parse, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    const n = spawn(process.execPath, [native], { stdio: ['pipe', 'pipe', 'pipe'] });
    const rec: Buffer[] = [];
    const out: Buffer[] = [];
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => {
      rec.push(c);
      n.stdin.write(c);
    });
    p.stdout.on('end', () => n.stdin.end());
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    n.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    n.stdout.on('data', (c: Buffer) => out.push(c));
    let parseCode: number | null = null;
    p.on('close', (code) => (parseCode = code));
    p.on('error', reject);
    n.on('error', reject);
    n.on('close', (nativeCode) => {
      const finish = () => resolve({ records: Buffer.concat(rec), native: Buffer.concat(out), parseCode, nativeCode, stderr });
      if (p.exitCode !== null) finish();
      else p.on('close', finish);
    });
  });
}

const files = recordedFixtures();
t.ok(files.length > 0, 'fixtures/recorded holds recorded session files');

for (const f of files) {
  const rel = path.relative(path.join(root, 'fixtures', 'recorded'), f.file);
  t.test(`tx-parse | tx-native reproduces ${rel} byte for byte, and tx-parse classifies no line as "other"`, { skip }, async (t) => {
    const r = await pipeline(f.file);
    t.equal(r.parseCode, 0, 'tx-parse exits 0');
    t.equal(r.nativeCode, 0, 'tx-native exits 0');
    t.equal(r.stderr, '', 'nothing on stderr');
    const original = readFileSync(f.file);
    t.ok(r.native.equals(original), `output equals the file (${r.native.length} vs ${original.length} bytes)`);
    const others: string[] = [];
    for (const line of r.records.toString('utf8').split('\n')) {
      if (!line) continue;
      const rec = JSON.parse(line) as { n?: number; kind?: string; line?: { type?: string } };
      if (rec.kind === 'other' || rec.kind === 'invalid') others.push(`line ${rec.n}: kind ${rec.kind}, type ${String(rec.line?.type)}`);
    }
    t.same(others, [], 'no line is classified "other" or "invalid"');
  });
}
