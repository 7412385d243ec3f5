// The surface every harness codec offers (one folder under lib/ each): what the
// commands may ask of a line, a session or a store without knowing which harness
// wrote it. Commands reach a codec only through the registry (lib/codecs.ts), by
// `header.harness`, and load of it only the facets they use (CodecFacets).
import type { Stats } from 'node:fs';
import path from 'node:path';
import type { CommonMessage, CommonSession, ArtifactBlock } from './common.js';
import type { ReadCounter } from './core/input/file-lines.js';
import type { ContinueRules } from './continuable/rules.js';
import type { RawStrings } from './core/json/raw-strings.js';
import type { Harness, Kind, RecordHeader, RecordView } from './record.js';
import type { UsageSink } from './usage/event.js';

/** The configuration directory a store option's (or its variable's) value names: the value itself, or the directory `home.dir` in it. */
export function configIn(home: { dir?: string }, value: string): string {
  return home.dir === undefined ? value : path.join(value, home.dir);
}

/** Minutes within which sessions of one directory count as equally current (tx-ls --current). */
export const DEFAULT_WINDOW_MINUTES = 5;

/** One harness's codec. */
export interface Codec {
  /** The name records carry in `harness`, and the one `--harness` takes. */
  readonly harness: Harness;
  /** The harness as people name it (Claude Code, Codex), for messages. */
  readonly label: string;
  /**
   * The option naming the harness's store (tx-ls, tx-grep, tx-continue) and the variable
   * it defaults to, both naming the configuration directory itself, or with `dir` the
   * directory it is `dir` of (Gemini CLI's GEMINI_CLI_HOME names the home its `.gemini`
   * is in); null when it has none.
   */
  readonly home: { flag: string; variable: string; dir?: string } | null;
  /** True when a parsed native line has this harness's shape. */
  detect(line: unknown): boolean;
  /** The shared kind (record.ts KINDS) of one parsed native line of this harness. */
  classify(line: unknown): Kind;
  /** True when classify() may look at the words of the line's text (whitespace, markup), not only at ASCII field values. */
  kindReadsText(line: unknown): boolean;
  /** The envelope fields of one parsed native line (null where the line does not say). */
  envelope(line: unknown): Envelope;
  /** True when a line that names no session belongs to the last session named before it in its file (Codex names it once, in session_meta). */
  readonly sessionFollows: boolean;
  /** A top-level key of native lines whose value neither tx-stats nor tx-common reads, so they skip its bytes (RecordView.value); null when none. */
  readonly unreadKey: string | null;
  /** How a session kept as one JSON document is read as lines, for a harness that keeps (or kept) its sessions so. */
  readonly document?: DocumentCodec;
  /** Every string of a line's text (message text, tool input and output), for --grep. */
  strings(line: unknown): Iterable<string>;
  /** The message text of a line by who wrote it, for tx-grep (tx-grep(1) says what each role holds). */
  texts(line: unknown): Iterable<MessageText>;
  /**
   * tx-common's parse of a native line from `start` to `end` of `buf`: whole, but for its
   * long strings carried as bytes where the conversion copies them unread
   * (core/json/raw-strings.ts); undefined to parse it as usual.
   */
  carryingParse?(buf: Buffer, start: number, end: number, raw: RawStrings): unknown;
  /** A converter of one session's records to Common (tx-common), or null while the harness has none. */
  toCommon: ((options: ToCommonOptions) => SessionConverter) | null;
  /** A writer of one Common session as this harness's native lines (tx-native), or null. */
  fromCommon: ((session: CommonSession, options: FromCommonOptions) => NativeWriter) | null;
  /** What this harness's client needs of a conversation it continues (lib/continuable/). */
  continueRules: ContinueRules;
  /** The tx-filter question for a flag; null when the question does not apply to this harness. */
  question(flag: QuestionFlag, options: QuestionOptions): Question | null;
  /** The flat view of a record when no question is asked (tx-filter --view). */
  lineView(rec: RecordView, maxChars: number): View;
  /** Fresh counters of one session for tx-stats (`id`: its session id, null when unknown); each API message's usage goes to `sink` once final. */
  stats(id: string | null, sink?: UsageSink | null): SessionCounter;
  /** Where this harness keeps its sessions, or null when tx-ls cannot list them. */
  store: SessionStore | null;
  /** The envelope markup of this harness's text (tx-escape), or null when it has none. */
  markup: EnvelopeMarkup | null;
}

