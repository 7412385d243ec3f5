// tx-redact: replace the secrets in records, Common lines, native session lines or plain
// text with [REDACTED:<rule>], line for line; --report says what was replaced (never the
// secret), --check only says whether anything would be.
import { createWriteStream, openSync, closeSync, fstatSync, readSync } from 'node:fs';
import { keepYoungSize, sizeHeaps } from '../core/parallel/heap-flags.js';
import { splitLines, type PhysicalLine } from '../core/input/lines.js';
import { Output } from '../core/output/output.js';
import { ToolError, UsageError, type Context, type Tool } from '../core/tool.js';
import { HomeMasker } from '../redact/home.js';
import { redactLine } from '../redact/redact-line.js';
import { TextRedactor, type Redaction } from '../redact/redact-text.js';
import { defaultRuleSet, parseRulesFile, type Rule } from '../redact/rules.js';
import { secretlintRules } from '../redact/secretlint.js';
import { Scanner } from '../redact/scan.js';

const HELP = `usage: tx-redact [--home] [--rules FILE]... [--report | --report-file FILE] [FILE...]
       tx-redact --check [--report] [FILE...]
       tx-redact --text [options] [FILE...]
       tx-redact --list-rules

Replace each secret in the string values of NDJSON lines (records from tx-parse,
Common lines, native session lines) with [REDACTED:<rule>]. Strings holding JSON
text and base64 that decodes to text are searched too. A line with nothing to
redact is written back byte for byte; a record keeps its header and 'line' stays
its last key. Rules: secretlint's recommended preset and tx-redact's own.

      --home              also mask user names in home-directory paths, and those
                          names wherever they appear afterwards
      --rules FILE        add rules: one JSON object a line, {"id":…,"regex":…}
                          (repeatable; see tx-redact(1))
      --report            one NDJSON line per secret on stderr: rule, n, src, hash
      --report-file FILE  the same, into FILE
      --check             write nothing; exit 1 if anything would be redacted
      --text              the input is plain text, redacted line by line
      --list-rules        print the rule names, one a line, and exit
      --strict            exit 1 if a line was not UTF-8 or too deeply nested
  -h, --help              this text        --version   the version
See tx-redact(1).`;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const CRLF = Buffer.from('\r\n');
const LF = Buffer.from('\n');
/** A --rules file is read whole; a larger one is not a list of patterns. */
const MAX_RULES_FILE = 4 << 20;

function readRulesFile(name: string): string {
  let fd: number;
  try {
    fd = openSync(name, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`--rules ${name}: cannot read: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UsageError(`--rules ${name}: not a regular file`);
    if (st.size > MAX_RULES_FILE) throw new UsageError(`--rules ${name}: larger than ${MAX_RULES_FILE} bytes`);
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < st.size) {
      const n = readSync(fd, buf, got, st.size - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.toString('utf8', 0, got);
  } finally {
    closeSync(fd);
  }
}

function extraRules(args: Context['args']): Rule[] {
  if (args.rules === undefined) return [];
  const rules: Rule[] = [];
  for (const name of ([] as unknown[]).concat(args.rules).map(String)) {
    try {
      rules.push(...parseRulesFile(readRulesFile(name), name));
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw new UsageError(`--rules ${(err as Error).message}`);
    }
  }
  return rules;
}

async function writeLine(ctx: Context, line: PhysicalLine, bytes: Buffer | string): Promise<void> {
  if (line.bom) await ctx.out.write(BOM);
  await ctx.out.write(bytes);
  if (line.eol) await ctx.out.write(line.crlf ? CRLF : LF);
}

async function main(ctx: Context): Promise<void> {
  const { args } = ctx;
  if (typeof args['report-file'] === 'string' && args['report-file'] === '') throw new UsageError('--report-file needs a file name');
  const ruleSet = defaultRuleSet(extraRules(args));
  if (args['list-rules']) {
    for (const id of [...secretlintRules(), ...ruleSet.rules.map((r) => r.id)]) await ctx.out.write(`${id}\n`);
    if (args.home) await ctx.out.write('home\n');
    return;
  }
  // Each line of megabytes leaves several copies of itself behind (its text, the parsed
  // strings, their redacted forms): a heap that may grow only by half collects them sooner.
  sizeHeaps();
  keepYoungSize();
  const redactor = new TextRedactor(new Scanner(ruleSet), args.home ? new HomeMasker() : null);
  const check = Boolean(args.check);
  const text = Boolean(args.text);
  let report: Output | null = null;
  if (typeof args['report-file'] === 'string') {
    const stream = createWriteStream(args['report-file']);
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', (err) => reject(new UsageError(`--report-file ${args['report-file']}: cannot write: ${err.message}`)));
    });
    report = new Output(stream);
  } else if (args.report) report = new Output(ctx.proc.stderr);

  let secrets = 0;
  let lines = 0;
  try {
    for await (const input of ctx.inputs()) {
      for await (const line of splitLines(input.stream)) {
        const where = { src: input.src, n: line.n };
        const result = await redactLine(line.bytes, redactor, text);
        if (result.kind === 'skipped') {
          ctx.warn(where, result.why);
          if (!check) await writeLine(ctx, line, line.bytes);
          continue;
        }
        if (result.notJson && result.kind === 'changed') ctx.note(`${input.src ?? 'stdin'}:${line.n}: not JSON, redacted as text`);
        if (result.kind === 'same') {
          if (!check) await writeLine(ctx, line, line.bytes);
          continue;
        }
        lines++;
        secrets += result.found.length;
        if (report) {
          const at = result.record ?? { n: line.n, src: input.src };
          for (const r of result.found) await report.write(JSON.stringify(reportLine(r, at)) + '\n');
        }
        if (!check) await writeLine(ctx, line, result.text);
      }
    }
  } finally {
    if (report) await report.end().catch(() => {});
  }
  if (check && secrets > 0) throw new ToolError(`${secrets} secret${secrets === 1 ? '' : 's'} to redact on ${lines} line${lines === 1 ? '' : 's'}`);
}

function reportLine(r: Redaction, at: { n: number; src?: string }): Record<string, unknown> {
  const line: Record<string, unknown> = { rule: r.rule, n: at.n };
  if (at.src !== undefined) line.src = at.src;
  line.hash = r.hash;
  return line;
}

/** The tx-redact tool. */
export const redactTool: Tool = {
  name: 'tx-redact',
  help: HELP,
  options: {
    string: ['rules', 'report-file'],
    boolean: ['home', 'report', 'check', 'text', 'list-rules'],
  },
  main,
};
