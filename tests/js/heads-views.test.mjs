// The head views' state and display logic without a browser: the field table for the address
// codec, checking and fitting the fields, their engine options, the grouping the split view
// draws (checked against the engine), and the shuffle experiment.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';

import { createAttention } from '../../web/src/engine/attention.js';
import { kvHeadOf } from '../../web/src/heads/split-view.js';
import { headColor, textOn, weightColor } from '../../web/src/render/colors.js';
import { FIELDS, LESSON_FIELDS, STRUCTURE_DEFAULTS, STRUCTURE_FIELDS, sentenceTokens } from '../../web/src/state/schema.js';
import { compareRows, inverseOrder, reorderConfig, shuffledOrder } from '../../web/src/positions/shuffle.js';
import { shuffleRuns } from '../../web/src/compute/plan.js';
import { PRESETS } from '../../web/src/state/presets.js';
import { applyStructure, toEngineConfig, validateDraft, validateStructure } from '../../web/src/state/validate.js';
import { stateToDraft, structureDraftOf } from '../../web/src/state/draft.js';

let engine;
before(async () => {
  engine = await createAttention();
});

const limits = { maxTokens: 1024, maxDModel: 1024 };
const ctx = { heads: 4, maxTokens: 1024 };

test('the field table has the codec’s shape, a default per field, and params of its own', () => {
  const kinds = new Set(['string', 'int', 'number', 'float', 'enum', 'bool', 'matrix', 'bools', 'boolMatrix']);
  for (const field of STRUCTURE_FIELDS) {
    assert.deepEqual(Object.keys(field).sort(), field.kind === 'enum' ? ['key', 'kind', 'param', 'values'] : ['key', 'kind', 'param']);
    assert.ok(kinds.has(field.kind), field.key);
    assert.ok(Object.hasOwn(STRUCTURE_DEFAULTS, field.key), field.key);
    if (field.kind === 'enum') assert.ok(field.values.includes(STRUCTURE_DEFAULTS[field.key]), field.key);
  }
  assert.deepEqual(Object.keys(STRUCTURE_DEFAULTS).sort(), STRUCTURE_FIELDS.map((f) => f.key).sort());
  const taken = new Set([...FIELDS, ...LESSON_FIELDS].flatMap((f) => [f.key, f.param]));
  for (const field of STRUCTURE_FIELDS) {
    assert.ok(!taken.has(field.param), `param ${field.param} is taken`);
    assert.ok(!taken.has(field.key), `key ${field.key} is taken`);
  }
  // Every preset holds the fields at their defaults (state/presets.js).
  for (const [id, preset] of Object.entries(PRESETS)) assert.deepEqual(structureDraftOf(preset.state), STRUCTURE_DEFAULTS, id);
});

test('checking fits key/value heads and the source padding, and names what cannot be used', () => {
  assert.deepEqual(validateStructure({}, ctx), { ok: true, fields: { ...STRUCTURE_DEFAULTS } });
  // kvHeads: 0 (one per query head), a divisor, or fitted to the largest divisor below it.
  const kv = (value, heads = 4) => validateStructure({ kvHeads: value }, { ...ctx, heads }).fields.kvHeads;
  assert.equal(kv(2), 2);
  assert.equal(kv(1), 1);
  assert.equal(kv(3), 2);
  assert.equal(kv(4), 0);
  assert.equal(kv(9), 0);
  assert.equal(kv(2, 3), 1);
  // Text from an address reads like typed values.
  const text = validateStructure({ kvHeads: '2', cross: '1', crossCausal: 'true', sourcePadding: '0100', shuffle: '7', source: 'a b c d' }, ctx);
  assert.equal(text.ok, true);
  assert.deepEqual(text.fields.sourcePadding, [false, true, false, false]);
  assert.equal(text.fields.cross, true);
  assert.equal(text.fields.shuffle, 7);
  // Padding follows the source's length; none left set → null.
  assert.deepEqual(validateStructure({ source: 'a b', sourcePadding: [false, true, true] }, ctx).fields.sourcePadding, [false, true]);
  assert.equal(validateStructure({ source: 'a b', sourcePadding: [false, false, true] }, ctx).fields.sourcePadding, null);

  const bad = validateStructure({ tokenization: 'bytes' }, ctx);
  assert.deepEqual(bad, { ok: false, error: { key: 'heads.error.value', params: { name: 'tok', text: 'bytes' }, field: null } });
  assert.equal(validateStructure({ cross: true, source: '   ' }, ctx).error.key, 'heads.error.noSource');
  assert.equal(validateStructure({ cross: false, source: '' }, ctx).ok, true);
  const long = validateStructure({ cross: true, source: 'x '.repeat(1025) }, ctx);
  assert.deepEqual(long.error, { key: 'heads.error.sourceTooMany', params: { T: 1025, max: 1024 }, field: 'source' });
});

