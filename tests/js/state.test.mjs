// The page's state: parsing what people type, validation, the address codec, presets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { STEP_IDS } from '../../web/src/lesson/steps.js';
import { PRESETS } from '../../web/src/state/presets.js';
import { stateToDraft } from '../../web/src/state/draft.js';
import { carryEmbeddings, rememberRows } from '../../web/src/state/embeddings.js';
import {
  asciiNumbers,
  divisors,
  formatMatrixText,
  formatNumber,
  parseDecimal,
  parseMatrixText,
  parseWholeNumber,
  roundForEditor,
  tokenize,
} from '../../web/src/state/parse.js';
import { DEFAULTS, STEP_IDS as LINK_STEP_IDS } from '../../web/src/state/schema.js';
import { ALL_FIELDS, FIELDS, decodeHash, encodeHash, isPresetState } from '../../web/src/state/url.js';
import { snapHeads, toEngineConfig, validateDraft } from '../../web/src/state/validate.js';
import { WORKED_EXAMPLE } from './worked-example.mjs';

const limits = { maxTokens: 1024, maxDModel: 1024 };
const draftOf = (changes = {}) => ({ ...stateToDraft(PRESETS.default.state), ...changes });

test('a sentence splits into tokens at runs of whitespace', () => {
  assert.deepEqual(tokenize('  Your journey\tstarts\n with  '), ['Your', 'journey', 'starts', 'with']);
  assert.deepEqual(tokenize('   '), []);
  assert.deepEqual(tokenize('<b>x</b> 猫'), ['<b>x</b>', '猫']);
});

test('divisors are the head counts that fit d_model', () => {
  assert.deepEqual(divisors(12), [1, 2, 3, 4, 6, 12]);
  assert.deepEqual(divisors(7), [1, 7]);
  assert.deepEqual(divisors(1), [1]);
});

test('numbers: whole numbers and decimals as people write them, nothing else', () => {
  assert.equal(parseWholeNumber(' 8 '), 8);
  for (const bad of ['', '2.5', '-1', '1e3', 'eight', '0x10']) assert.equal(parseWholeNumber(bad), null, bad);
  assert.equal(parseDecimal('-0.5'), -0.5);
  assert.equal(parseDecimal('.25'), 0.25);
  assert.equal(parseDecimal('3e-2'), 0.03);
  for (const bad of ['NaN', 'Infinity', '-Infinity', '1e999', '0x10', 'abc', '1.2.3', '']) {
    assert.equal(parseDecimal(bad), null, bad);
  }
});

test('numbers typed with a Chinese input method (full-width) are read as their ASCII forms', () => {
  assert.equal(parseWholeNumber('１２'), 12);
  assert.equal(parseWholeNumber(' ６４ '), 64);
  assert.equal(parseWholeNumber('　８　'), 8); // ideographic spaces around
  assert.equal(parseDecimal('３．５'), 3.5);
  assert.equal(parseDecimal('－１'), -1);
  assert.equal(parseDecimal('−0.25'), -0.25); // the minus sign
  assert.equal(parseDecimal('３。５'), 3.5); // '.' typed in Chinese punctuation mode
  assert.equal(parseDecimal('１ｅ－３'), 0.001);
  assert.deepEqual(parseMatrixText('１，２　３\n４ －５ ６．５'), {
    ok: true,
    rows: [
      [1, 2, 3],
      [4, -5, 6.5],
    ],
  });
  assert.deepEqual(asciiNumbers('d = ６４'), 'd = 64');
  // Still refused: what is not a number in any width.
  for (const bad of ['１２ａ', '３．５．１', '－', 'ＮａＮ', 'Ｉｎｆｉｎｉｔｙ', '１e９９９']) assert.equal(parseDecimal(bad), null, bad);
  for (const bad of ['－１', '２．５', '１２３４５６７８９０１']) assert.equal(parseWholeNumber(bad), null, bad);
  // Validation takes them for d_model, heads, the seed and the embeddings.
  const checked = validateDraft(
    draftOf({ sentence: 'a b', dModel: '４', heads: '２', seed: '７', embeddingsMode: 'edit', embeddingsText: '１ ０ ０ ０\n０ １ ０ －１' }),
    limits,
  );
  assert.equal(checked.ok, true, JSON.stringify(checked.error));
  assert.deepEqual([checked.state.dModel, checked.state.heads, checked.state.seed], [4, 2, 7]);
  assert.deepEqual(checked.state.embeddings, [
    [1, 0, 0, 0],
    [0, 1, 0, -1],
  ]);
});

