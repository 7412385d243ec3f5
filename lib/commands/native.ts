// tx-native: records back to the native lines they came from, byte for byte; and a
// Common stream written as sessions of a harness (any codec with a writer), on stdout
// or installed for resume.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { Codec, FromCommonOptions, InstallTarget, NativeWriter } from '../codec.js';
import { beneath, InstallTransaction, TargetExists, UnsafePath } from '../core/install/install-file.js';
import { isUuid, TXCRIPT_NAMESPACE, uuidV5 } from '../core/uuid.js';
import { cleanSession, isCommonMessageLine, type ArtifactBlock, type CommonMessage, type CommonSession } from '../common.js';
import { Continuable } from '../continuable/continuable.js';
import { datedSession } from '../continuable/placeholders.js';
import { NotContinuable } from '../continuable/rules.js';
import { reusedChunks } from '../core/input/file-chunks.js';
import { isLongPiece, lineBatches, LONG_LINE } from '../core/input/lines.js';
import { Output } from '../core/output/output.js';
import { DocumentStitch } from '../records/document-write.js';
import { writePiece, type DocumentOut } from './native-document.js';
import { LongReader, plainObjectType } from '../records/read.js';
import { NativeLines } from './native-lines.js';
import { freshIdCommand, HELP, shellQuote } from './native-help.js';
import { ToolError, UsageError, type Context, type Tool } from '../core/tool.js';
import { decodeLine } from '../records/record-bytes.js';
import { stringifyJson } from '../core/json/json-text.js';
import { DEFAULT_HARNESS, detectHarness, HARNESSES, isHarness, lineCodecFor, loadFacet } from '../codecs.js';
import type { Harness } from '../record.js';

export { shellQuote } from './native-help.js';

/** The harness --harness names (the default harness when none). */
function targetHarness(name: unknown): Harness {
  if (name === undefined) return DEFAULT_HARNESS;
  if (typeof name !== 'string' || !isHarness(name)) throw new UsageError(`--harness ${JSON.stringify(name)} is not one of ${HARNESSES.join(', ')}`);
  return name;
}

/**
 * The codec of a harness, loaded when the first Common session arrives: records are
 * written back without one, and a codec is most of a start-up.
 */
async function loadCodec(harness: Harness): Promise<Codec> {
  const codec = await loadFacet(harness, 'codec');
  if (!codec.fromCommon || !(codec.store?.installTarget || codec.store?.database)) throw new UsageError(`--harness ${harness}: txcript cannot write ${codec.label} sessions`);
  return codec;
}

/** The destination of the session being written. */
interface OpenSession {
  writer: NativeWriter;
  out: Output;
  id: string;
  target?: InstallTarget;
  stream?: Writable;
  /** Native lines written so far. */
  lines: number;
  /** For a subagent transcript: its .meta.json document. */
  meta?: Record<string, unknown>;
  /** The conversation, held until its end so it is written continuable. */
  continuable: Continuable;
  /** The input the session came from (for messages). */
  src?: string;
  /** For a harness whose session file is one document (DocumentCodec.layout): the lines written as its pieces. */
  document?: DocumentOut;
  /** For a store that is a database: the lines, held to be written with the run's other sessions, and the folder it is resumed in. */
  database?: { lines: object[]; cwd: string };
}

