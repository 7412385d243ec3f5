// File changes as unified diffs, made with the `diff` library. An Edit holds only the
// replaced snippet, so its hunks count lines of the snippet, not of the file.
import { createTwoFilesPatch } from 'diff';
import type { ToolUseBlock } from '../common.js';

/** Past this many changed lines the diff library stops searching and the change is shown whole (all old lines out, all new in). */
const MAX_EDIT_LENGTH = 1000;

/** A unified diff of one text becoming another, headed by the file's name. */
export function unifiedDiff(file: string, before: string, after: string): string {
  const patch = createTwoFilesPatch(file, file, before, after, undefined, undefined, { context: 3, maxEditLength: MAX_EDIT_LENGTH });
  // The library heads its patch with `Index:` and a rule, which say nothing here.
  if (patch !== undefined) return patch.slice(Math.max(0, patch.indexOf('--- ')));
  return wholeChange(file, before, after);
}

/** The change written as one hunk that removes every old line and adds every new one. */
function wholeChange(file: string, before: string, after: string): string {
  const lines = (s: string) => (s === '' ? [] : s.replace(/\n$/, '').split('\n'));
  const old = lines(before);
  const neu = lines(after);
  const out = [`--- ${file}`, `+++ ${file}`, `@@ -1,${old.length} +1,${neu.length} @@`];
  for (const l of old) out.push('-' + l);
  for (const l of neu) out.push('+' + l);
  return out.join('\n') + '\n';
}

/** The change a file-writing tool call makes, as a unified diff; null for other calls. */
export function callDiff(call: ToolUseBlock): string | null {
  const view = call.tool;
  // A snippet ends where it ends, not at a newline: one is added to both sides so the diff does not say "No newline at end of file".
  if (view?.kind === 'edit') return unifiedDiff(view.file_path, view.old_string + '\n', view.new_string + '\n');
  if (view?.kind === 'multi_edit') return view.edits.map((e) => unifiedDiff(view.file_path, e.old_string + '\n', e.new_string + '\n')).join('');
  if (view?.kind === 'write') return unifiedDiff(view.file_path, '', view.content);
  const patch = applyPatchText(call);
  return patch;
}

/** The patch text of an apply_patch call (Codex), whose input is the patch itself; null for other calls. */
export function applyPatchText(call: ToolUseBlock): string | null {
  if (call.name !== 'apply_patch') return null;
  for (const key of ['input', 'patch', 'command']) {
    const v = call.input[key];
    if (typeof v === 'string') return v;
    if (Array.isArray(v)) {
      const text = v.find((x) => typeof x === 'string' && x.includes('*** Begin Patch'));
      if (typeof text === 'string') return text;
    }
  }
  return null;
}
