// The Claude Code codec: this folder's knowledge behind the one Codec surface of
// lib/codec.ts, which is all the commands see of it. It is made of the members each
// tool loads on its own (codec-line, codec-filter, codec-stats, codec-common) and the rest.
import path from 'node:path';
import type { Codec, SessionStore } from '../codec.js';
import { claudeCommonCodec } from './codec-common.js';
import { claudeFilterCodec } from './codec-filter.js';
import { claudeStatsCodec } from './codec-stats.js';
import { currentSessions } from './current.js';
import { discoverSessions } from './discover.js';
import { ENVELOPE_TAGS } from './envelope.js';
import { envelopeSlots, rewriteEnvelopeBody } from './envelope-rewrite.js';
import { escapeEnvelope, unescapeEnvelope } from './escape.js';
import { CommonToClaude } from './from-common.js';
import { installTarget, subagentTarget } from './install.js';
import { readPluginRegistry } from './plugins.js';
import { firstPrompt, scanSession } from './session-scan.js';
import { configDir, pluginRegistryPath } from './store.js';
import { subagentFiles } from './subagent-files.js';
import { countSubagents, subagentsOf } from './subagents.js';
import { countLines } from '../core/input/file-lines.js';
import { messageTexts } from './text.js';

const store: SessionStore = {
  configDir,
  keeps: { subagents: true, plugins: true },
  idOf: (file) => path.basename(file).replace(/\.jsonl$/, ''),
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
  ...claudeFilterCodec,
  ...claudeStatsCodec,
  ...claudeCommonCodec,
  texts: messageTexts,
  // The Messages API takes object inputs only, and thinking only with its own signature.
  continueRules: { contextWindow: 200_000, startsAtCompaction: true, objectInputs: true, results: 'next', userFirst: true, callsWithoutResults: [], dropsForeignReasoning: true },
  fromCommon: (session, options) => new CommonToClaude(session, options),
  store,
  markup: { tags: ENVELOPE_TAGS, escape: escapeEnvelope, unescape: unescapeEnvelope, slots: envelopeSlots, rewriteBody: rewriteEnvelopeBody },
};

export default claudeCodec;
