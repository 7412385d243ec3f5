// A codec is assembled from the members each tool loads on its own (lib/codec.ts,
// LineCodec): the partial registries hand out the very members of the whole codec,
// so tx-filter, tx-stats and tx-common see the codec every other tool sees.
import t from 'tap';
import { claudeLineCodec } from '../lib/claude-code/codec-line.js';
import { codecFor } from '../lib/codecs.js';
import { commonCodecFor } from '../lib/codecs-common.js';
import { filterCodecFor } from '../lib/codecs-filter.js';
import { statsCodecFor } from '../lib/codecs-stats.js';
import { codexLineCodec } from '../lib/codex/codec-line.js';
import type { Harness } from '../lib/record.js';

const HARNESSES: Harness[] = ['claude-code', 'codex'];

t.test('every member of a partial codec is the whole codec’s own', async (t) => {
  for (const harness of HARNESSES) {
    const whole = codecFor(harness) as unknown as Record<string, unknown>;
    for (const [name, part] of [['filter', filterCodecFor(harness)], ['stats', statsCodecFor(harness)], ['common', commonCodecFor(harness)]] as const) {
      const members = Object.entries(part);
      t.ok(members.length >= 7, `${harness} ${name}: the line members and its own`);
      for (const [key, value] of members) t.equal(value, whole[key], `${harness} ${name}.${key} is the codec's ${key}`);
    }
  }
});

t.test('the line members are those of the harness named', async (t) => {
  t.equal(codecFor('claude-code').envelope, claudeLineCodec.envelope);
  t.equal(codecFor('codex').classify, codexLineCodec.classify);
  t.equal(statsCodecFor('codex').harness, 'codex');
  t.equal(filterCodecFor('claude-code').harness, 'claude-code');
  t.equal(commonCodecFor('codex').sessionFollows, true, 'Codex names its session once');
  t.same(claudeLineCodec.envelope({ sessionId: 's', timestamp: 't', isSidechain: true }), { session: 's', timestamp: 't', sidechain: true });
  t.same(codexLineCodec.envelope({ type: 'session_meta', timestamp: 't', payload: { id: 'x' } }), { session: 'x', timestamp: 't', sidechain: false });
});

t.test('the whole codec still has every member the interface names', async (t) => {
  for (const harness of HARNESSES) {
    const codec = codecFor(harness);
    for (const key of ['texts', 'fromCommon', 'continueRules', 'store', 'markup', 'toCommon', 'stats', 'question', 'lineView', 'strings']) t.ok(key in codec, `${harness} has ${key}`);
  }
});
