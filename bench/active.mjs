#!/usr/bin/env node
// tx-common --active on a long chain, beside tx-common without it and cat, in the same
// run. --active follows the parentUuid chain and reads the kept messages back from its
// spool; its cost should stay a small multiple of the plain conversion.
//
//   npm run build && node bench/active.mjs [--lines 400000] [--compactions 1] [--bin DIR]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import minimist from 'minimist';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = minimist(process.argv.slice(2), { string: ['bin'], default: { lines: 400_000, compactions: 1, bin: join(root, 'build', 'bin') } });
const out = join(root, 'bench', 'out');
mkdirSync(out, { recursive: true });

/** A session of `lines` lines on one chain: prompts and answers, with compactions spread evenly, each keeping its last few messages. */
function session(lines, compactions) {
  const parts = [];
  const every = Math.floor(lines / (compactions + 1));
  let parent = null;
  let kept = [];
  for (let i = 0; i < lines; i++) {
    const uuid = `u${i}`;
    const ts = '2026-03-01T10:00:00.000Z';
    if (compactions > 0 && i > 0 && i % every === 0 && i < lines - 2) {
      const anchor = `k${i}`;
      parts.push(JSON.stringify({ type: 'system', subtype: 'compact_boundary', sessionId: 'S', uuid, parentUuid: null, logicalParentUuid: parent, timestamp: ts, compactMetadata: { trigger: 'auto', preservedSegment: { headUuid: kept[0], anchorUuid: anchor, tailUuid: kept.at(-1) } } }));
      parts.push(JSON.stringify({ type: 'user', sessionId: 'S', uuid: anchor, parentUuid: uuid, isCompactSummary: true, timestamp: ts, message: { role: 'user', content: `summary ${i}` } }));
      parent = anchor;
      i++;
      continue;
    }
    if (i % 2 === 0) parts.push(JSON.stringify({ type: 'user', sessionId: 'S', uuid, parentUuid: parent, timestamp: ts, message: { role: 'user', content: `prompt ${i}` } }));
    else parts.push(JSON.stringify({ type: 'assistant', sessionId: 'S', uuid, parentUuid: parent, timestamp: ts, message: { id: `m${i}`, role: 'assistant', model: 'm', content: [{ type: 'text', text: `answer ${i}` }] } }));
    parent = uuid;
    kept = [...kept.slice(-3), uuid];
  }
  return parts.join('\n') + '\n';
}

const native = join(out, `active-${args.lines}-${args.compactions}.jsonl`);
const records = native.replace(/\.jsonl$/, '.records');
writeFileSync(native, session(args.lines, args.compactions));
execFileSync('bash', ['-c', `node "${join(args.bin, 'tx-parse.js')}" "${native}" > "${records}"`]);

function time(command) {
  const start = process.hrtime.bigint();
  const r = spawnSync('bash', ['-o', 'pipefail', '-c', `${command} > /dev/null`], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`failed: ${command}`);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const cat = time(`cat "${records}"`);
const plain = time(`node "${join(args.bin, 'tx-common.js')}" "${records}"`);
const active = time(`node "${join(args.bin, 'tx-common.js')}" --active "${records}"`);
const mb = statSync(records).size / 1e6;
console.log(`${args.lines} lines, ${args.compactions} compaction(s), ${mb.toFixed(1)} MB of records`);
console.log(`cat ${cat.toFixed(2)} s; tx-common ${plain.toFixed(2)} s; tx-common --active ${active.toFixed(2)} s (${(active / plain).toFixed(2)}x the plain conversion)`);
