// txcript as a library: the codec API the tools stand on. A harness's codec detects
// and classifies its lines, names their envelope fields, answers tx-filter's
// questions, counts a session and knows its store; records and Common are the wire
// types. Everything here is what the executables use, nothing more.
export type {
  Codec,
  Envelope,
  EnvelopeMarkup,
  FoundSession,
  FromCommonOptions,
  InstallTarget,
  NativeWriter,
  Question,
  QuestionFlag,
  QuestionOptions,
  ScanOptions,
  SessionConverter,
  SessionCounter,
  SessionFields,
  SessionStore,
  ToCommonOptions,
  View,
  WalkProblem,
} from './codec.js';
export { DEFAULT_WINDOW_MINUTES, QUESTION_FLAGS } from './codec.js';
export { CODECS, codecFor, detectCodec } from './codecs.js';
export { classifyLine } from './classify.js';
export { parsePhysicalLine, type ParsedRecord } from './parse-line.js';
export { splitLines, type PhysicalLine } from './core/lines.js';
export { decodeLine, decodeRecord, encodeRecord, KINDS, nativeBytes, recordView, type Harness, type Kind, type RecordHeader, type RecordView } from './record.js';
export type * from './common.js';
