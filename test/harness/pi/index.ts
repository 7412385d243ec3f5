/**
 * The real pi client harness, for conformance tests (compiled to build/test/harness/pi/).
 *
 * - `runPi({args, home, cwd?, env?, timeoutMs?})`: the pinned client (installed into .cache/pi/
 *   on first use) under `env -i` with a scratch HOME; `writePiConfig(home, url, opts?)` writes
 *   the agent directory's models.json (a provider `mock` speaking the Anthropic Messages API at
 *   the mock's url) and settings.json first. `MODEL_FLAGS` picks the mock's model.
 * - `startPiRpc({args, home, cwd})`: the client in RPC mode, for aborts, compactions, shell
 *   commands and extension commands.
 * - `classifyPiRequest(body)`: routing for startMockApi: summaries pi asks for go to `compact`.
 * - `resumeSession(file, {prompt?})` → {found: true, messages, request} | {found: false, output}:
 *   copy the file into a fresh scratch store, run `pi -p --session FILE ping`, return the
 *   `messages` of the first conversation request.
 * - `resumeInstalled({home, cwd, id})`: `pi -p --session ID ping` in `cwd` against a store
 *   under `home` (a session tx-native --install put there), the same result.
 * - `recordedPiSessions()` → [{scenario, file}]: every session under fixtures/recorded-pi/;
 *   `piSessions()`: those, the hand-written files of fixtures/pi and the public sessions of
 *   fixtures/public-pi.
 */
import path from 'node:path';
import { jsonlFiles } from '../fixtures.js';
import { repoRoot } from '../pinned.js';

export { runPi, piEntry, piInstalled, piEnv, writePiConfig, classifyPiRequest, projectDirName, sessionsDir, MODEL_FLAGS, PI_VERSION, PI_PROVIDER, PI_MODEL } from './cli.js';
export type { PiConfigOptions, RunPiOptions } from './cli.js';
export { startPiRpc } from './rpc.js';
export type { PiRpc, RpcEvent } from './rpc.js';
export { resumeSession, resumeInstalled, headerCwd } from './oracle.js';
export type { PiResumeResult, PiResumeOptions } from './oracle.js';

/** The folder holding the recorded sessions. */
export function recordedPiRoot(): string {
  return path.join(repoRoot(), 'fixtures', 'recorded-pi');
}

/** Every recorded session file, sorted by path, with its scenario folder. */
export function recordedPiSessions(): { scenario: string; file: string }[] {
  const root = recordedPiRoot();
  return jsonlFiles(root).map((file) => ({ scenario: path.relative(root, file).split(path.sep)[0]!, file }));
}

/** Every pi session file the tests hold: recorded by the real client, hand-written, and public ones, each with where it comes from. */
export function piSessions(): { scenario: string; file: string }[] {
  const folder = (name: string) => jsonlFiles(path.join(repoRoot(), 'fixtures', name)).map((file) => ({ scenario: `fixtures/${name}`, file }));
  return [...recordedPiSessions(), ...folder('pi'), ...folder('public-pi')];
}
