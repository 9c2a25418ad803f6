// The link codec (web/src/state/url.js): the state is the link. Round trips over random valid
// states, only non-default values written, compression, versions, and what a hostile link gets.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createAttention } from '../../web/src/engine/attention.js';
import { DICTIONARIES } from '../../web/src/i18n/index.js';
import { PRESETS } from '../../web/src/state/presets.js';
import {
  ALL_FIELDS,
  FIELDS,
  HIDEABLE,
  LIMITS,
  SCHEMA_VERSION,
  decodeHash,
  encodeHash,
  formatFloat32,
  migrate,
  presetState,
} from '../../web/src/state/url.js';
import { checkTable, recipeItem } from '../../web/src/state/schema.js';
import { GENERATORS, asFloat32, randomPage, rng } from './share-random.mjs';

test('random valid states survive the link unchanged (1000 round trips)', () => {
  const r = rng(20240521);
  for (let i = 0; i < 1000; i += 1) {
    const page = randomPage(r);
    const hash = encodeHash(page);
    const decoded = decodeHash(hash);
    const where = `case ${i}: ${hash.slice(0, 300)}`;
    assert.deepEqual(decoded.ignored, [], where);
    assert.equal(decoded.presetId, page.presetId, where);
    assert.equal(decoded.lang, page.lang, where);
    assert.deepEqual(decoded.view, { embed: page.view.embed, hidden: page.view.hidden }, where);
    assert.deepEqual(asFloat32(decoded.state), asFloat32(page.state), where);
    // Writing the decoded state again gives the same link.
    assert.equal(encodeHash({ ...page, state: decoded.state }), hash, where);
  }
});

test('every field of the link table has a random generator and an i18n-free param', () => {
  for (const field of ALL_FIELDS) {
    assert.ok(GENERATORS[field.key], `share-random.mjs needs a generator for ${field.key}`);
    assert.match(field.param, /^[a-z][a-z0-9]*$/i, field.key);
  }
  assert.equal(new Set(ALL_FIELDS.map((f) => f.param)).size, ALL_FIELDS.length, 'params are unique');
  assert.equal(new Set(ALL_FIELDS.map((f) => f.key)).size, ALL_FIELDS.length, 'keys are unique');
  assert.throws(() => checkTable([...FIELDS, { key: 'other', param: 's', kind: 'string' }]), /used twice/);
  assert.throws(() => checkTable([{ key: 'a', param: 'v', kind: 'int' }]), /reserved/);
});

test('the codec’s limits are the engine’s', async () => {
  const engine = await createAttention();
  assert.equal(LIMITS.maxTokens, engine.info.limits.maxTokens);
  assert.equal(LIMITS.maxDModel, engine.info.limits.maxDModel);
  assert.equal(LIMITS.maxTokenBytes, engine.info.limits.maxTokenBytes);
  // The train recipe's ranges lie within what the core trains.
  const most = {
    contextLength: 'maxTrainContext',
    batchSize: 'maxTrainBatch',
    vocab: 'maxTrainVocab',
    layers: 'maxTrainLayers',
    dModel: 'maxTrainWidth',
  };
  for (const [key, limit] of Object.entries(most)) assert.ok(recipeItem(key).range[1] <= engine.info.limits[limit], key);
});

test('only what differs from the preset is written, after v=1', () => {
  const journey = presetState('journey');
  assert.equal(encodeHash({ presetId: 'journey', state: journey }), '#preset=journey');
  assert.equal(encodeHash({ presetId: 'default', state: presetState('default') }), '');
  assert.equal(
    encodeHash({ presetId: 'journey', state: { ...journey, mask: 'none', temperature: 0.5 }, lang: 'zh-CN' }),
    '#preset=journey&v=1&mask=none&tau=0.5&lang=zh-CN',
  );
  assert.equal(
    encodeHash({ presetId: 'default', state: presetState('default'), view: { embed: true, hidden: ['heads', 'prose'] } }),
    '#v=1&embed=1&heads_hide=1&prose_hide=1',
  );
  // Keys the caller leaves out count as the preset's.
  assert.equal(encodeHash({ presetId: 'journey', state: { dModel: 3, heads: 1 } }), '#preset=journey');
});

test('links stay readable: words, numbers and matrices as text', () => {
  const state = {
    ...presetState('journey'),
    sentence: 'The cat sat',
    embeddings: [
      [1, 0.5],
      [-2, 0.25],
      [0, 1e-7],
    ],
    dModel: 2,
    heads: 2,
  };
  const hash = encodeHash({ presetId: 'journey', state });
  assert.equal(hash, '#preset=journey&v=1&s=The+cat+sat&d=2&h=2&x=1,0.5;-2,0.25;0,1e-7');
  assert.deepEqual(decodeHash(hash).state.embeddings, state.embeddings);
});

