// Recognising a line of a pi session file. Claude Code's codec takes any object no other
// harness claims, so this test must be specific: pi's entries carry `id` and `parentId`
// (Claude Code's carry `uuid` and `parentUuid`, Codex's a `payload`), and each known type
// has the fields the client itself reads of it. A version 1 file (before the tree) has no
// ids; its entries are recognised by those fields alone.
import { ENTRY_TYPES } from './format.js';

const KNOWN: ReadonlySet<string> = new Set(ENTRY_TYPES);
const SHORT_ID = /^[0-9a-f]{8}$/;

const str = (v: unknown): v is string => typeof v === 'string';

/** True when the line has another harness's identity fields, or is a line of a Common stream (`harness`). */
function foreign(l: Record<string, unknown>): boolean {
  return 'uuid' in l || 'parentUuid' in l || 'sessionId' in l || 'payload' in l || 'record_type' in l || 'harness' in l;
}

/** The fields the client reads of each known entry type (the header's `id` and every entry's `timestamp` aside). */
function hasOwnFields(l: Record<string, any>): boolean {
  switch (l.type) {
    case 'session':
      return str(l.id) && (l.cwd === undefined || str(l.cwd)) && (l.version === undefined || typeof l.version === 'number');
    case 'message':
      return !!l.message && typeof l.message === 'object' && !Array.isArray(l.message) && str(l.message.role);
    case 'model_change':
      return str(l.provider) && str(l.modelId);
    case 'thinking_level_change':
      return str(l.thinkingLevel);
    case 'compaction':
      return str(l.summary) && (str(l.firstKeptEntryId) || typeof l.firstKeptEntryIndex === 'number');
    case 'branch_summary':
      return str(l.summary) && str(l.fromId);
    case 'custom':
    case 'custom_message':
      return str(l.customType);
    case 'label':
      return str(l.targetId);
    case 'session_info':
      return 'name' in l;
    default:
      return false;
  }
}

/** True when a parsed line has the shape of a pi session line. */
export function isPiLine(line: unknown): boolean {
  if (!line || typeof line !== 'object' || Array.isArray(line)) return false;
  const l = line as Record<string, any>;
  if (!str(l.type) || foreign(l)) return false;
  if (l.type === 'session') return hasOwnFields(l) && (l.timestamp === undefined || str(l.timestamp));
  if (!str(l.timestamp)) return false;
  const linked = str(l.id) && (l.parentId === null || str(l.parentId));
  if (KNOWN.has(l.type)) return (linked || (l.id === undefined && l.parentId === undefined)) && hasOwnFields(l);
  // An entry type of a later client: the tree's links with a short id, whatever it holds.
  return linked && SHORT_ID.test(l.id);
}
