// One named fixture per classification rule (fixtures/classify/NAME.jsonl): the
// expected kind of each is stated here, by hand, from the rules in tx-parse(1).
import { readFileSync, readdirSync } from 'node:fs';
import t from 'tap';
import { classifyLine } from '../../lib/records/classify.js';
import { repo } from '../helpers.js';

const expected: Record<string, string> = {
  'typed-prompt': 'prompt',
  'typed-prompt-blocks': 'prompt',
  'typed-prompt-with-image': 'prompt',
  'quoted-tags': 'prompt',
  'prompt-system-reminder': 'injected',
  'prompt-is-meta': 'injected',
  'task-notification': 'injected',
  continuation: 'injected',
  'compact-summary': 'injected',
  interrupted: 'injected',
  'sidechain-user': 'injected',
  caveat: 'injected',
  'command-user-line': 'command',
  'command-system-line': 'command',
  'bash-input': 'command',
  'command-output-user-line': 'command-output',
  'command-output-system-line': 'command-output',
  'bash-output': 'command-output',
  'tool-result': 'tool-result',
  'prompt-source-queued': 'queued-prompt',
  'queued-command-origin-human': 'queued-prompt',
  'queued-command-no-origin': 'queued-prompt',
  'queued-command-origin-task': 'attachment',
  'skill-listing-attachment': 'attachment',
  'compact-boundary': 'compact',
  'microcompact-boundary': 'compact',
  'hook-success': 'hook',
  'hook-non-blocking-error': 'hook',
  'stop-hook-summary': 'hook',
  'turn-duration': 'system',
  assistant: 'assistant',
  summary: 'summary',
  'custom-title': 'title',
  'agent-name': 'title',
  'ai-title': 'title',
  progress: 'progress',
  bookkeeping: 'meta',
  'unknown-type': 'other',
  'user-without-message': 'other',
  'codex-response-item': 'input',
  'codex-user-message-event': 'prompt',
  'codex-context-event': 'injected',
  'codex-injected': 'injected',
  'codex-user-shell-command': 'command',
  'codex-assistant': 'assistant',
  'codex-tool-result': 'tool-result',
  'codex-compaction': 'compact',
  'codex-bookkeeping': 'meta',
  'codex-event': 'progress',
  'codex-thread-name': 'title',
  'codex-system-event': 'system',
  'codex-unknown': 'other',
  'codex-bare-prompt': 'prompt',
  'codex-bare-header': 'meta',
};

const dir = repo('fixtures', 'classify');
const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));

t.test('every classify fixture has a stated expectation, and every expectation a fixture', async (t) => {
  t.same(files.map((f) => f.replace(/\.jsonl$/, '')).sort(), Object.keys(expected).sort());
});

for (const file of files) {
  const name = file.replace(/\.jsonl$/, '');
  t.test(`${name} is classified as ${expected[name]}`, async (t) => {
    const lines = readFileSync(`${dir}/${file}`, 'utf8').split('\n').filter(Boolean);
    t.ok(lines.length > 0);
    for (const line of lines) {
      const got = classifyLine(JSON.parse(line));
      t.equal(got.kind, expected[name], line.slice(0, 80));
      t.equal(got.harness, name.startsWith('codex') ? 'codex' : 'claude-code');
    }
  });
}