/**
 * The line-level members of a codec: what one parsed line says of itself, with the
 * harness's names. Every tool loads these for every harness (lib/codecs.ts); the other
 * members come in facets a tool loads on its own (CodecFacets): tx-filter, tx-stats and
 * tx-common take theirs, and only tx-ls, tx-native, tx-continue and tx-grep the whole
 * codec, with every converter, writer and store.
 */
export type LineCodec = Pick<Codec, 'harness' | 'label' | 'home' | 'detect' | 'classify' | 'kindReadsText' | 'envelope' | 'sessionFollows' | 'unreadKey' | 'document'>;

/**
 * A harness whose sessions are (or were) kept as one JSON document each, an object
 * holding a list of the session's entries: tx-parse reads such a document as records,
 * its head, each item and its tail (lib/records/document.ts), and tx-native writes the
 * records back as the document.
 */
export interface DocumentCodec {
  /** The key of the list whose items are the session's lines (Gemini CLI: `messages`). */
  readonly items: string;
  /** True when a parsed document's members other than its list make it this harness's session. */
  accepts(members: Record<string, unknown>): boolean;
  /** The line that stands for the members before the list (the head) or after it (the tail); null for a tail the document has no line for (nothing follows its list). */
  line(members: Record<string, unknown>, part: 'head' | 'tail'): object | null;
  /** The members a head or tail line stands for (line's inverse); null when the line is not one. */
  members(line: unknown, part: 'head' | 'tail'): Record<string, unknown> | null;
  /** The layout the client writes its documents in, for a harness whose session file is one today: tx-native writes a Common session as that document. */
  readonly layout?: { indent: string; eol: string };
}

/** The members of a codec tx-filter uses. */
export type FilterCodec = LineCodec & Pick<Codec, 'strings' | 'question' | 'lineView'>;

/** The members of a codec tx-stats uses. */
export type StatsCodec = LineCodec & Pick<Codec, 'stats'>;

/** The members of a codec tx-common (and tx-render) use. */
export type CommonCodec = LineCodec & Pick<Codec, 'toCommon' | 'carryingParse'>;

/**
 * The facets of a codec a tool loads on its own, each named by the module of the harness
 * folder that holds it as its default export (lib/codecs.ts loads them on demand).
 */
export interface CodecFacets {
  'codec-filter': FilterCodec;
  'codec-stats': StatsCodec;
  'codec-common': CommonCodec;
  codec: Codec;
}

/** The name of a facet: the module it is the default export of. */
export type FacetName = keyof CodecFacets;

/** Who wrote a message text: a user turn (typed or injected), the model (text, thinking), or a tool call's input or output. */
export type TextRole = 'user' | 'assistant' | 'tool';

/** One piece of message text of a line. */
export interface MessageText {
  role: TextRole;
  text: string;
  /** Where a harness writes one text more than once in a file (a record written again under its id), the key it is found once by. */
  key?: string;
}

/** The envelope fields commands filter and group on. */
export interface Envelope {
  /** The session the line belongs to, when the line says. */
  session: string | null;
  /** The line's timestamp (ISO 8601), when it has one. */
  timestamp: string | null;
  /** True for a subagent's line kept inside the main file. */
  sidechain: boolean;
}

/** Every question flag of tx-filter, in the order views are written for one record. */
export const QUESTION_FLAGS = ['human-prompts', 'tool-calls', 'tool-results', 'reasoning', 'skills', 'subagents', 'hooks', 'compactions', 'usage', 'modes'] as const;

/** One question flag of tx-filter. */
export type QuestionFlag = (typeof QUESTION_FLAGS)[number];

/** One flat view object. */
export type View = Record<string, unknown>;

/** What the question flags are told by their modifiers. */
export interface QuestionOptions {
  /** Strings in views are cut to this many characters (0: whole). */
  maxChars: number;
  /** --name: tool name, hook event or name, skill, or subagent type. */
  name?: string;
  /** --errors: only failed tool results. */
  errors: boolean;
  /** --failed: only failed hooks. */
  failed: boolean;
}

/** One question of the session-store guide as a record selector. */
export interface Question {
  /** The flag it answers. */
  name: string;
  /** The record kinds that can match; records of other kinds are not parsed. */
  kinds: ReadonlySet<Kind>;
  /** Does the record match (record mode)? */
  match(rec: RecordView): boolean;
  /** The views of a record (view mode); a question may hold views back and return them later. */
  views(rec: RecordView): View[];
  /** Views still held back at the end of the input. */
  end?(): View[];
}