test('the engine options: kvHeads, positions, and in cross-attention the source with its own mask', () => {
  const base = { tokens: ['a', 'b'], dModel: 4, heads: 2, mask: 'window', window: 2, padding: [true, false] };
  const state = { ...STRUCTURE_DEFAULTS, heads: 2 };
  assert.deepEqual(applyStructure(base, state), base);
  assert.equal(applyStructure(base, { ...state, kvHeads: 1 }).kvHeads, 1);
  assert.equal(applyStructure(base, { ...state, kvHeads: 2 }).kvHeads, undefined);
  assert.equal(applyStructure(base, { ...state, positional: 'sinusoidal' }).positional, 'sinusoidal');
  const cross = applyStructure(base, { ...state, cross: true, source: 'x y z', sourcePadding: [false, false, true] });
  assert.deepEqual(cross, {
    tokens: ['a', 'b'],
    dModel: 4,
    heads: 2,
    mask: 'none',
    source: { tokens: ['x', 'y', 'z'] },
    padding: [false, false, true],
  });
  assert.equal(applyStructure(base, { ...state, cross: true, source: 'x', crossCausal: true }).mask, 'causal');

  // Through the page's own path: a state with Chinese words, GQA, positions and a source.
  const draft = {
    ...stateToDraft(PRESETS.default.state),
    sentence: '我爱自然语言处理',
    tokenization: 'word',
    kvHeads: 1,
    positional: 'sinusoidal',
    cross: true,
    source: 'I love NLP',
  };
  const checked = validateDraft(draft, limits);
  assert.equal(checked.ok, true);
  assert.deepEqual(checked.tokens, ['我', '爱', '自然', '语言', '处理']);
  assert.deepEqual(sentenceTokens(checked.state), checked.tokens);
  const result = engine.compute(toEngineConfig(checked.state));
  assert.equal(result.T, 5);
  assert.equal(result.Tk, 3);
  assert.equal(result.kvHeads, 1);
  assert.equal(result.perHead[1].weights.cols, 3);
  assert.ok(result.positions);
  // Char mode: one token per character; past the limit the page's check says so.
  assert.equal(validateDraft({ ...draft, tokenization: 'char' }, limits).tokens.length, 8);
  const tooMany = validateDraft({ ...draft, tokenization: 'char', sentence: '字'.repeat(1025) }, limits);
  assert.deepEqual(tooMany.error, { key: 'error.tooManyTokens', params: { T: 1025, max: 1024 }, field: 'sentence' });
});

test('the split view’s grouping is the engine’s: query head h reads key/value head ⌊h / (H/G)⌋', () => {
  for (const [heads, kvHeads] of [
    [4, 2],
    [6, 3],
    [4, 1],
    [6, 2],
    [3, 3],
  ]) {
    const dModel = heads * 2;
    const r = engine.compute({ tokens: ['a', 'b', 'c'], dModel, heads, kvHeads, seed: 5 });
    for (let h = 0; h < heads; h += 1) {
      const g = kvHeadOf(h, heads, kvHeads);
      const { k, v } = r.perHead[h];
      for (let t = 0; t < 3; t += 1) {
        for (let c = 0; c < r.dK; c += 1) {
          assert.equal(k.data[t * r.dK + c], r.k.data[t * r.k.cols + g * r.dK + c], `k h${h} g${g}`);
          assert.equal(v.data[t * r.dK + c], r.v.data[t * r.v.cols + g * r.dK + c], `v h${h} g${g}`);
        }
      }
    }
  }
});

test('head colours are categorical and distinct; weights use viridis', () => {
  const colours = Array.from({ length: 10 }, (_, h) => headColor(h, 10));
  assert.equal(new Set(colours).size, 10);
  assert.equal(headColor(0, 2), '#4e79a7');
  assert.equal(new Set(Array.from({ length: 16 }, (_, h) => headColor(h, 16))).size, 16);
  assert.equal(weightColor(0), '#440154');
  assert.equal(weightColor(1), '#fde725');
  assert.equal(weightColor(Number.NaN), weightColor(0));
  assert.equal(textOn(weightColor(0)), '#ffffff');
  assert.equal(textOn(weightColor(1)), '#000000');
});

