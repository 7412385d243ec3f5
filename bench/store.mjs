// A generated session store: one generated corpus split at line boundaries into
// sessions of about mb/sessions each, 100 per project directory (bench/ls.mjs and
// the store row of bench/run.mjs).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Write the store under `store`; resolves to the number of sessions made. */
export async function buildStore({ store, sessions, mb, seed, gen }) {
  // Under the mean: the corpus's 1-3 MB lines make some sessions large, and every session should fill.
  const per = Math.floor((0.7 * mb * 1e6) / sessions);
  const child = spawn(process.execPath, [gen, '--mb', String(mb), '--seed', String(seed)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let index = 0;
  let written = 0;
  let out = null;
  let pending = Buffer.alloc(0);
  const open = () => {
    const dir = join(store, `-home-dev-project-${String(Math.floor(index / 100)).padStart(3, '0')}`);
    if (index % 100 === 0) mkdirSync(dir, { recursive: true });
    const id = `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
    out = createWriteStream(join(dir, `${id}.jsonl`));
    written = 0;
    index++;
  };
  const close = () => new Promise((resolve) => out.end(resolve));
  open();
  for await (const chunk of child.stdout) {
    const buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(10, start);
      if (nl < 0) break;
      const piece = buf.subarray(start, nl + 1);
      if (!out.write(piece)) await new Promise((r) => out.once('drain', r));
      written += piece.length;
      start = nl + 1;
      if (written >= per && index < sessions) {
        await close();
        open();
      }
    }
    pending = Buffer.from(buf.subarray(start));
  }
  if (pending.length) out.write(pending);
  await close();
  return index;
}
