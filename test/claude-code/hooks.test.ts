import t from 'tap';
import { hookEvidence, hookNamed } from '../../lib/claude-code/hooks.js';

const attachment = (a: object) => ({ type: 'attachment', attachment: a });

t.test('a failing hook is known by its attachment type or by a non-zero exit code', async (t) => {
  t.equal(hookEvidence(attachment({ type: 'hook_non_blocking_error', hookName: 'PostToolUse:Bash', exitCode: 1 }))!.failed, true);
  t.equal(hookEvidence(attachment({ type: 'hook_cancelled', hookName: 'Stop' }))!.failed, true);
  t.equal(hookEvidence(attachment({ type: 'hook_success', hookName: 'Stop', exitCode: '2' }))!.failed, true, 'exit code as a string');
  t.equal(hookEvidence(attachment({ type: 'hook_success', hookName: 'Stop', exitCode: 0 }))!.failed, false);
});

t.test('only hook_success and failures are runs; output attachments are not', async (t) => {
  t.equal(hookEvidence(attachment({ type: 'hook_success', hookName: 'Stop' }))!.run, true);
  t.equal(hookEvidence(attachment({ type: 'hook_system_message', hookName: 'Stop' }))!.run, false);
  t.equal(hookEvidence(attachment({ type: 'hook_additional_context', hookName: 'Stop' }))!.run, false);
});

t.test('the event comes from hookEvent, else from the hookName before the colon', async (t) => {
  t.equal(hookEvidence(attachment({ type: 'hook_success', hookName: 'SessionStart:startup' }))!.hookEvent, 'SessionStart');
  t.equal(hookEvidence({ type: 'progress', data: { type: 'hook_progress', hookName: 'PreToolUse:Read' } })!.hookEvent, 'PreToolUse');
  t.equal(hookEvidence({ type: 'progress', data: { type: 'bash_progress' } }), null, 'other progress is no hook');
  t.equal(hookEvidence(attachment({ type: 'queued_command' })), null);
});

t.test('--name matches the event, the whole hookName, or its part before the colon', async (t) => {
  const h = hookEvidence(attachment({ type: 'hook_success', hookName: 'PostToolUse:Bash', hookEvent: 'PostToolUse' }))!;
  t.ok(hookNamed(h, 'PostToolUse'));
  t.ok(hookNamed(h, 'PostToolUse:Bash'));
  t.notOk(hookNamed(h, 'Bash'));
  t.notOk(hookNamed(h, 'PreToolUse'));
});

t.test('a stop_hook_summary with errors is a failed Stop hook summary', async (t) => {
  const h = hookEvidence({ type: 'system', subtype: 'stop_hook_summary', hookInfos: [{ command: 'a', durationMs: 2 }, { command: 'b', durationMs: 3 }], hookErrors: ['boom'] })!;
  t.same([h.hookEvent, h.command, h.durationMs, h.failed, h.stderr], ['Stop', 'a\nb', 5, true, 'boom']);
});
