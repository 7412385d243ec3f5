/**
 * The real OpenCode client harness, for conformance tests (compiled to build/test/harness/opencode/).
 *
 * - `startOpencodeMock(script?, subagentPrompts?)` → the Messages API mock (../mock-api.ts) with
 *   OpenCode's routing: title requests, compaction summaries, subagents, the main conversation.
 * - `runOpencode({args, home, cwd?, env?, timeoutMs?})`: the pinned client (installed into
 *   .cache/opencode/ on first use) under `env -i`, every XDG folder inside the scratch HOME;
 *   `writeOpencodeHome(home, url)` writes its offline config first.
 * - `startOpencodeServer(home, cwd)`: the client's headless server, for aborts and compactions asked for.
 * - `resumeExport(file, {via?, prompt?})` → {found: true, messages, request, id} | {found: false, output, id}:
 *   load an export document into a fresh scratch store (`opencode import`, or txcript's own SQL
 *   transaction), run `opencode run --session ID ping`, return the first main request's messages.
 * - `scratchStore()`: a scratch HOME and cwd for running the client's store commands (import,
 *   export, db) without a model.
 * - `recordedOpencodeExports()` → [{scenario, file}]: every export document under fixtures/recorded-opencode/.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, type IsolatedResult } from '../pinned.js';
import { exportFiles } from './census.js';
import { opencodeDirs, runOpencode, writeOpencodeHome, type OpencodeDirs } from './cli.js';

export { startOpencodeMock, classifyOpencodeRequest } from './mock.js';
export { runOpencode, opencodeBinary, opencodeInstalled, opencodeEnv, opencodeDirs, writeOpencodeHome, promptArgs, OPENCODE_VERSION } from './cli.js';
export { startOpencodeServer } from './server.js';
export { resumeExport, exportSessionId } from './oracle.js';
export type { OpencodeResumeResult, LoadVia } from './oracle.js';

/** The folder holding the recorded sessions. */
export function recordedOpencodeRoot(): string {
  return path.join(repoRoot(), 'fixtures', 'recorded-opencode');
}

/** Every recorded export document, sorted, with its scenario folder. */
export function recordedOpencodeExports(): { scenario: string; file: string }[] {
  const root = recordedOpencodeRoot();
  if (!existsSync(root)) return [];
  const out: { scenario: string; file: string }[] = [];
  for (const scenario of readdirSync(root).sort()) {
    if (!statSync(path.join(root, scenario)).isDirectory()) continue;
    for (const file of exportFiles(path.join(root, scenario))) out.push({ scenario, file });
  }
  return out;
}

/** A scratch store for the client's store commands. */
export interface ScratchStore extends OpencodeDirs {
  cwd: string;
  /** Run the client in the scratch store (no model is reached: the config points at a closed port). */
  run(args: string[]): Promise<IsolatedResult>;
  dispose(): void;
}

/** Make a scratch HOME and cwd with the offline config. */
export function scratchStore(): ScratchStore {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'txcript-opencode-store-'));
  const home = path.join(scratch, 'home');
  const cwd = path.join(scratch, 'work');
  mkdirSync(cwd, { recursive: true });
  writeOpencodeHome(home, 'http://127.0.0.1:9');
  return {
    ...opencodeDirs(home),
    cwd,
    run: (args) => runOpencode({ args, home, cwd }),
    dispose: () => rmSync(scratch, { recursive: true, force: true }),
  };
}
