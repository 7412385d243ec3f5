// Which messages the client resumes with (MessageV2.filterCompacted in packages/opencode/
// src/session/message-v2.ts). Walking back from the newest message, it stops at the
// user message of the last compaction whose summary completed; when that compaction kept
// a tail of recent turns (`tail_start_id`), it walks on to the tail's first message and
// then puts the tail after the summary: compaction request, summary, tail, what followed.

/** What the selection needs of one message. */
export interface MessageFacts {
  id: string;
  role: 'user' | 'assistant';
  /** A user message's compaction part: present when it has one. */
  compaction?: { tail_start_id?: string };
  /** An assistant message that is a compaction summary (summary true). */
  summary: boolean;
  /** An assistant message's finish reason, when it finished. */
  finished: boolean;
  errored: boolean;
  parentID?: string;
}

/** The indexes (into `messages`, oldest first) of the messages the client resumes with, in the order it sends them. */
export function activeIndexes(messages: readonly MessageFacts[]): number[] {
  const kept: number[] = [];
  const summarized = new Set<string>();
  let tailStart: string | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    kept.push(i);
    if (tailStart !== undefined) {
      if (m.id === tailStart) break;
      continue;
    }
    if (m.role === 'user' && summarized.has(m.id)) {
      if (!m.compaction) continue;
      if (!m.compaction.tail_start_id) break;
      tailStart = m.compaction.tail_start_id;
      if (m.id === tailStart) break;
      continue;
    }
    if (m.role === 'assistant' && m.summary && m.finished && !m.errored && m.parentID !== undefined) summarized.add(m.parentID);
  }
  kept.reverse();
  // The tail, when one was kept, goes after the summary.
  let w = -1;
  for (let k = kept.length - 1; k >= 0; k--) {
    const m = messages[kept[k]!]!;
    if (m.role === 'user' && m.compaction?.tail_start_id !== undefined) {
      w = k;
      break;
    }
  }
  if (w < 0) return kept;
  const compaction = messages[kept[w]!]!;
  const j = kept.findIndex((idx, k) => k > w && messages[idx]!.role === 'assistant' && messages[idx]!.summary && messages[idx]!.parentID === compaction.id);
  const v = kept.findIndex((idx) => messages[idx]!.id === compaction.compaction!.tail_start_id);
  if (v >= 0 && v < w && j > w) return [...kept.slice(w, j + 1), ...kept.slice(v, w), ...kept.slice(j + 1)];
  return kept;
}
