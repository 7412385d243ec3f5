/**
 * The Anthropic Messages mock (../mock-api.ts) as OpenCode meets it. OpenCode's
 * anthropic provider sends three kinds of request: the session's title (system prompt
 * "You are a title generator", no tools), a compaction summary (system prompt of the
 * compaction agent, "You are a context summarization agent") and the main
 * conversation (with tools). The title answer is the title itself: the client stores
 * whatever text comes back.
 */
import { firstUserText, startMockApi, systemText, type MessagesRequest, type MockApi, type MockScript, type RequestRoute, type ScriptTurn } from '../mock-api.js';

/** Route a request OpenCode 1.18 sent; a subagent's conversation opens with the prompt of the task call that started it. */
export function classifyOpencodeRequest(body: MessagesRequest, subagentPrompts: readonly string[] = []): RequestRoute {
  const sys = systemText(body.system);
  if (sys.includes('You are a title generator')) return 'title';
  if (sys.includes('You are a context summarization agent')) return 'compact';
  const first = firstUserText(body);
  if (subagentPrompts.some((p) => first.includes(p))) return 'subagent';
  return (body.tools ?? []).length > 0 ? 'main' : 'side';
}

/** The summary a compaction gets when the script gives none. */
export const DEFAULT_SUMMARY = '## Goal\nAnswer the user.\n\n## Progress\nThe user and the assistant exchanged greetings.';

function fallback(route: RequestRoute): ScriptTurn {
  if (route === 'title') return { content: [{ type: 'text', text: 'Recorded session' }] };
  if (route === 'compact') return { content: [{ type: 'text', text: DEFAULT_SUMMARY }] };
  return { content: [{ type: 'text', text: 'OK.' }] };
}

/** Start the mock with OpenCode's routing and answers (`subagentPrompts`: prompts of the task calls the script makes). */
export function startOpencodeMock(script: Omit<MockScript, 'classify'> = {}, subagentPrompts: readonly string[] = []): Promise<MockApi> {
  return startMockApi({ fallback, ...script, classify: (body) => classifyOpencodeRequest(body, subagentPrompts) });
}
