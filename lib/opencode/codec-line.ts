// The line-level members of the OpenCode codec (LineCodec): what one parsed line (a
// session's info, or a message with its parts) says of itself.
import type { LineCodec } from '../codec.js';
import { classifyOpencodeLine } from './classify.js';
import { isOpencodeLine } from './detect.js';
import { opencodeDocument } from './document.js';
import { opencodeEnvelope } from './envelope.js';

/** The OpenCode codec's line-level members. */
export const opencodeLineCodec: LineCodec = {
  harness: 'opencode',
  label: 'OpenCode',
  // The store is `opencode` in the client's data folder, $XDG_DATA_HOME (its global/index.ts
  // xdgData), ~/.local/share when unset.
  home: { flag: 'opencode-home', variable: 'XDG_DATA_HOME', dir: 'opencode' },
  detect: isOpencodeLine,
  classify: classifyOpencodeLine,
  // Kinds hang on roles, part types and flags, never on words.
  kindReadsText: () => false,
  envelope: opencodeEnvelope,
  // Every message names its session.
  sessionFollows: false,
  // Parts hold everything: each reader needs them.
  unreadKey: null,
  // `opencode export` writes one JSON document.
  document: opencodeDocument,
};
