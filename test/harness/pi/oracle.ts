/**
 * The real pi client as oracle: copy a session file into a fresh scratch store, run
 * `pi -p --session FILE PROMPT` against the mock, and return the `messages` of its first
 * conversation request: the conversation pi rebuilt from the file (buildSessionContext:
 * the path from the file's last entry up to the root, a compaction's summary first), as
 * its Anthropic provider sends it, followed by the new prompt. pi adds itself:
 * `cache_control` on the last block of the last user message (the new prompt, made a
 * block list), its system prompt and tools (not in `messages`).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMockApi, type MessagesRequest } from '../mock-api.js';
import { MODEL_FLAGS, classifyPiRequest, projectDirName, runPi, sessionsDir, writePiConfig } from './cli.js';

/** What the client made of a session file. */
export type PiResumeResult = { found: true; messages: Array<{ role: string; content: unknown }>; request: MessagesRequest } | { found: false; output: string };

/** Options for one resume. */
export interface PiResumeOptions {
  /** The prompt sent after resuming (default "ping"). */
  prompt?: string;
  timeoutMs?: number;
}

/** The `cwd` of a session file's header line, when it has one. */
export function headerCwd(text: string): string | null {
  const nl = text.indexOf('\n');
  try {
    const h = JSON.parse(nl < 0 ? text : text.slice(0, nl)) as { type?: unknown; cwd?: unknown };
    return h.type === 'session' && typeof h.cwd === 'string' && h.cwd !== '' ? h.cwd : null;
  } catch {
    return null;
  }
}

/** The file's bytes with the header's `cwd` made `cwd` (the rest of the file as it was). */
function withHeaderCwd(bytes: Buffer, cwd: string): Buffer {
  const nl = bytes.indexOf(0x0a);
  const header = JSON.parse(bytes.subarray(0, nl < 0 ? bytes.length : nl).toString('utf8')) as Record<string, unknown>;
  return Buffer.concat([Buffer.from(JSON.stringify({ ...header, cwd })), nl < 0 ? Buffer.alloc(0) : bytes.subarray(nl)]);
}

/**
 * Resume `file` with the real client and return what it sent first. pi refuses (in print
 * mode) a session whose stored working directory does not exist, so a cwd under /tmp is
 * made; a session of another machine (its cwd elsewhere: a public session) gets a scratch
 * working directory in its header, which the conversation does not hold. The file is
 * copied, never changed: pi appends the new turn to the copy.
 */
export async function resumeSession(file: string, opts: PiResumeOptions = {}): Promise<PiResumeResult> {
  let bytes: Buffer = readFileSync(file);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'txcript-pi-oracle-'));
  const home = path.join(scratch, 'home');
  let cwd = headerCwd(bytes.toString('utf8')) ?? path.join(scratch, 'work');
  if (!existsSync(cwd) && cwd.startsWith('/tmp/')) mkdirSync(cwd, { recursive: true });
  if (!existsSync(cwd)) {
    cwd = path.join(scratch, 'work');
    bytes = withHeaderCwd(bytes, cwd);
  }
  mkdirSync(cwd, { recursive: true });
  const dir = path.join(sessionsDir(home), projectDirName(cwd));
  mkdirSync(dir, { recursive: true });
  const copy = path.join(dir, path.basename(file));
  writeFileSync(copy, bytes);
  const mock = await startMockApi({ classify: classifyPiRequest });
  try {
    // A window no session fills: pi would otherwise compact a long one before it sends the prompt.
    writePiConfig(home, mock.url, { contextWindow: 10_000_000 });
    const r = await runPi({ args: [...MODEL_FLAGS, '-p', '--session', copy, opts.prompt ?? 'ping'], home, cwd, timeoutMs: opts.timeoutMs ?? 120_000 });
    const req = mock.messagesRequests('main')[0];
    if (!req || !req.body) return { found: false, output: `exit ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''}\n${r.stdout}${r.stderr}` };
    return { found: true, messages: (req.body.messages ?? []) as Array<{ role: string; content: unknown }>, request: req.body };
  } finally {
    await mock.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Where a session was installed: the scratch HOME whose agent directory holds it, the working directory it is resumed in, and its id. */
export interface InstalledSession {
  home: string;
  cwd: string;
  id: string;
}

/**
 * Resume a session tx-native --install put into the agent directory of a scratch HOME, as
 * a person would: `pi -p --session ID` in its working directory, which finds the id in
 * that directory's session folder. models.json is written afresh for the mock.
 */
export async function resumeInstalled(s: InstalledSession, opts: PiResumeOptions = {}): Promise<PiResumeResult> {
  const mock = await startMockApi({ classify: classifyPiRequest });
  try {
    writePiConfig(s.home, mock.url, { contextWindow: 10_000_000 });
    const r = await runPi({ args: [...MODEL_FLAGS, '-p', '--session', s.id, opts.prompt ?? 'ping'], home: s.home, cwd: s.cwd, timeoutMs: opts.timeoutMs ?? 120_000 });
    const req = mock.messagesRequests('main')[0];
    if (!req || !req.body) return { found: false, output: `exit ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''}\n${r.stdout}${r.stderr}` };
    return { found: true, messages: (req.body.messages ?? []) as Array<{ role: string; content: unknown }>, request: req.body };
  } finally {
    await mock.close();
  }
}