/** The counters of one session for tx-stats. */
export interface SessionCounter {
  /** Count one record; `line` is its parsed native line (undefined for invalid records). */
  add(header: RecordHeader, line: unknown): void;
  /** Take in the counts of lines read before the session's id was known. */
  absorb(other: SessionCounter): void;
  /**
   * Take in the counts of the lines that follow, from another file read on a worker
   * (`later` is a structured clone of a counter of this harness), as if they had been
   * counted here; false, taking nothing, when that cannot be done exactly.
   */
  merge(later: unknown): boolean;
  /**
   * Hand on to the sink the usage of the messages still held (the input, or the part of
   * it a worker read, has ended). A counter that hands each message on as it reads it
   * needs none; one that hands on none gives no cost and no buckets.
   */
  flush?(): void;
  /** The summary object tx-stats prints. */
  summary(): Record<string, unknown>;
}

/** How tx-common converts. */
export interface ToCommonOptions {
  /** The file the records come from (undefined on stdin). */
  src?: string;
  /** Only the conversation the client resumes (after the last compaction). */
  active: boolean;
  /** Also convert sidechain lines kept inside a main file. */
  sidechains: boolean;
  /** Where long strings of parsed lines wait as bytes to be written (core/json/raw-strings.ts). */
  raw?: RawStrings;
}

/** One session's conversion to Common, fed record by record. */
export interface SessionConverter {
  /** On stdin (no file name), true when `line` begins another session than the one being converted. */
  startsNewSession(line: unknown): boolean;
  /** Whether push reads a line of this record kind at all: one it never reads need not be parsed. */
  reads(kind: Kind): boolean;
  /** A record's line parsed the converter's own way (long strings as bytes); undefined to parse it as usual. */
  parse?(view: RecordView, unread: string | null): unknown;
  /** Take one parsed native line (`n`: its physical line number). */
  push(line: unknown, n: number): void;
  /** After the last line: the session line, then its messages, each as one line of text. */
  finish(): AsyncIterable<string | Buffer> | Iterable<string | Buffer>;
  /** Native files to convert after this session (its subagents, under --subagents). */
  followers(): string[];
  /** Release what the conversion holds (a temporary file), whatever happened. */
  dispose(): void;
}

/** How tx-native writes a Common session. */
export interface FromCommonOptions {
  /** The new session's id. */
  sessionId: string;
  /** The project directory the session is installed for. */
  cwd?: string;
  /** Write an artifact's bytes beside the installed session; returns the path written. */
  materialize?: (artifact: ArtifactBlock) => string;
  /** The model provider the written session names, where the client records one (tx-native --model-provider); else the writer's own choice. */
  modelProvider?: string;
  /** The configuration directory of the store the session is written for, when known (so a writer can read the client's configuration). */
  config?: string;
  /** The model the session continues with, `PROVIDER/MODEL` (tx-native --model), for a client that resumes with the model a session names (OpenCode). */
  model?: string;
  /** The environment, for a writer that reads the client's own configuration (its default model). */
  env?: NodeJS.ProcessEnv;
}

/** One Common session being written as native lines. */
export interface NativeWriter {
  /** The native lines of one Common message. */
  message(m: CommonMessage): object[];
  /** The lines still held back at the end of the session. */
  finish(): object[];
  /** Problems found so far (taken by the caller, who empties the array). */
  warnings: string[];
  /** After the last message: the entry that names the session in the store's index (InstallTarget.index), or null. */
  indexEntry?(): object | null;
}

/** A store that keeps sessions in a database, not as files: tx-native --install writes into it. */
export interface DatabaseInstall {
  /** Write sessions (each its native lines, and the folder it is resumed in) into the store of a configuration directory, all or none; returns their ids. Throws, writing nothing, when it cannot. */
  install(config: string, sessions: { lines: object[]; cwd: string }[]): string[];
}

/** One session file found in a store. */
export interface FoundSession {
  path: string;
  /** The name of the directory holding the file (the project directory in a Claude Code store). */
  project: string;
  stat: Stats;
}

/** A file or directory a walk could not use, and why. */
export interface WalkProblem {
  path: string;
  message: string;
}

/** What the shallow scan of a session file learns. */
export interface SessionFields {
  /** The session's id: from its lines, else the file name. */
  id: string;
  cwd: string | null;
  git_branch: string | null;
  version: string | null;
  /** The model of the first answer. */
  model: string | null;
  /** The session's name, when it has one. */
  title: string | null;
  /** A title the client guessed (not a name the user gave). */
  ai_title: string | null;
  /** The first timestamp. */
  started_at: string | null;
}

/** How far a shallow scan may read. */
export interface ScanOptions {
  /** Split and scan every line (the titles are the same; kept for comparison). */
  deep?: boolean;
  counter?: ReadCounter;
}