test('embeddings text parses row by row and names the first bad entry', () => {
  assert.deepEqual(parseMatrixText('0.43 0.15 0.89\n\n0.55, 0.87,0.66\n'), {
    ok: true,
    rows: [
      [0.43, 0.15, 0.89],
      [0.55, 0.87, 0.66],
    ],
  });
  const bad = parseMatrixText('1 2 3\n4 NaN 6');
  assert.equal(bad.ok, false);
  assert.deepEqual(bad.error, { key: 'error.embeddingsNumber', params: { row: 2, col: 2, text: 'NaN' } });
  assert.equal(parseMatrixText('1 Infinity').ok, false);
});

test('embeddings text round-trips through formatMatrixText', () => {
  const rows = PRESETS.journey.state.embeddings;
  assert.deepEqual(parseMatrixText(formatMatrixText(rows)).rows, rows);
  assert.equal(formatNumber(-0.00001), '0');
  assert.equal(formatNumber(0.123456), '0.1235');
  // Rows the lesson edits reach the engine as numbers, rounded as the text box's text (which is
  // written after the frame) will hold them: exactly what parsing that text gives.
  const odd = [[0.123456, -0.00001, 1 / 3, -2.71828182, 1e21, 12345.67891, Math.fround(0.55), -0.00005]];
  assert.deepEqual(
    odd.map((row) => row.map(roundForEditor)),
    parseMatrixText(formatMatrixText(odd)).rows,
  );
  assert.ok(Object.is(roundForEditor(-0.00001), 0));
});

test('a valid draft becomes a state and an engine config', () => {
  const checked = validateDraft(draftOf(), limits);
  assert.equal(checked.ok, true);
  assert.deepEqual(checked.tokens, ['Your', 'journey', 'starts', 'with', 'one', 'step']);
  assert.deepEqual(toEngineConfig(checked.state), {
    tokens: checked.tokens,
    dModel: 6,
    heads: 2,
    mask: 'causal',
    scale: true,
    weights: 'random',
    seed: 0,
  });
});

test('the journey preset gives the course example config', () => {
  const checked = validateDraft(stateToDraft(PRESETS.journey.state), limits);
  assert.equal(checked.ok, true);
  const config = toEngineConfig(checked.state);
  // The same config the engine's own tests use (tests/js/worked-example.mjs).
  const { seed, ...withoutSeed } = config;
  assert.deepEqual(withoutSeed, { ...WORKED_EXAMPLE });
  assert.equal(config.dModel, 3);
  assert.equal(config.heads, 1);
  assert.equal(config.weights, 'identity');
  assert.equal(config.mask, 'causal');
  assert.equal(config.scale, true);
  assert.deepEqual(config.embeddings[4], [0.77, 0.25, 0.1]);
});

test('bad input is named, with the control to fix', () => {
  const error = (changes) => validateDraft(draftOf(changes), limits).error;
  assert.deepEqual(error({ sentence: '   ' }), { key: 'error.noTokens', params: {}, field: 'sentence' });
  assert.equal(error({ sentence: 'a '.repeat(1025) }).key, 'error.tooManyTokens');
  assert.deepEqual(error({ sentence: 'a '.repeat(1025) }).params, { T: 1025, max: 1024 });
  assert.equal(error({ dModel: '0' }).key, 'error.dModel');
  assert.equal(error({ dModel: '1025' }).key, 'error.dModel');
  assert.equal(error({ dModel: '' }).field, 'dModel');
  assert.deepEqual(error({ heads: '4' }), {
    key: 'error.headsDivide',
    params: { heads: 4, dModel: 6, divisors: '1, 2, 3, 6' },
    field: 'heads',
  });
  assert.equal(error({ heads: '0' }).key, 'error.heads');
  assert.equal(error({ heads: '12' }).key, 'error.heads');
  assert.equal(error({ seed: '-1' }).key, 'error.seed');
  assert.equal(error({ seed: '4294967296' }).key, 'error.seed');
  assert.equal(validateDraft(draftOf({ weights: 'identity', seed: '' }), limits).ok, true);
});

test('hand-edited embeddings must be T × d_model finite numbers', () => {
  const edit = (text, changes = {}) =>
    validateDraft(draftOf({ sentence: 'a b', dModel: '2', heads: '1', embeddingsMode: 'edit', embeddingsText: text, ...changes }), limits);
  assert.deepEqual(edit('1 2\n3 4').state.embeddings, [
    [1, 2],
    [3, 4],
  ]);
  assert.deepEqual(edit('1 2').error.params, { rows: 1, T: 2 });
  assert.deepEqual(edit('1 2\n3 4 5').error, {
    key: 'error.embeddingsCols',
    params: { row: 2, cols: 3, dModel: 2 },
    field: 'embeddings',
  });
  assert.equal(edit('1 2\n3 x').error.key, 'error.embeddingsNumber');
  assert.equal(edit('1 2\n3 x').error.field, 'embeddings');
  assert.equal(edit('1 2\n3 -Infinity').error.key, 'error.embeddingsNumber');
  // Rows given as numbers (X edited in the lesson, ahead of the text box) stand for the text, and
  // are checked for their shape as it is.
  assert.deepEqual(
    edit('1 2\n3 4', {
      embeddingsRows: [
        [5, 6],
        [7, 8],
      ],
    }).state.embeddings,
    [
      [5, 6],
      [7, 8],
    ],
  );
  assert.deepEqual(edit('1 2\n3 4', { embeddingsRows: [[5, 6]] }).error.params, { rows: 1, T: 2 });
  assert.equal(edit('', { embeddingsRows: [[5, 6], [7]] }).error.key, 'error.embeddingsCols');
});