test('a shuffled order is a permutation, never the identity, the same for the same seed', () => {
  for (let T = 2; T <= 12; T += 1) {
    for (let seed = 1; seed < 40; seed += 1) {
      const order = shuffledOrder(T, seed);
      assert.deepEqual(
        [...order].sort((a, b) => a - b),
        Array.from({ length: T }, (_, i) => i),
      );
      assert.ok(
        order.some((v, i) => v !== i),
        `T ${T} seed ${seed}`,
      );
      const inverse = inverseOrder(order);
      order.forEach((typed, p) => assert.equal(inverse[typed], p));
    }
  }
  assert.deepEqual(shuffledOrder(6, 9), shuffledOrder(6, 9));
  assert.deepEqual(shuffledOrder(1, 3), [0]);
  const config = reorderConfig(
    { tokens: ['a', 'b', 'c'], embeddings: [[1], [2], [3]], mask: 'custom', customMask: [[true]], padding: [true, false, false] },
    [2, 0, 1],
  );
  assert.deepEqual(config, { tokens: ['c', 'a', 'b'], embeddings: [[3], [1], [2]], mask: 'none' });
});

test('rows are compared after undoing the order', () => {
  const typed = { rows: 3, cols: 2, data: Float32Array.from([1, 2, 3, 4, 5, 6]) };
  const order = [2, 0, 1]; // shuffled row 0 holds typed token 2, …
  const moved = { rows: 3, cols: 2, data: Float32Array.from([5, 6, 1, 2, 3, 4]) };
  const same = compareRows(typed, moved, order, ['a', 'b', 'c']);
  assert.equal(same.changed, 0);
  assert.deepEqual(
    same.rows.map((r) => [r.token, r.from, r.to]),
    [
      ['a', 0, 1],
      ['b', 1, 2],
      ['c', 2, 0],
    ],
  );
  const changed = compareRows(typed, { ...moved, data: Float32Array.from([5, 6, 1, 2.5, 3, 4]) }, order, ['a', 'b', 'c']);
  assert.equal(changed.changed, 1);
  assert.equal(changed.rows[0].same, false);
  assert.equal(changed.maxDiff, 0.5);
});

// The shuffle experiment as the page's plan asks for it, compared as its panel compares it.
function runShuffle(engine, config, seed) {
  const order = shuffledOrder(config.tokens.length, seed);
  const output = new Map(shuffleRuns(config, seed).map(({ id, config: run }) => [id, engine.compute(run).output]));
  const compared = (positional) => {
    const typed = output.get(`shuffle.${positional}.typed`),
      shuffled = output.get(`shuffle.${positional}.shuffled`);
    return { typed, shuffled, ...compareRows(typed, shuffled, order, config.tokens) };
  };
  return { order, none: compared('none'), sinusoidal: compared('sinusoidal') };
}

test('without positions the outputs move with the tokens; with them they change (engine runs)', () => {
  const config = { tokens: ['the', 'cat', 'sat', 'on', 'the', 'mat'], dModel: 8, heads: 2, seed: 3 };
  for (const extra of [{}, { kvHeads: 1 }, { source: { tokens: ['le', 'chat', 'dort'] } }]) {
    const run = runShuffle(engine, { ...config, ...extra }, 11);
    assert.ok(run, JSON.stringify(extra));
    assert.equal(run.none.changed, 0, `none ${JSON.stringify(extra)} ${run.none.maxDiff}`);
    assert.ok(run.none.maxDiff < 1e-5);
    assert.ok(run.sinusoidal.changed > 0, `sinusoidal ${JSON.stringify(extra)}`);
  }
  // Hand-made embeddings move with their tokens.
  const embeddings = config.tokens.map((_, i) => Array.from({ length: 8 }, (__, c) => Math.sin(i + c)));
  const run = runShuffle(engine, { ...config, embeddings }, 5);
  assert.equal(run.none.changed, 0);
});

test('edited weights with shared key/value heads are refused before the engine sees them', async () => {
  const { validateDraft } = await import('../../web/src/state/validate.js');
  const { PRESETS } = await import('../../web/src/state/presets.js');
  const { stateToDraft } = await import('../../web/src/state/draft.js');
  const base = { ...stateToDraft(PRESETS.default.state) };
  const identity = (n) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  const w = identity(base.dModel);
  const withEdits = { ...base, heads: 2, kvHeads: 1, wq: w, wk: w, wv: w, wo: w };
  const checked = validateDraft(withEdits, { maxTokens: 1024, maxDModel: 1024 });
  assert.equal(checked.ok, false);
  assert.equal(checked.error.key, 'heads.error.editedWeights');
  assert.equal(validateDraft({ ...withEdits, kvHeads: 0 }, { maxTokens: 1024, maxDModel: 1024 }).ok, true);
});