/** Where an installed session goes. */
export interface InstallTarget {
  /** The session file. */
  file: string;
  /** The directory of the session's side files (artifacts). */
  sessionDir: string;
  /** The resolved project directory. */
  cwd: string;
  /** The store's index of session names, which a named session gets an entry appended to. */
  index?: string;
  /** New files the store needs beside the session (Gemini CLI: the marker naming a project folder's root), installed with it. */
  files?: { file: string; text: string }[];
  /** Where a subagent transcript's description goes (Claude Code's `.meta.json` beside it); absent when the store keeps none. */
  meta?: string;
}

/** A harness's session store, as tx-ls and tx-native see it. */
export interface SessionStore {
  /** The configuration directory from the environment (e.g. $CLAUDE_CONFIG_DIR), or null when it cannot be known. */
  configDir(env: NodeJS.ProcessEnv): string | null;
  /** Whether the harness keeps subagent transcripts beside a session, and a plugin registry (tx-ls --subagents, --plugins). */
  readonly keeps: { subagents: boolean; plugins: boolean };
  /** The id a session file is named by (the file name, or the part of it that is the id). */
  idOf(file: string): string;
  /**
   * The names its client gives session files, where its walk takes files named otherwise
   * too (pi's takes any `*.jsonl`): in a folder every store walks (tx-ls --harness all
   * DIR), such a store lists only files so named, leaving the others to a store whose
   * files they are. Absent: the walk's own rules are all.
   */
  readonly fileNames?: RegExp;
  /** The sessions root under a configuration directory. */
  rootIn(config: string): string;
  /** Every session file under a root, as the walk finds it; problems are reported, not thrown. */
  discover(root: string, onProblem: (p: WalkProblem) => void): Iterable<FoundSession>;
  /** The shallow scan of one session file (`size` from its stat); never builds a message. */
  scan(file: string, size: number, options?: ScanOptions): SessionFields;
  /** Physical lines in a session file, counted as tx-parse numbers them (reads the whole file). */
  countLines(file: string, size: number, counter?: ReadCounter): number;
  /** The first prompt a person typed in a session file, trimmed to `max` characters. */
  firstPrompt(file: string, size: number, max: number, counter?: ReadCounter): string | null;
  /** The newest sessions of a working directory, newest first, with those within `windowMinutes` of it; a project path that cannot be read goes to `onProblem`. */
  current(root: string, cwd: string, windowMinutes: number, onProblem?: (p: WalkProblem) => void): FoundSession[];
  /** The number of subagent transcripts beside a session file; null when the harness keeps none there. */
  countSubagents(file: string): number | null;
  /** The subagent transcripts beside a session file that are regular files; none for a file that is itself one, or a harness that keeps none. */
  subagentFiles(file: string): string[];
  /** For a store that is a database: how sessions are installed into it (then installTarget is null). */
  database?: DatabaseInstall;
  /** The id the store names a session tx-native installs under a UUID by, where that is not the UUID (OpenCode's `ses_…`). */
  storeId?(uuid: string): string;
  /** The native bytes of a session that is not a file of its own (one of a database: its document), by the path discover gave; null for a session that is a file. */
  read?(found: string): Iterable<string | Buffer> | null;
  /** Where a session of `cwd` is installed for resume (throws UnsafePath for a path that would leave the root); null when sessions cannot be installed. */
  installTarget: ((config: string, cwd: string, id: string, parent?: { session: string; agentId: string }, startedAt?: string) => InstallTarget) | null;
  /** The shell command that resumes an installed session. */
  resumeCommand(id: string): string;
  /** The subagents of a session file, one listing object each; what is there but cannot be read is told to `onProblem`. */
  subagents(file: string, counter?: ReadCounter, onProblem?: (path: string, message: string) => void): object[];
  /** The plugin registry file under a configuration directory, or null when the harness has none. */
  pluginRegistryPath(config: string): string | null;
  /** Read a plugin registry file, one listing object per installed plugin. */
  readPlugins(file: string, each: (plugin: object) => Promise<void>): Promise<void>;
}

/** A harness's envelope markup: tags in text whose payload a closing tag could end early. */
export interface EnvelopeMarkup {
  /** The tag names. */
  tags: readonly string[];
  /** Escape closing tags in a payload (bijective; see tx-escape(1)). */
  escape(s: string): string;
  /** Undo escape. */
  unescape(s: string): string;
  /** The strings of a native line that are envelope bodies, by their holder and key. */
  slots(line: unknown): { parent: Record<string, unknown>; key: string }[];
  /** Apply `fn` to each payload of an envelope body, leaving the tags; null when the body is not envelope markup. */
  rewriteBody(body: string, fn: (text: string) => string): string | null;
}
