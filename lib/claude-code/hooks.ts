// Hook evidence in a Claude Code line, in one shape whatever wrote it: hook_*
// attachments (2.1.x), progress lines with data.type hook_progress (older 2.1.x,
// which wrote no outcome), and system stop_hook_summary lines.

/** Attachment types of a hook that did not succeed. */
export const FAILED_HOOK_TYPES = new Set(['hook_non_blocking_error', 'hook_blocking_error', 'hook_failure', 'hook_cancelled', 'hook_error_during_execution']);

/** One piece of hook evidence. */
export interface HookEvidence {
  /** The attachment type, `hook_progress`, or `stop_hook_summary`. */
  type: string;
  hookName: string | null;
  hookEvent: string | null;
  command: string | null;
  exitCode: number | null;
  durationMs: number | null;
  /** The hook failed: a failing attachment type, a non-zero exit code, or a summary with errors. */
  failed: boolean;
  /** A hook run with an outcome (success or failure), as opposed to its output or a progress notice. */
  run: boolean;
  stdout: string | null;
  stderr: string | null;
  content: unknown;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** The hook evidence a line carries, or null when it carries none. */
export function hookEvidence(line: any): HookEvidence | null {
  if (!line || typeof line !== 'object') return null;
  if (line.type === 'attachment') {
    const a = line.attachment;
    if (!a || typeof a.type !== 'string' || !a.type.startsWith('hook_')) return null;
    const exitCode = num(a.exitCode);
    const failed = FAILED_HOOK_TYPES.has(a.type) || (exitCode !== null && exitCode !== 0);
    const hookName = str(a.hookName);
    return {
      type: a.type,
      hookName,
      hookEvent: str(a.hookEvent) ?? (hookName ? hookName.split(':')[0] : null),
      command: str(a.command),
      exitCode,
      durationMs: num(a.durationMs),
      failed,
      run: failed || a.type === 'hook_success',
      stdout: str(a.stdout),
      stderr: str(a.stderr),
      content: a.content ?? null,
    };
  }
  if (line.type === 'progress' && line.data && line.data.type === 'hook_progress') {
    const d = line.data;
    const hookName = str(d.hookName);
    return {
      type: 'hook_progress',
      hookName,
      hookEvent: str(d.hookEvent) ?? (hookName ? hookName.split(':')[0] : null),
      command: str(d.command),
      exitCode: null,
      durationMs: null,
      failed: false,
      run: false,
      stdout: null,
      stderr: null,
      content: null,
    };
  }
  if (line.type === 'system' && line.subtype === 'stop_hook_summary') {
    const infos: any[] = Array.isArray(line.hookInfos) ? line.hookInfos : [];
    const errors: unknown[] = Array.isArray(line.hookErrors) ? line.hookErrors : [];
    const commands = infos.map((i) => (i && typeof i.command === 'string' ? i.command : null)).filter((c): c is string => c !== null);
    const durations = infos.map((i) => num(i?.durationMs)).filter((d): d is number => d !== null);
    return {
      type: 'stop_hook_summary',
      hookName: null,
      hookEvent: 'Stop',
      command: commands.length > 0 ? commands.join('\n') : null,
      exitCode: null,
      durationMs: durations.length > 0 ? durations.reduce((a, b) => a + b, 0) : null,
      failed: errors.length > 0,
      run: false,
      stdout: null,
      stderr: errors.length > 0 ? errors.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n') : null,
      content: str(line.stopReason) || null,
    };
  }
  return null;
}

/** True when `name` picks this hook: its event, its whole hookName, or the hookName's part before ':'. */
export function hookNamed(hook: HookEvidence, name: string): boolean {
  if (hook.hookEvent === name || hook.hookName === name) return true;
  return hook.hookName !== null && hook.hookName.split(':')[0] === name;
}