async function main(ctx: Context): Promise<void> {
  const args = ctx.args;
  const harness = targetHarness(args.harness);
  let codec: Codec | null = null;
  // `new`: a fresh random id, for a copy beside the session it came from.
  if (args['session-id'] === 'new') args['session-id'] = randomUUID();
  if (args['session-id'] !== undefined && !isUuid(args['session-id'])) throw new UsageError(`--session-id ${JSON.stringify(args['session-id'])} is not a UUID (or "new")`);
  const taken = (file: string) => new ToolError(`${file} already exists: not overwritten; to install it as a new session, run: ${freshIdCommand(args)}`);
  if ((args['config-dir'] !== undefined || args.cwd !== undefined) && !args.install) throw new UsageError('--config-dir and --cwd go with --install');
  const provider = args['model-provider'];
  if (provider !== undefined && (typeof provider !== 'string' || provider.trim() === '')) throw new UsageError('--model-provider needs a provider id');
  const window = args['context-window'] === undefined ? undefined : Number(args['context-window']);
  if (window !== undefined && !(Number.isSafeInteger(window) && window > 0)) throw new UsageError(`--context-window ${JSON.stringify(args['context-window'])} is not a positive number of tokens`);
  const strictSize = args['strict-size'] === true;
  const continuable = async (session: CommonSession) => {
    // How the session's own harness records its context: a harness txcript does not know is measured by its bytes alone.
    const source = isHarness(session.harness) ? (await loadFacet(session.harness, 'codec')).continueRules.recorded : undefined;
    return new Continuable(session, { harness, rules: codec!.continueRules }, { fromCompaction: args['from-compaction'] === true, contextWindow: window, strictSize, source });
  };
  let open: OpenSession | null = null;
  let sessions = 0;
  const stitch = new DocumentStitch();

  // Every session of the input is installed together or not at all (see InstallTransaction).
  let install: InstallTransaction | null = null;
  const installed: string[] = [];
  // Sessions for a database store, written together at the end (DatabaseInstall).
  const databaseSessions: { lines: object[]; cwd: string }[] = [];
  let databaseConfig: string | null = null;

  /** One native line of the session: held for a database, a piece of a document, or a line. */
  const emit = async (current: OpenSession, line: object) => {
    if (current.database) {
      current.database.lines.push(line);
      return;
    }
    if (current.document) return writePiece(current.out, current.document, line);
    return current.out.writeJson(line);
  };
  const sides = new Set<string>();
  const refused = (err: unknown) => {
    if (err instanceof TargetExists) return taken(err.file);
    if (err instanceof UnsafePath) return new ToolError(err.message);
    return err;
  };

  const close = async () => {
    if (!open) return;
    const current = open;
    open = null;
    try {
      for (const { message, n } of current.continuable.messages()) {
        const lines = writeMessage(current, message, { src: current.src, n: n > 0 ? n : undefined });
        for (const l of lines) await emit(current, l);
        current.lines += lines.length;
      }
    } catch (err) {
      // What this run installed is taken back (see the transaction below).
      if (err instanceof NotContinuable) throw new ToolError(err.message);
      throw err;
    } finally {
      current.continuable.dispose();
    }
    if (current.continuable.sizeNote) ctx.note(current.continuable.sizeNote);
    const changed = current.continuable.summary();
    if (changed) ctx.note(`session ${current.id}: ${changed}`);
    for (const line of current.writer.finish()) await emit(current, line);
    current.document?.stitch.close(current.out);
    await current.out.end();
    if (current.database) {
      if (current.lines === 0) ctx.warn(null, `session ${current.id} has no message the client could load: not installed`);
      else databaseSessions.push(current.database);
      return;
    }
    if (current.stream && current.target && install) {
      current.stream.end();
      if (current.lines === 0) {
        install.discard(current.target.file);
        if (current.target.meta) install.discard(current.target.meta);
        ctx.warn(null, `session ${current.id} has no message the client could load: not installed`);
        return;
      }
      try {
        if (current.meta && current.target.meta) install.writeFile(current.target.meta, JSON.stringify(current.meta) + '\n');
        // A side file two sessions of the run need (one project's marker) is written once.
        for (const side of current.target.files ?? []) if (!sides.has(side.file)) sides.add(install.writeFile(side.file, side.text));
      } catch (err) {
        throw refused(err);
      }
      const entry = current.writer.indexEntry?.() ?? null;
      if (entry && current.target.index) {
        try {
          install.append(current.target.index, stringifyJson(entry) + '\n');
        } catch (err) {
          throw refused(err);
        }
      }
      installed.push(
        current.meta
          ? `installed subagent transcript ${current.target.file}`
          : `installed ${current.target.file}\n  continue it with: cd ${shellQuote(current.target.cwd)} && ${codec!.store!.resumeCommand(current.id)}`,
      );
    }
  };

  /** The native lines of one message, the writer's warnings reported where the message was read. */
  const writeMessage = (current: OpenSession, message: CommonMessage, where: { src?: string; n?: number }): object[] => {
    let lines: object[];
    try {
      lines = current.writer.message(message);
    } catch (err) {
      if (err instanceof ToolError) throw err;
      throw new ToolError(`${where.src ?? 'stdin'}${where.n !== undefined ? `:${where.n}` : ''}: ${(err as Error).message}`);
    }
    for (const w of current.writer.warnings.splice(0)) ctx.warn(where, w);
    return lines;
  };

  /** A writer of the session, told the model and the environment; a writer that refuses its options is a usage error. */
  const newWriter = (writerFor: NonNullable<Codec['fromCommon']>, session: CommonSession, options: FromCommonOptions): NativeWriter => {
    try {
      return writerFor(session, { ...options, env: ctx.proc.env, ...(typeof args.model === 'string' ? { model: args.model } : {}) });
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  };

  const start = async (session: CommonSession, src: string | undefined) => {
    await close();
    codec ??= await loadCodec(harness);
    const writerFor = codec.fromCommon!;
    const store = codec.store!;
    sessions++;
    if (sessions > 1 && args['session-id'] !== undefined) throw new UsageError('--session-id names one session, and the input holds several');
    const given = typeof session.id === 'string' && session.id !== '' ? session.id : 'session';
    const id: string = args['session-id'] ?? (isUuid(given) ? given.toLowerCase() : uuidV5(TXCRIPT_NAMESPACE, given));
    if (!args.install) {
      const layout = lineCodecFor(harness).document;
      const document = layout?.layout ? { harness, codec: layout, stitch: new DocumentStitch(), begun: false } : undefined;
      open = { writer: newWriter(writerFor, session, { sessionId: id, modelProvider: provider }), out: ctx.out, id, lines: 0, continuable: await continuable(session), src, document };
      return;
    }
    const config = args['config-dir'] ?? store.configDir(ctx.proc.env);
    if (!config) throw new ToolError(`no config directory: set ${codec.home ? `${codec.home.variable} or ` : ''}HOME, or use --config-dir`);
    const cwd = path.resolve(ctx.proc.cwd(), args.cwd ?? session.cwd ?? ctx.proc.cwd());
    if (store.database) {
      const root = path.resolve(ctx.proc.cwd(), config);
      if (databaseConfig !== null && databaseConfig !== root) throw new ToolError(`one config directory per run (${databaseConfig}, then ${root})`);
      databaseConfig = root;
      if (session.parent) ctx.warn(null, `session ${given}: a subagent's conversation is installed as a session of its own`);
      const writer = newWriter(writerFor, session, { sessionId: id, cwd });
      open = { writer, out: ctx.out, id: store.storeId?.(id) ?? id, lines: 0, continuable: await continuable(session), src, database: { lines: [], cwd } };
      return;
    }
    let target: InstallTarget;
    let stream: Writable;
    try {
      const root = path.resolve(ctx.proc.cwd(), config);
      install ??= new InstallTransaction(root);
      if (install.root !== root) throw new UnsafePath(`one config directory per run (${install.root}, then ${root})`);
      // A harness that keeps no subagent transcripts beside a session takes a subagent's conversation as a session of its own.
      const parent = store.keeps.subagents ? session.parent : undefined;
      target = store.installTarget!(root, cwd, id, parent ? { session: parent.session, agentId: parent.agent_id ?? id } : undefined, session.started_at);
      install.plan(target.file);
      if (parent && target.meta) install.plan(target.meta);
      stream = install.createStream(target.file);
    } catch (err) {
      throw refused(err);
    }
    const tx = install;
    const materialize = (artifact: ArtifactBlock) => {
      const bytes = artifact.source.type === 'base64' ? Buffer.from(artifact.source.data, 'base64') : Buffer.from(artifact.source.type === 'text' ? artifact.source.text : '');
      try {
        const file = beneath(path.join(target.sessionDir, 'artifacts'), artifact.name, 'artifact path');
        tx.plan(file);
        return tx.writeFile(file, bytes);
      } catch (err) {
        if (err instanceof UnsafePath) throw new ToolError(err.message);
        throw err;
      }
    };
    open = { writer: newWriter(writerFor, session, { sessionId: id, cwd, materialize, modelProvider: provider, config: tx.root }), out: new Output(stream), id, target, stream, lines: 0, continuable: await continuable(session), src };
    if (session.parent && store.keeps.subagents) {
      const p = session.parent;
      open.meta = { ...(p.agent_type ? { agentType: p.agent_type } : {}), ...(p.description ? { description: p.description } : {}), ...(p.tool_use_id ? { toolUseId: p.tool_use_id } : {}) };
    }
  };

  try {
    for await (const input of ctx.inputs()) {
      let long: LongReader | null = null;
      const natives = new NativeLines(ctx, input.src, () => stitch.close(ctx.out));
      // Nothing of a line outlives its batch (a record's bytes are copied out, a Common line
      // is parsed, a line held by NativeLines is copied), so a regular file or a pipe is read
      // into one buffer used again.
      for await (const batch of lineBatches(reusedChunks(input.stream))) {
        for (const line of batch) {
          if (isLongPiece(line)) {
            // Too long to hold: a record's raw_base64 is decoded as it streams by, a native line copied.
            if (args.install) throw new ToolError(`${input.src ?? 'stdin'}:${line.n}: a line longer than ${LONG_LINE} bytes cannot be installed`);
            if (line.first) {
              if (open) await close();
              natives.notNative();
              stitch.close(ctx.out);
              long = new LongReader(ctx, input.src, line.n, { long: () => 'native' }, true, DEFAULT_HARNESS);
            }
            long!.piece(line);
            await ctx.out.flushIfFull();
            continue;
          }
          const where = { src: input.src, n: line.n };
          if (isBlank(line.bytes)) {
            if (args.install) {
              if (line.bytes.length > 0) ctx.warn(where, 'blank line, skipped');
            } else await natives.oddLine(line, 'blank line');
            continue;
          }
          const type = args.install ? undefined : plainObjectType(line.bytes);
          if (type !== undefined && type !== 'session' && type !== 'message') {
            // A long native line, known without parsing it.
            await natives.nativeLine(line, async () => {
              if (open) await close();
            });
            continue;
          }
          const decoded = decodeLine(line.bytes, true);
          if (decoded.record) {
            if (args.install) throw new UsageError('--install writes sessions from a Common stream (tx-common output); records are written back without it');
            if (open) await close();
            natives.notNative();
            // A document's pieces are written back as the document (records/document-write.ts).
            stitch.write(ctx.out, decoded.record);
            await ctx.out.flushIfFull();
            continue;
          }
          if ('notRecord' in decoded) {
            natives.notNative();
            ctx.warn(where, `not a record (${decoded.notRecord}), skipped`);
            continue;
          }
          if ('error' in decoded) {
            if (args.install) ctx.warn(where, 'not JSON, skipped');
            // Among native lines it is kept, as tx-parse keeps it (an invalid record) and tx-native writes it back.
            else {
              stitch.close(ctx.out);
              await natives.oddLine(line, 'not JSON');
            }
            continue;
          }
          const value = decoded.value as { type?: unknown } | null;
          const object = value !== null && typeof value === 'object' && !Array.isArray(value);
          if (isCommonSession(value)) {
            natives.notNative();
            const { session, problems } = cleanSession(value);
            for (const problem of problems) ctx.warn(where, problem);
            stitch.close(ctx.out);
            await start(datedSession(session), input.src);
          } else if (isCommonMessageLine(value)) {
            natives.notNative();
            const current = open as OpenSession | null;
            if (!current) {
              ctx.warn(where, 'a Common message before any session line, skipped');
              continue;
            }
            current.continuable.push(value as CommonMessage, line.n);
            for (const w of current.continuable.warnings.splice(0)) ctx.warn(where, w);
          } else if (args.install) {
            ctx.warn(where, 'neither a record nor a Common line, skipped');
          } else if (object) {
            // A native session line: as a record of it would be written back, unchanged.
            await natives.nativeLine(line, async () => {
              if (open) await close();
              stitch.close(ctx.out);
            });
          } else {
            stitch.close(ctx.out);
            await natives.oddLine(line, 'a JSON value that is not an object');
          }
        }
      }
      natives.notNative();
    }
    await close();
    stitch.close(ctx.out);
    if (databaseConfig !== null && databaseSessions.length > 0) {
      let ids: string[];
      try {
        ids = codec!.store!.database!.install(databaseConfig, databaseSessions);
      } catch (err) {
        const message = (err as Error).message;
        throw new ToolError(/UNIQUE constraint/.test(message) ? `a session of that id is already in ${databaseConfig}: not overwritten; to install it as a new session, run: ${freshIdCommand(args)}` : message);
      }
      ids.forEach((id, i) => ctx.note(`installed session ${id} in ${databaseConfig}\n  continue it with: cd ${shellQuote(databaseSessions[i]!.cwd)} && ${codec!.store!.resumeCommand(id)}`));
    }
    const finished = install as InstallTransaction | null;
    if (finished) {
      try {
        await finished.commit();
      } catch (err) {
        throw refused(err);
      }
      for (const said of installed) ctx.note(said);
    }
  } finally {
    (open as OpenSession | null)?.continuable.dispose();
    // A refusal or an error anywhere takes back everything this run wrote.
    (install as InstallTransaction | null)?.abort();
  }
}

/** Nothing but spaces, tabs and a CR: what tx-parse calls a blank line. */
function isBlank(bytes: Buffer): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}

/** A `session` line of a Common stream: one that names its harness, or that no harness claims as its own native header (pi's is of the same type). */
function isCommonSession(value: any): boolean {
  return !!value && typeof value === 'object' && value.type === 'session' && (typeof value.harness === 'string' || detectHarness(value) === DEFAULT_HARNESS);
}

/** The tx-native tool. */
export const nativeTool: Tool = {
  name: 'tx-native',
  help: HELP,
  options: { string: ['session-id', 'config-dir', 'cwd', 'harness', 'context-window', 'model-provider', 'model'], boolean: ['install', 'from-compaction', 'strict-size'] },
  main,
};
