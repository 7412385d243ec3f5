// What the codec knows of the Claude Code format, for tx-stats coverage notes: line
// types, attachment types, system subtypes and top-level fields seen in real files
// (the public corpus and sessions recorded from the real client). Anything else is
// reported, by CLI version, so a new release's additions show up.
import { META_TYPES, TITLE_TYPES } from './classify.js';

/** Line types the codec knows. */
export const KNOWN_LINE_TYPES = new Set(['user', 'assistant', 'attachment', 'system', 'summary', 'progress', ...TITLE_TYPES, ...META_TYPES]);

/** Attachment types seen (hook_* types are known by their prefix). */
export const KNOWN_ATTACHMENT_TYPES = new Set([
  'queued_command',
  'task_reminder',
  'deferred_tools_delta',
  'skill_listing',
  'file',
  'agent_listing_delta',
  'mcp_instructions_delta',
  'command_permissions',
  'edited_text_file',
  'compact_file_reference',
  'invoked_skills',
  'date_change',
  'directory',
  'plan_mode',
  'plan_mode_exit',
  'todo_reminder',
  'silent_turn_reminder',
  'auto_mode',
  'date',
  'environment',
  'model',
  'prompt_snapshot',
  'remote_session_change',
  'session_context',
]);

/** System line subtypes seen. */
export const KNOWN_SYSTEM_SUBTYPES = new Set([
  'stop_hook_summary',
  'turn_duration',
  'api_error',
  'local_command',
  'away_summary',
  'compact_boundary',
  'microcompact_boundary',
  'informational',
]);

/** Top-level fields seen on lines of any type. */
export const KNOWN_FIELDS = new Set([
  'type', 'subtype', 'uuid', 'parentUuid', 'logicalParentUuid', 'leafUuid', 'sessionId', 'session_id', 'timestamp',
  'cwd', 'gitBranch', 'version', 'userType', 'entrypoint', 'slug', 'isSidechain', 'agentId', 'requestId',
  'message', 'content', 'attachment', 'data', 'summary', 'toolUseResult', 'toolUseID', 'parentToolUseID',
  'sourceToolAssistantUUID', 'sourceToolUseID', 'snapshot', 'messageId', 'isSnapshotUpdate', 'isMeta',
  'isCompactSummary', 'isVisibleInTranscriptOnly', 'isApiErrorMessage', 'compactMetadata', 'microcompactMetadata',
  'level', 'rendered', 'renderedRole', 'renderedBesideToolResult', 'permissionMode', 'mode', 'stopReason',
  'preventedContinuation', 'hookInfos', 'hookErrors', 'hookCount', 'hasOutput', 'failedHookErrorIndexes',
  'hookAdditionalContext', 'thinkingMetadata', 'todos', 'operation', 'durationMs', 'promptId', 'promptSource',
  'origin', 'imagePasteIds', 'planContent', 'effort', 'perTurnEffort', 'requestedModel', 'requestRef', 'apiBlockIndex',
  'attributionSkill', 'attributionPlugin', 'attributionAgent', 'permissionDecision', 'toolDenialKind',
  'toolInputStreamMs', 'thinkingDurationMs', 'thinkingDisplay', 'error', 'retryInMs', 'retryAttempt', 'maxRetries',
  'lastPrompt', 'customTitle', 'aiTitle', 'agentName', 'prUrl', 'prRepository', 'prNumber', 'sandboxed',
  'serverClassifierRequest', 'turnCompanion', 'turnPosition', 'turnOrigin', 'messageCount', 'reason', 'deliveryId',
  'commandUuid', 'tools', 'totalCostUSD', 'modelUsage', 'hasUnknownModelCost', 'totalDuration', 'totalAPIDuration',
  'totalAPIDurationWithoutRetries', 'totalToolDuration', 'totalLinesAdded', 'totalLinesRemoved', 'startTime',
  'shapeHash', 'promptCacheRequested', 'madeBy', 'atis', 'tail', 'requestDigest', 'querySource', 'params', 'keep',
  'id', 'cacheControl', 'hash', 'base', 'shape',
]);