test('a large matrix is compressed with lz-string when that is clearly shorter', () => {
  const r = rng(7);
  const T = 24;
  const dModel = 32;
  const sentence = Array.from({ length: T }, (_, i) => `t${i}`).join(' ');
  // Typed-looking numbers repeat a lot: lz-string packs them well.
  const embeddings = Array.from({ length: T }, () => Array.from({ length: dModel }, () => r.pick([0, 0.5, 1, -1, 0.25])));
  const state = { ...presetState('default'), sentence, dModel, heads: 4, embeddings };
  const hash = encodeHash({ presetId: 'default', state });
  const x = /&x=([^&]*)/.exec(hash)[1];
  assert.ok(x.startsWith('~'), 'written compressed');
  const plain = embeddings.map((row) => row.join(',')).join(';');
  assert.ok(x.length <= 0.7 * plain.length, `${x.length} vs ${plain.length}`);
  assert.deepEqual(decodeHash(hash).state.embeddings, embeddings);
  // A small one stays plain.
  const small = { ...state, sentence: 'a', dModel: 4, heads: 1, embeddings: [[0.5, 1, -1, 0.25]] };
  assert.match(encodeHash({ presetId: 'default', state: small }), /&x=0\.5,1,-1,0\.25$/);
  // A few rows of typed numbers stay readable even when lz-string would save a quarter.
  const typed = Array.from({ length: 5 }, (_, i) => Array.from({ length: 6 }, (_, j) => Number((Math.sin(i * 6 + j) * 0.9).toFixed(4))));
  const five = { ...state, sentence: 'a b c d e', dModel: 6, heads: 2, embeddings: typed };
  assert.match(encodeHash({ presetId: 'default', state: five }), /&x=-?\d/);
});

test('matrix numbers are written as the shortest decimal of the same float32', () => {
  assert.equal(formatFloat32(0.43), '0.43');
  assert.equal(formatFloat32(Math.fround(0.1)), '0.1');
  assert.equal(formatFloat32(-0), '0');
  assert.equal(formatFloat32(1e-7), '1e-7');
  const value = Math.fround(Math.PI);
  assert.equal(Math.fround(Number(formatFloat32(value))), value);
  assert.ok(formatFloat32(value).length <= 11);
});

test('a link without v is version 1; a newer version is read as far as it goes', () => {
  assert.equal(decodeHash('#preset=journey&mask=none').version, 1);
  const newer = decodeHash(`#v=${SCHEMA_VERSION + 1}&d=4&h=2&future=1`);
  assert.equal(newer.state.dModel, 4);
  assert.deepEqual(
    newer.ignored.map((item) => item.key),
    ['share.ignored.newer', 'share.ignored.unknown'],
  );
});

test('migrations run step by step from an old version', () => {
  // A made-up history: version 1 called the heads "heads", version 2 calls them "h".
  const steps = { 1: (params) => new Map([...params].map(([k, v]) => [k === 'heads' ? 'h' : k, v])) };
  const migrated = migrate(
    new Map([
      ['heads', '2'],
      ['d', '4'],
    ]),
    1,
    2,
    steps,
  );
  assert.deepEqual(
    [...migrated],
    [
      ['h', '2'],
      ['d', '4'],
    ],
  );
  assert.throws(() => migrate(new Map(), 1, 3, steps), /no migration from link version 2/);
  // The real table: nothing to do at the current version.
  assert.deepEqual([...migrate(new Map([['d', '4']]), SCHEMA_VERSION)], [['d', '4']]);
});

