// The files a tool reads, from the names it was given: a directory stands for its
// `*.jsonl` files in name order (not its subdirectories), so `tx-parse DIR` reads a
// project folder of a store; anything there that is not a regular file is named and
// skipped (a FIFO would hang, a device never end). A name given that is not a
// directory is read as given, so `tx-parse <(zcat s.jsonl.gz)` works.
import { readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { fileKind } from './regular-file.js';

/** The names to read, in order, and what could not be used, as messages. */
export interface InputFiles {
  files: string[];
  problems: string[];
  /** Directories that held no `*.jsonl` file. */
  empty: string[];
}

/**
 * Expand the names given to a tool: a directory becomes its `*.jsonl` regular files,
 * sorted by name; every other name stays as it is (opening it reports any problem).
 */
export function inputFiles(names: string[]): InputFiles {
  const out: InputFiles = { files: [], problems: [], empty: [] };
  for (const name of names) {
    let st: Stats;
    try {
      if (name === '-') throw new Error('stdin');
      st = statSync(name);
    } catch {
      out.files.push(name);
      continue;
    }
    if (st.isDirectory()) expandDirectory(name, out);
    else out.files.push(name);
  }
  return out;
}

function expandDirectory(dir: string, out: InputFiles): void {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch (err) {
    out.problems.push(`${dir}: cannot read: ${(err as Error).message}`);
    return;
  }
  // Name order by code points, the same whatever the locale.
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let found = 0;
  for (const n of names) {
    const file = join(dir, n);
    let st: Stats;
    try {
      st = statSync(file);
    } catch (err) {
      out.problems.push(`${file}: cannot read: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
      continue;
    }
    if (st.isFile()) {
      out.files.push(file);
      found++;
    } else if (!st.isDirectory()) out.problems.push(`${file}: cannot read: ${fileKind(st)}, not a regular file`);
  }
  if (found === 0) out.empty.push(dir);
}
