// txcript as a library: the codec API the tools stand on. A harness's codec detects
// and classifies its lines, names their envelope fields, answers tx-filter's
// questions, counts a session and knows its store; records and Common are the wire
// types. Everything here is what the executables use, nothing more.
export type {
  Codec,
  CodecFacets,
  FacetName,
  LineCodec,
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
export { DEFAULT_HARNESS, detectHarness, detectLineCodec, HARNESSES, isHarness, lineCodecFor, loadAll, loadFacet } from './codecs.js';
export { classifyLine } from './records/classify.js';
export { parsePhysicalLine, type ParsedRecord } from './records/parse-line.js';
export { splitLines, type PhysicalLine } from './core/input/lines.js';
export { KINDS, type Harness, type Kind, type RecordHeader, type RecordView } from './record.js';
export { decodeLine, decodeRecord, encodeRecord, nativeBytes, recordView } from './records/record-bytes.js';
export type * from './common.js';
