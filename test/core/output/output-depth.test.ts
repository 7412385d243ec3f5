// Output.writeJson writes a value of any depth: tx-stats and tx-ls write their objects
// through it, so a value nested 100,000 deep must come out as JSON, not as
// "Maximum call stack size exceeded".
import { Writable } from 'node:stream';
import t from 'tap';
import { Output } from '../../../lib/core/output/output.js';

t.test('writeJson writes a value nested 100,000 deep as the JSON it was parsed from', async (t) => {
  let text = '"leaf"';
  for (let i = 0; i < 100_000; i++) text = i % 2 ? `[${text}]` : `{"k":${text}}`;
  const value = { summary: JSON.parse(text), n: 1 };
  t.throws(() => JSON.stringify(value), RangeError, 'too deep for native JSON.stringify');
  const pieces: Buffer[] = [];
  const out = new Output(
    new Writable({
      write(chunk, _enc, cb) {
        pieces.push(Buffer.from(chunk));
        cb();
      },
    }),
  );
  await out.writeJson(value);
  await out.end();
  t.equal(Buffer.concat(pieces).toString(), `{"summary":${text},"n":1}\n`);
});
