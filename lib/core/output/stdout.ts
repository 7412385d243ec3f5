// Where a tool's output goes: descriptor 1 written with blocking writes where that
// keeps a pipeline's stages overlapping, node's stream on a terminal, a worker's Copier.
import { fstatSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { isatty } from 'node:tty';
import type { Proc } from '../tool.js';
import type { Copier, Descriptor } from './output.js';

/** A stream with a listener for 'error': a write to a closed pipe can surface as one after the tool is done. */
function quiet(stream: Writable): Writable {
  if (stream.listenerCount('error') === 0) stream.on('error', () => {});
  return stream;
}

/**
 * Where a tool's output goes: the process's descriptor 1, written with blocking writes,
 * unless it is a terminal (see Descriptor in output.ts): a pipe or a socket so that the
 * stages of a pipeline overlap, a file or /dev/null so that each piece is filled again
 * once written (node writes those synchronously too); a pipe is made larger at the first
 * full piece (pipe-size.ts). The stream is not made until it is needed, as making it
 * makes a pipe non-blocking. On a worker, the worker's Copier.
 */
export function stdoutTarget(proc: Proc): Writable | Descriptor | Copier {
  if (proc !== (process as unknown)) return proc.copier ?? proc.stdout;
  try {
    const stat = fstatSync(1);
    if (stat.isFIFO() || stat.isSocket() || stat.isFile() || (stat.isCharacterDevice() && !isatty(1))) return { fd: 1, stream: () => quiet(proc.stdout), pipe: stat.isFIFO() };
  } catch {
    // No descriptor 1 to look at: node's stream says what is wrong when written.
  }
  return quiet(proc.stdout);
}

