// `opencode export ID` as the seam of lib/records/document.ts reads it: the client writes
// `JSON.stringify({info, messages}, null, 2)` and a newline (its cli/cmd/export.ts), so
// the members before the list are the session's info alone, read as the info line, each
// message with its parts is a line, and nothing follows the list: there is no tail line
// (the writer closes the list and the document itself).
import type { DocumentCodec } from '../codec.js';
import { isSessionInfo } from './detect.js';

/** How an OpenCode export document is read as lines. */
export const opencodeDocument: DocumentCodec = {
  items: 'messages',
  accepts: (members) => Object.keys(members).length === 1 && isSessionInfo(members.info),
  line: (members, part) => (part === 'head' ? (members.info as object) : null),
  members: (line, part) => (part === 'head' && isSessionInfo(line) ? { info: line } : null),
  // What `opencode import FILE` takes: tx-native writes a session so.
  layout: { indent: '  ', eol: '\n' },
};
