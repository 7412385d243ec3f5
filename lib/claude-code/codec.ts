// The Claude Code codec: this folder's knowledge behind the one Codec surface of
// lib/codec.ts, which is all the commands see of it.
import path from 'node:path';
import type { Codec, Envelope, SessionStore } from '../codec.js';
import { claudeKindReadsText, classifyClaudeLine } from './classify.js';
import { ClaudeSessionConverter } from './common-session.js';
import { currentSessions } from './current.js';
import { discoverSessions } from './discover.js';
import { ENVELOPE_TAGS } from './envelope.js';
import { envelopeSlots, rewriteEnvelopeBody } from './envelope-rewrite.js';
import { escapeEnvelope, unescapeEnvelope } from './escape.js';
import { CommonToClaude } from './from-common.js';
import { installTarget, subagentTarget } from './install.js';
import { readPluginRegistry } from './plugins.js';
import { firstPrompt, scanSession } from './session-scan.js';
import { SessionStats } from './session-stats.js';
import { configDir, pluginRegistryPath } from './store.js';
import { subagentFiles } from './subagent-files.js';
import { countSubagents, subagentsOf } from './subagents.js';
import { countLines } from '../core/file-lines.js';
import { lineStrings, messageTexts } from './text.js';
import { lineView, makeQuestion } from './views.js';

/** The envelope fields of a Claude Code line: sessionId, timestamp, isSidechain. */
export function claudeEnvelope(line: unknown): Envelope {
  const l = line && typeof line === 'object' && !Array.isArray(line) ? (line as Record<string, unknown>) : null;
  return {
    session: l && typeof l.sessionId === 'string' && l.sessionId !== '' ? l.sessionId : null,
    timestamp: l && typeof l.timestamp === 'string' ? l.timestamp : null,
    sidechain: l?.isSidechain === true,
  };
}

const store: SessionStore = {
  configDir,
  rootIn: (config) => path.join(config, 'projects'),
  discover: discoverSessions,
  scan: scanSession,
  countLines,
  firstPrompt,
  current: currentSessions,
  countSubagents,
  subagentFiles,
  installTarget: (config, cwd, id, parent) => (parent ? subagentTarget(config, cwd, parent.session, parent.agentId) : installTarget(config, cwd, id)),
  resumeCommand: (id) => `claude --resume ${id}`,
  subagents: subagentsOf,
  pluginRegistryPath,
  readPlugins: readPluginRegistry,
};

/** The Claude Code codec. */
export const claudeCodec: Codec = {
  harness: 'claude-code',
  // Claude Code is what any JSON object that is not another harness's is read as.
  detect: (line) => line !== null && typeof line === 'object' && !Array.isArray(line),
  classify: classifyClaudeLine,
  kindReadsText: claudeKindReadsText,
  envelope: claudeEnvelope,
  sessionFollows: false,
  strings: lineStrings,
  texts: messageTexts,
  toCommon: (options) => new ClaudeSessionConverter(options),
  // The Messages API takes object inputs only, and thinking only with its own signature.
  continueRules: { contextWindow: 200_000, startsAtCompaction: true, objectInputs: true, results: 'next', userFirst: true, callsWithoutResults: [], dropsForeignReasoning: true },
  fromCommon: (session, options) => new CommonToClaude(session, options),
  question: makeQuestion,
  lineView,
  stats: (id) => new SessionStats(id),
  store,
  markup: { tags: ENVELOPE_TAGS, escape: escapeEnvelope, unescape: unescapeEnvelope, slots: envelopeSlots, rewriteBody: rewriteEnvelopeBody },
};