// What a hostile or broken link opens as: the valid part, the rest at the preset's values, and
// a list saying what was ignored.
const HOSTILE = [
  ['#d=99999', { dModel: 1024, heads: 2 }, ['share.ignored.clamped']],
  ['#d=5', { dModel: 5, heads: 1 }, ['share.ignored.heads']],
  ['#preset=journey&h=2', { heads: 1 }, ['share.ignored.heads']],
  ['#preset=journey&s=The+cat', { sentence: 'The cat', embeddings: null }, ['share.ignored.shapeDropped']],
  ['#preset=journey&x=1,2;3,4', { embeddings: PRESETS.journey.state.embeddings }, ['share.ignored.shape']],
  ['#s=a+b&d=2&x=1,2;3,4;5,6', { embeddings: null }, ['share.ignored.shapeDropped']],
  [
    '#d=2&x=2e6,1;1,1;1,1;1,1;1,1;1,-3e6',
    {
      embeddings: [
        [1e6, 1],
        [1, 1],
        [1, 1],
        [1, 1],
        [1, 1],
        [1, -1e6],
      ],
    },
    ['share.ignored.clamped'],
  ],
  ['#s=+++', { sentence: PRESETS.default.state.sentence }, ['share.ignored.noTokens']],
  [
    '#h=abc&mask=sideways&scale=maybe',
    { heads: 2, mask: 'causal', scale: true },
    ['share.ignored.malformed', 'share.ignored.malformed', 'share.ignored.malformed'],
  ],
  ['#x=1,2;3', { embeddings: null }, ['share.ignored.malformed']],
  ['#x=NaN,1', { embeddings: null }, ['share.ignored.malformed']],
  ['#x=1e39', { embeddings: null }, ['share.ignored.malformed']],
  ['#x=~!!!notlz', { embeddings: null }, ['share.ignored.malformed']],
  ['#preset=__proto__', {}, ['share.ignored.preset']],
  ['#preset=nope&d=4', { dModel: 4 }, ['share.ignored.preset']],
  ['#d=4&d=8', { dModel: 4 }, ['share.ignored.duplicate']],
  ['#%E0%A4%A=1&d=4', { dModel: 4 }, ['share.ignored.unreadable']],
  ['#constructor=1&toString=2', {}, ['share.ignored.unknown', 'share.ignored.unknown']],
  ['#foo_hide=1&heads_hide=yes', {}, ['share.ignored.unknown', 'share.ignored.malformed']],
  ['#lang=xx&embed=2', {}, ['share.ignored.malformed', 'share.ignored.malformed']],
  ['#v=abc', {}, ['share.ignored.malformed']],
  ['#tau=0&win=-3', { temperature: 0.01, window: 1 }, ['share.ignored.clamped', 'share.ignored.clamped']],
  ['#preset=journey&head=9&row=99', { head: 1, row: 6 }, ['share.ignored.fitted', 'share.ignored.fitted']],
  ['#wq=1,0;0,1', { wq: null }, ['lesson.error.weights']],
  ['#d=2&h=2&x=1,0;0,1;1,1;0,0;1,0;0,1&wq=1,0;0,1&wk=1,0;0,1&wv=1,0;0,1&wo=1,0;0,1&kvh=1', { kvHeads: 0 }, ['share.ignored.kvWeights']],
  ['#cross=1&src=+', { cross: true, source: 'I love natural language processing' }, ['heads.error.noSource']],
  [`#s=${'w+'.repeat(1100)}`, { sentence: PRESETS.default.state.sentence }, ['share.ignored.tokens']],
  [`#x=~${'A'.repeat(LIMITS.maxCompressed + 1)}`, { embeddings: null }, ['share.ignored.tooLong']],
];

test('a hostile link opens with its valid part and says what was ignored', () => {
  for (const [hash, expected, keys] of HOSTILE) {
    const decoded = decodeHash(hash);
    for (const [key, value] of Object.entries(expected)) assert.deepEqual(decoded.state[key], value, `${hash}: ${key}`);
    assert.deepEqual(
      decoded.ignored.map((item) => item.key),
      keys,
      hash.slice(0, 80),
    );
    for (const item of decoded.ignored) {
      assert.ok(Object.hasOwn(DICTIONARIES.en, item.key) || item.key.startsWith('lesson.'), item.key);
      for (const value of Object.values(item.params)) assert.ok(String(value).length <= 41, `${hash}: long message part`);
    }
  }
});

test('the decoder takes anything without throwing', () => {
  for (const input of [undefined, null, 42, {}, [], '#', '##', '#&&&', '#=', '#==', '#a', '%', '#%', '#v=1&v=2', '#x=~', '#x=']) {
    assert.doesNotThrow(() => decodeHash(input), String(input));
  }
  const big = `#d=1&${'z'.repeat(LIMITS.maxHash)}`;
  assert.deepEqual(
    decodeHash(big).ignored.map((item) => item.key),
    ['share.ignored.linkTooLong'],
  );
});

test('hideable names are the fields and the page parts', () => {
  for (const name of ['sentence', 'dModel', 'heads', 'mask', 'embeddings', 'prose', 'presets', 'lang', 'share', 'export']) {
    assert.ok(HIDEABLE.includes(name), name);
  }
  assert.deepEqual(decodeHash('#heads_hide=1&prose_hide=true&mask_hide=0').view, { embed: false, hidden: ['heads', 'prose'] });
});

test('the draft holds the controls’ text and the other fields typed', () => {
  const { draft } = decodeHash('#preset=journey&v=1&h=1&tau=0.5&pad=000011');
  assert.equal(draft.heads, '1');
  assert.equal(draft.dModel, '3');
  assert.equal(draft.temperature, 0.5);
  assert.deepEqual(draft.padding, [false, false, false, false, true, true]);
  assert.equal(draft.mask, 'causal');
});