test('heads snap to a divisor when d_model changes', () => {
  assert.equal(snapHeads(6, 4), 3);
  assert.equal(snapHeads(8, 4), 4);
  assert.equal(snapHeads(7, 4), 1);
  assert.equal(snapHeads(2, 8), 2);
});

test('the address names the preset and only what differs from it', () => {
  const journey = PRESETS.journey.state;
  assert.equal(encodeHash({ presetId: 'journey', state: journey }), '#preset=journey');
  assert.equal(encodeHash({ presetId: 'default', state: PRESETS.default.state }), '');
  assert.equal(encodeHash({ presetId: 'journey', state: { ...journey, mask: 'none' }, lang: 'zh-CN' }), '#preset=journey&v=1&mask=none&lang=zh-CN');
  assert.equal(encodeHash({ presetId: 'default', state: { ...PRESETS.default.state, sentence: 'The cat sat', heads: 3 } }), '#v=1&s=The+cat+sat&h=3');
});

test('the address decodes back to the same controls', () => {
  const states = [
    PRESETS.journey.state,
    { ...PRESETS.journey.state, embeddings: null, sentence: 'a <b> 猫', scale: false },
    { ...PRESETS.default.state, sentence: 'a&b=c #d +e %f, g;h' },
    { ...PRESETS.default.state, dModel: 12, heads: 3, mask: 'none', weights: 'identity', seed: 7 },
    { ...PRESETS.default.state, embeddings: [[1, -2.5, 0, 1e-3, 4, 5]], sentence: 'one' },
  ];
  for (const presetId of ['default', 'journey']) {
    for (const state of states) {
      const { presetId: decodedPreset, draft, known } = decodeHash(encodeHash({ presetId, state }));
      assert.equal(known, true);
      assert.equal(decodedPreset, presetId);
      assert.deepEqual(validateDraft(draft, limits).state, state);
    }
  }
});

test('the address table covers every state field exactly once', () => {
  const keys = ALL_FIELDS.map((f) => f.key).sort();
  assert.deepEqual(keys, Object.keys(PRESETS.default.state).sort());
  assert.equal(new Set(ALL_FIELDS.map((f) => f.param)).size, ALL_FIELDS.length);
  assert.ok(FIELDS.every((f) => keys.includes(f.key)));
  // The default preset is the schema's defaults, and links name the lesson's steps as it does.
  assert.deepEqual(PRESETS.default.state, DEFAULTS);
  assert.deepEqual(LINK_STEP_IDS, STEP_IDS);
});

