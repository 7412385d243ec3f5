// A store counted on two machines and merged: GNU parallel runs tx-stats on shards of
// the files over two ssh logins (an sshd on the loopback, started here with a key made
// here), and `tx-stats --merge` of what they wrote equals one run over every file,
// byte for byte. Skips, saying why, without sshd, ssh or GNU parallel.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { repo, runBin } from '../helpers.js';
import { usageFiles } from './events.js';

const SSHD = '/usr/sbin/sshd';
const has = (cmd: string, arg: string) => !spawnSync(cmd, [arg], { encoding: 'utf8' }).error;
const skip = !existsSync(SSHD)
  ? `no ${SSHD} (apt-get install openssh-server; .ci/run installs it)`
  : !has('ssh', '-V') || !has('ssh-keygen', '--help')
    ? 'no ssh client'
    : !has('parallel', '--version')
      ? 'GNU parallel is not installed (apt-get install parallel; .ci/run installs it)'
      : false;
if (skip) t.comment(`ssh test skipped: ${skip}`);

/** A free port on the loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Start sshd on the loopback with a host key and a client key made in `dir`; resolves once it answers. */
async function startSshd(dir: string): Promise<{ sshd: ChildProcess; ssh: string }> {
  for (const name of ['host', 'client']) spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'tx-stats-test', '-f', join(dir, name)]);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client.pub')));
  const port = await freePort();
  const user = process.env.USER ?? spawnSync('id', ['-un'], { encoding: 'utf8' }).stdout.trim();
  writeFileSync(
    join(dir, 'sshd_config'),
    [`Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${join(dir, 'host')}`, `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`, 'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'PubkeyAuthentication yes', 'PermitRootLogin prohibit-password', 'StrictModes no', 'UsePAM no', `PidFile ${join(dir, 'sshd.pid')}`, `AllowUsers ${user}`, 'LogLevel ERROR'].join('\n') + '\n',
  );
  // sshd wants its privilege separation directory; the distribution makes it at boot.
  mkdirSync('/run/sshd', { recursive: true });
  const sshd = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  sshd.stderr!.on('data', (d) => (err += d));
  const ssh = `ssh -i ${join(dir, 'client')} -p ${port} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes`;
  for (let i = 0; i < 50; i++) {
    const r = spawnSync('sh', ['-c', `${ssh} ${user}@127.0.0.1 true`], { encoding: 'utf8' });
    if (r.status === 0) return { sshd, ssh };
    if (sshd.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  sshd.kill();
  throw new Error(`sshd did not answer: ${err}`);
}

t.test('tx-stats over two ssh logins, merged: the bytes of one run', { skip }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'txcript-ssh-'));
  const { sshd, ssh } = await startSshd(dir);
  t.teardown(() => {
    sshd.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  const user = process.env.USER ?? spawnSync('id', ['-un'], { encoding: 'utf8' }).stdout.trim();
  const files = usageFiles();
  // Shards of files in order, as a team would give each machine a part of its store
  // (parallel -k writes their outputs in shard order, so summaries come out in file order).
  const shards: string[] = [];
  const per = Math.ceil(files.length / 4);
  for (let i = 0; i < 4; i++) {
    const shard = join(dir, `shard-${i}`);
    writeFileSync(shard, files.slice(i * per, (i + 1) * per).join('\n') + '\n');
    shards.push(shard);
  }
  const stats = `${process.execPath} ${repo('build', 'bin', 'tx-stats.js')}`;
  for (const by of [null, 'day', 'session', 'block']) {
    const mapArgs = by === null ? '' : `--by ${by === 'block' ? 'hour' : by}`;
    const joblog = join(dir, `joblog-${by}`);
    const r = spawnSync('parallel', ['--will-cite', '-k', '--joblog', joblog, '--ssh', ssh, '-S', `1/${user}@127.0.0.1,1/127.0.0.1`, `xargs -a {} ${stats} --jobs 1 --tz UTC ${mapArgs}`, ':::', ...shards], { encoding: 'buffer', maxBuffer: 1 << 28 });
    t.equal(r.status, 0, 'parallel exits 0');
    const hosts = new Set(readFileSync(joblog, 'utf8').split('\n').slice(1).filter(Boolean).map((l) => l.split('\t')[1]));
    t.equal(hosts.size, 2, `both logins ran shards (${[...hosts].join(', ')})`);
    const merged = await runBin('tx-stats', ['--merge', '--tz', 'UTC', ...(by === 'block' ? ['--by', 'block'] : [])], r.stdout);
    const whole = await runBin('tx-stats', ['--jobs', '1', '--tz', 'UTC', ...(by === null ? [] : ['--by', by]), ...files]);
    t.equal(merged.status, 0);
    t.ok(whole.stdout.length > 1000, `${by ?? 'summaries'}: ${whole.stdout.length} bytes`);
    t.ok(merged.stdout.equals(whole.stdout), `${by === null ? 'summaries' : `--by ${by}`}: merged from two logins, byte for byte the one-machine run`);
  }
});
