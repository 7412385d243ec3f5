// File changes as unified diffs: an Edit's snippet, a Write from nothing, a change too
// large to search (shown whole), and apply_patch's own text.
import t from 'tap';
import type { ToolUseBlock } from '../../lib/common.js';
import { callDiff, unifiedDiff } from '../../lib/render/diff.js';

const use = (name: string, input: Record<string, unknown>, tool?: ToolUseBlock['tool']): ToolUseBlock => ({ type: 'tool_use', id: 'c', name, input, ...(tool ? { tool } : {}) });

t.test('an Edit: the snippet before and after, without a no-newline note', async (t) => {
  const d = callDiff(use('Edit', {}, { kind: 'edit', file_path: 'a.txt', old_string: 'one\ntwo', new_string: 'one\n2' }));
  t.equal(d, '--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n');
});

t.test('a Write: every line added', async (t) => {
  t.equal(callDiff(use('Write', {}, { kind: 'write', file_path: 'n.txt', content: 'a\nb\n' })), '--- n.txt\n+++ n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n');
});

t.test('a MultiEdit: one diff per edit', async (t) => {
  const d = callDiff(use('MultiEdit', {}, { kind: 'multi_edit', file_path: 'm', edits: [{ old_string: 'x', new_string: 'y' }, { old_string: 'p', new_string: 'q' }] }))!;
  t.equal((d.match(/^@@/gm) ?? []).length, 2);
});

t.test('a change past the edit-length limit is shown whole, quickly', async (t) => {
  const before = Array.from({ length: 6000 }, (_, i) => `old ${i}`).join('\n');
  const after = Array.from({ length: 6000 }, (_, i) => `new ${i}`).join('\n');
  const d = unifiedDiff('big', before, after);
  t.match(d, /^--- big\n\+\+\+ big\n@@ -1,6000 \+1,6000 @@\n-old 0\n/);
  t.equal((d.match(/^\+new /gm) ?? []).length, 6000);
});

t.test("apply_patch: the patch is the call's own text", async (t) => {
  const patch = '*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n';
  t.equal(callDiff(use('apply_patch', { input: patch })), patch);
  t.equal(callDiff(use('shell', { command: ['apply_patch', patch] })), null, 'other tools are not diffs');
});
