// The registry (lib/codecs.ts): one entry per harness, its facets imported on demand. A
// facet a tool loads on its own hands out the very members of the whole codec, so
// tx-filter, tx-stats and tx-common see the codec every other tool sees.
import t from 'tap';
import { claudeLineCodec } from '../lib/claude-code/codec-line.js';
import { DEFAULT_HARNESS, detectHarness, facetOf, HARNESSES, isHarness, lineCodecFor, loadAll, loadFacet } from '../lib/codecs.js';
import { codexLineCodec } from '../lib/codex/codec-line.js';

t.test('every member of a facet is the whole codec’s own', async (t) => {
  t.ok(HARNESSES.length >= 2, 'the registry lists the harnesses');
  for (const harness of HARNESSES) {
    const whole = (await loadFacet(harness, 'codec')) as unknown as Record<string, unknown>;
    for (const facet of ['codec-filter', 'codec-stats', 'codec-common'] as const) {
      const members = Object.entries(await loadFacet(harness, facet));
      t.ok(members.length >= 9, `${harness} ${facet}: the line members and its own`);
      for (const [key, value] of members) t.equal(value, whole[key], `${harness} ${facet}.${key} is the codec's ${key}`);
    }
  }
});

t.test('the line members are those of the harness named, and each facet is that harness’s', async (t) => {
  t.equal((await loadFacet('claude-code', 'codec')).envelope, claudeLineCodec.envelope);
  t.equal((await loadFacet('codex', 'codec')).classify, codexLineCodec.classify);
  t.equal((await loadFacet('codex', 'codec-stats')).harness, 'codex');
  t.equal((await loadFacet('claude-code', 'codec-filter')).harness, 'claude-code');
  t.equal((await loadFacet('codex', 'codec-common')).sessionFollows, true, 'Codex names its session once');
  t.equal(lineCodecFor('codex'), codexLineCodec);
  t.same(claudeLineCodec.envelope({ sessionId: 's', timestamp: 't', isSidechain: true }), { session: 's', timestamp: 't', sidechain: true });
  t.same(codexLineCodec.envelope({ type: 'session_meta', timestamp: 't', payload: { id: 'x' } }), { session: 'x', timestamp: 't', sidechain: false });
});

t.test('the whole codec still has every member the interface names', async (t) => {
  for (const codec of await loadAll('codec')) {
    for (const key of ['label', 'home', 'texts', 'fromCommon', 'continueRules', 'store', 'markup', 'toCommon', 'stats', 'question', 'lineView', 'strings']) t.ok(key in codec, `${codec.harness} has ${key}`);
    if (codec.store) for (const key of ['idOf', 'keeps', 'discover', 'scan', 'installTarget']) t.ok(key in codec.store, `${codec.harness}'s store has ${key}`);
  }
});

t.test('detection: the last harness reads any object no other claims; an unknown name gets the default codec', async (t) => {
  t.ok(HARNESSES.includes(DEFAULT_HARNESS), 'the default harness is registered');
  t.equal(detectHarness({ type: 'session_meta', timestamp: 't', payload: { id: 'x' } }), 'codex');
  t.equal(detectHarness({ anything: 1 }), DEFAULT_HARNESS);
  t.notOk(isHarness('__proto__'), 'a name from the data is looked up in a Map');
  t.equal(lineCodecFor('__proto__').harness, DEFAULT_HARNESS);
});

t.test('facetOf answers only for a facet loaded before', async (t) => {
  await loadFacet('codex', 'codec-filter');
  t.equal(facetOf('codex', 'codec-filter').harness, 'codex');
  t.throws(() => facetOf('claude-code', 'no-such-facet' as never), /before it was loaded/);
});
