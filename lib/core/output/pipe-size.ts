// A pipe holds 64 KB on Linux, so between two busy stages of a pipeline one of them
// waits, and is woken again, every 64 KB; on a machine whose idle cores are slow to
// wake that is much of a pipeline's time. Linux lets a process make a pipe hold more
// (fcntl F_SETPIPE_SZ, up to /proc/sys/fs/pipe-max-size, 1 MiB unless raised), but
// node has no fcntl: a one-line perl program, given the pipe as a descriptor of its own,
// does it (the size belongs to the pipe, not to the descriptor). It runs once per
// pipe, and only once a full pipe shows that much data is passing (a few ms); where
// there is no /usr/bin/perl, the system is not Linux, or the kernel refuses, the pipe
// stays as it was and nothing is said. TX_PIPE_SIZE sets the size in bytes (0: leave
// pipes alone).
// node:child_process is taken when a pipe is widened, not imported: loading it (eight
// of node's modules in all) would cost every start-up, most of which never widen a pipe.

/** fcntl's command to set a pipe's size (Linux). */
const F_SETPIPE_SZ = 1031;
const PERL = '/usr/bin/perl';

/** The size pipes are made to hold: TX_PIPE_SIZE bytes, else 1 MiB. */
export const PIPE_SIZE = pipeSize();

function pipeSize(): number {
  const v = process.env.TX_PIPE_SIZE;
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isSafeInteger(n) && n >= 0 ? n : 1024 * 1024;
}

/** The descriptors widened (or tried) already. */
const tried = new Set<number>();

/**
 * Make the pipe on descriptor `fd` (its reading end, or its writing end) hold PIPE_SIZE
 * bytes, or the most the kernel allows under it (a half, a quarter); once per
 * descriptor, quietly nothing where it cannot.
 */
export function widenPipe(fd: number, reading: boolean): void {
  if (tried.has(fd)) return;
  tried.add(fd);
  if (PIPE_SIZE === 0 || process.platform !== 'linux') return;
  const sizes = [PIPE_SIZE, PIPE_SIZE >> 1, PIPE_SIZE >> 2].join(',');
  // The pipe is the child's descriptor 3, opened in the direction it has here: libuv makes
  // a child's descriptors 0 to 2 blocking, which would change this process's too (the
  // flag belongs to the open file they share), under node's stream if it has one.
  const mode = reading ? '<&=' : '>&=';
  // Node before 20.16 has no getBuiltinModule: the pipe stays as it is there.
  const children = process.getBuiltinModule?.('node:child_process');
  // spawnSync reports a missing perl, or one that did not finish, in its result; it does not throw.
  children?.spawnSync(PERL, ['-e', `open(my $p, "${mode}", 3) or exit 1; for (${sizes}) { last if fcntl($p, ${F_SETPIPE_SZ}, $_) }`], {
    stdio: ['ignore', 'ignore', 'ignore', fd],
    // Nothing of the user's environment (PERL5OPT, PERL5LIB) reaches this one line.
    env: {},
    timeout: 2000,
  });
}
