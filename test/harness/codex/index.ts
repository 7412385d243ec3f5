/**
 * The real Codex client harness, for conformance tests (compiled to build/test/harness/codex/).
 *
 * - `startMockResponses(script?)` → `MockResponsesApi` {port, url, requests, responsesRequests(route?), close()}:
 *   a scripted Responses API on 127.0.0.1 (`POST /v1/responses`, SSE). `script.main` holds the
 *   responses of the conversation in order, `script.compact` those of compaction summary
 *   requests (the only requests without tools); anything unscripted answers "OK.".
 * - `runCodex({args, home, cwd?, env?, timeoutMs?})`: the pinned CLI (installed into .cache/codex/
 *   on first use) under `env -i`, CODEX_HOME = HOME/.codex; `writeCodexConfig(codexHome, url)`
 *   writes the offline config.toml first.
 * - `resumeRollout(file, {prompt?})` → {found: true, input, request, id} | {found: false, output, id}:
 *   install the rollout into a fresh scratch CODEX_HOME under a proper `rollout-<ts>-<uuid>.jsonl`
 *   name, run `codex exec resume ID ping`, return the `input` of the first request.
 * - `recordedCodexRollouts()` → [{scenario, file}]: every rollout under fixtures/recorded-codex/.
 * - `startAppServer(home, cwd)` → {request(method, params), close()}: the CLI's app server, what its
 *   interactive UI lists (`thread/list`) and reads (`thread/read`) sessions through.
 */
import path from 'node:path';
import { jsonlFiles } from '../fixtures.js';
import { repoRoot } from '../pinned.js';

export { startMockResponses, classifyResponsesRequest } from './mock-responses.js';
export type { MockResponsesApi, ResponsesScript, ResponseTurn, OutputItem, InputItem, ResponsesRequest } from './mock-responses.js';
export { runCodex, codexBinary, codexInstalled, codexEnv, writeCodexConfig, CODEX_VERSION, EXEC_FLAGS } from './cli.js';
export { resumeRollout, rolloutId, rolloutName } from './oracle.js';
export { startAppServer } from './app-server.js';
export type { AppServer } from './app-server.js';
export type { CodexResumeResult } from './oracle.js';

/** The folder holding the recorded rollouts. */
export function recordedCodexRoot(): string {
  return path.join(repoRoot(), 'fixtures', 'recorded-codex');
}

/** Every recorded rollout, sorted by path, with its scenario folder. */
export function recordedCodexRollouts(): { scenario: string; file: string }[] {
  const root = recordedCodexRoot();
  return jsonlFiles(root).map((file) => ({ scenario: path.relative(root, file).split(path.sep)[0]!, file }));
}
