// A pipe a tool writes or reads a lot through is made to hold 1 MiB (or TX_PIPE_SIZE
// bytes) instead of 64 KB, so the stages of a pipeline wait on each other, and are
// woken, sixteen times less often (lib/core/output/pipe-size.ts). The other end of each pipe
// here is a perl program that asks the kernel the pipe's size (fcntl F_GETPIPE_SZ) once
// the tool has shown it much data passing; the bytes must be those of a file.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { repo, unevenSession } from '../helpers.js';

/** The size a pipe asked to hold `size` bytes gets: root is not held to pipe-max-size, others get a half or a quarter under it (pipe-size.ts). */
function granted(size: number): number {
  let max = Infinity;
  try {
    max = Number(readFileSync('/proc/sys/fs/pipe-max-size', 'utf8'));
  } catch {
    // No such file: no limit to meet.
  }
  if (process.getuid?.() === 0) return size;
  return [size, size >> 1, size >> 2].find((s) => s <= max) ?? 64 * 1024;
}

const skip = process.platform !== 'linux' ? 'pipes are made larger on Linux only' : !existsSync('/usr/bin/perl') ? 'no /usr/bin/perl, which makes pipes larger' : false;

const scratch = mkdtempSync(join(tmpdir(), 'tx-pipe-size-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

// About 3 MB of session lines.
const lines = unevenSession(5, 3_000_000, 20_000, 'z', 'ß');
const file = join(scratch, 's.jsonl');
writeFileSync(file, lines.join('\n') + '\n');
const small = join(scratch, 'small.jsonl');
writeFileSync(small, lines[0] + '\n');

const bin = (name: string) => repo('build', 'bin', `${name}.js`);
// As a user runs them: tap's preload installs signal handlers, which send a tool to node's streams.
const sh = (script: string, env: Record<string, string> = {}) =>
  execFileSync('bash', ['-c', `unset NODE_OPTIONS; ${script}`], { maxBuffer: 1 << 28, env: { ...process.env, ...env } });
// What tx-parse writes to a file, which is never made larger.
sh(`node "${bin('tx-parse')}" "${file}" > "${join(scratch, 'records')}"`);
const expected = readFileSync(join(scratch, 'records'));
const sizeFile = join(scratch, 'size');
const pipeSize = () => Number(readFileSync(sizeFile, 'utf8'));

/** A reader that takes 300,000 bytes, writes the size of its pipe to sizeFile, then copies everything to stdout. */
const reader = `perl -e 'my $n = 0; while ($n < 300000) { my $r = sysread(STDIN, my $b, 300000 - $n); last unless $r; $n += $r; $got .= $b } open(my $f, ">", "${sizeFile}"); print $f fcntl(STDIN, 1032, 0); close $f; print $got; print while <STDIN>'`;

t.test('tx-parse writing a lot into a pipe makes it hold 1 MiB, and the bytes are those it writes to a file', { skip }, async (t) => {
  const out = sh(`node "${bin('tx-parse')}" "${file}" | ${reader}`);
  t.equal(pipeSize(), granted(1024 * 1024), 'the pipe holds 1 MiB (or what the kernel allows under it)');
  t.ok(out.equals(expected), 'the same bytes');
});

t.test('TX_PIPE_SIZE sets the size, and 0 leaves the pipe at 64 KB', { skip }, async (t) => {
  sh(`node "${bin('tx-parse')}" "${file}" | ${reader} > /dev/null`, { TX_PIPE_SIZE: '262144' });
  t.equal(pipeSize(), granted(262144), 'TX_PIPE_SIZE=262144');
  const out = sh(`node "${bin('tx-parse')}" "${file}" | ${reader}`, { TX_PIPE_SIZE: '0' });
  t.equal(pipeSize(), 64 * 1024, 'TX_PIPE_SIZE=0: the kernel default');
  t.ok(out.equals(expected), 'the same bytes');
});

t.test('a small output leaves the pipe as it is (nothing is run for it)', { skip }, async (t) => {
  sh(`node "${bin('tx-parse')}" "${small}" | perl -e '1 while <STDIN>; open(my $f, ">", "${sizeFile}"); print $f fcntl(STDIN, 1032, 0)'`);
  t.equal(pipeSize(), 64 * 1024, 'under one 64 KB piece: the pipe keeps its size');
});

t.test('tx-parse reading a full pipe on stdin makes it hold 1 MiB, and reads every byte', { skip }, async (t) => {
  // The writer puts the whole file into the pipe in one call, then says the pipe's size once it is all in.
  const writer = `perl -e 'open(my $in, "<", "${file}"); local $/; my $all = <$in>; my $n = 0; while ($n < length $all) { $n += syswrite(STDOUT, $all, length($all) - $n, $n) } open(my $f, ">", "${sizeFile}"); print $f fcntl(STDOUT, 1032, 0)'`;
  const fromFile = sh(`node "${bin('tx-parse')}" < "${file}"`);
  const kept = sh(`${writer} | node "${bin('tx-parse')}"`, { TX_PIPE_SIZE: '0' });
  t.equal(pipeSize(), 64 * 1024, 'TX_PIPE_SIZE=0: the writer saw 64 KB to the end');
  t.ok(kept.equals(fromFile), 'the records of the file');
  const widened = sh(`${writer} | node "${bin('tx-parse')}"`);
  t.equal(pipeSize(), granted(1024 * 1024), 'the writer saw the pipe grow to 1 MiB (or what the kernel allows under it)');
  t.ok(widened.equals(fromFile), 'the records of the file, through the larger pipe');
});