// The folders of web/src each module imports from (static and dynamic relative imports).
function folderImports() {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/src');
  const folderOf = (path) => (relative(root, path).includes('/') ? relative(root, path).split('/')[0] : '.');
  const edges = new Map();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const file = join(entry.parentPath, entry.name);
    for (const [, a, b] of readFileSync(file, 'utf8').matchAll(/\bfrom\s*['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]/g)) {
      const to = folderOf(resolve(dirname(file), a ?? b));
      if (!edges.has(folderOf(file))) edges.set(folderOf(file), new Set());
      if (to !== folderOf(file)) edges.get(folderOf(file)).add(to);
    }
  }
  return edges;
}

test('state/ is in no import cycle between folders: nothing it imports imports it back', () => {
  const edges = folderImports();
  const reach = (from) => {
    const seen = new Set();
    const visit = (folder) => {
      for (const next of edges.get(folder) ?? []) if (!seen.has(next)) seen.add(next) && visit(next);
    };
    visit(from);
    return seen;
  };
  assert.ok(![...edges.get('state')].some((folder) => ['lesson', 'heads', 'views'].includes(folder)), [...edges.get('state')].join(' '));
  const cycles = [...reach('state')].filter((folder) => folder !== 'state' && reach(folder).has('state'));
  assert.deepEqual(cycles, [], `state/ ⇄ ${cycles.join(', ')}`);
});

test('matrices stay readable in the address', () => {
  const hash = encodeHash({ presetId: 'default', state: { ...PRESETS.journey.state, sentence: 'a b' } });
  assert.match(hash, /&x=0\.43,0\.15,0\.89;0\.55,/);
});

test('an unknown preset or a bad value in the address is not trusted', () => {
  const unknown = decodeHash('#preset=nope');
  assert.equal(unknown.known, false);
  assert.equal(unknown.presetId, 'default');
  // h = 2 does not divide d_model = 3: the link opens with the preset's heads and says so.
  const bad = decodeHash('#preset=journey&h=2');
  assert.equal(bad.draft.heads, '1');
  assert.deepEqual(
    bad.ignored.map((item) => item.key),
    ['share.ignored.heads'],
  );
  assert.equal(decodeHash('#mask=sideways').draft.mask, 'causal');
  assert.equal(decodeHash('#lang=zh-CN').lang, 'zh-CN');
});

test('every preset is valid', () => {
  for (const [id, preset] of Object.entries(PRESETS)) {
    const checked = validateDraft(stateToDraft(preset.state), limits);
    assert.equal(checked.ok, true, id);
    assert.deepEqual(checked.state, preset.state, id);
  }
});

test('edited embeddings follow their tokens when the sentence changes', () => {
  const fallback = (T, C) => Array.from({ length: T }, (_, i) => Array.from({ length: C }, (_, j) => 100 + 10 * i + j));
  const remembered = rememberRows(
    new Map(),
    ['a', 'b'],
    [
      [1, 2],
      [3, 4],
    ],
  );
  // Inserting a word in front: "b" keeps its row by memory, the new word gets the engine's vector.
  assert.deepEqual(
    carryEmbeddings({
      tokens: ['z', 'a', 'b'],
      dModel: 2,
      previousTokens: ['a', 'b'],
      previousRows: [
        [1, 2],
        [3, 4],
      ],
      remembered,
      fallback: fallback(3, 2),
    }),
    [
      [100, 101],
      [1, 2],
      [3, 4],
    ],
  );
  // Narrowing then widening d_model gets the typed numbers back from memory.
  const narrow = carryEmbeddings({
    tokens: ['a', 'b'],
    dModel: 1,
    previousTokens: ['a', 'b'],
    previousRows: [
      [1, 2],
      [3, 4],
    ],
    remembered,
    fallback: fallback(2, 1),
  });
  assert.deepEqual(narrow, [[1], [3]]);
  assert.deepEqual(
    carryEmbeddings({ tokens: ['a', 'b'], dModel: 3, previousTokens: ['a', 'b'], previousRows: narrow, remembered, fallback: fallback(2, 3) }),
    [
      [1, 2, 102],
      [3, 4, 112],
    ],
  );
});

// "Changed since it was loaded" is for a change of the numbers: a link that only moves to another
// step, head, row, cell or stage of the head split still shows the example as loaded.
test('a preset looked at elsewhere is still the preset as loaded; a changed number is not', () => {
  const journey = decodeHash('#preset=journey&v=1').state;
  for (const look of ['&step=softmax', '&cell=weights.1.2.1', '&row=3', '&head=1', '&split=slice']) {
    const { state, ignored } = decodeHash(`#preset=journey&v=1${look}`);
    assert.deepEqual(ignored, [], look);
    assert.equal(isPresetState('journey', state), true, look);
  }
  assert.equal(isPresetState('journey', decodeHash('#preset=journey&v=1&tau=0.5').state), false);
  assert.equal(isPresetState('journey', decodeHash('#preset=journey&v=1&mask=none').state), false);
  assert.equal(isPresetState('journey', journey), true);
});

test('a link without a view opens where its fields point, and writes its view only when it differs', () => {
  const viewOf = (hash) => decodeHash(hash).state.view;
  assert.equal(viewOf(''), 'attention');
  assert.equal(viewOf('#train=previous_ckpt_s40'), 'train');
  assert.equal(viewOf('#v=1&split=maps'), 'heads');
  assert.equal(viewOf('#v=1&rtok=2'), 'modern');
  assert.equal(viewOf('#v=1&view=perf'), 'perf');
  assert.equal(viewOf('#v=1&train=nonsense'), 'attention', 'a refused field points nowhere');
  const trained = { ...PRESETS.default.state, train: 'previous_ckpt_s40' };
  assert.equal(encodeHash({ presetId: 'default', state: { ...trained, view: 'train' } }), '#v=1&train=previous_ckpt_s40');
  assert.equal(encodeHash({ presetId: 'default', state: { ...trained, view: 'attention' } }), '#v=1&train=previous_ckpt_s40&view=attention');
  assert.equal(encodeHash({ presetId: 'default', state: { ...PRESETS.default.state, view: 'heads' } }), '#v=1&view=heads');
});
