// The presets gallery: at least eight examples, each a valid link with a title and a paragraph
// in both languages, built from the preset list; the numbers its texts quote are the engine's.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createAttention } from '../../web/src/engine/attention.js';
import { DICTIONARIES } from '../../web/src/i18n/index.js';
import { PRESETS } from '../../web/src/state/presets.js';
import { galleryItems } from '../../web/src/share/gallery.js';
import { engineConfigOf } from '../../web/src/share/engine-config.js';
import { decodeHash } from '../../web/src/state/url.js';

test('at least eight examples, every preset among them', () => {
  const items = galleryItems();
  assert.ok(items.length >= 8, `${items.length} examples`);
  assert.equal(new Set(items.map((item) => item.id)).size, items.length);
  for (const id of Object.keys(PRESETS))
    assert.ok(
      items.some((item) => item.preset === id),
      `preset ${id}`,
    );
});

test('each example has a title and a paragraph in English and Chinese', () => {
  for (const item of galleryItems()) {
    for (const lang of ['en', 'zh-CN']) {
      const dictionary = DICTIONARIES[lang];
      assert.ok(dictionary[item.titleKey], `${lang} ${item.titleKey}`);
      if (item.id.startsWith('preset-')) continue; // a preset the gallery does not curate: its own note, if any
      // A paragraph, not a caption: several sentences (Chinese needs fewer characters).
      assert.ok(dictionary[item.textKey]?.length > (lang === 'en' ? 80 : 40), `${lang} ${item.textKey}`);
    }
    assert.match(DICTIONARIES['zh-CN'][item.titleKey] + (DICTIONARIES['zh-CN'][item.textKey] ?? ''), /[\u4e00-\u9fff]/, item.id);
  }
});

test('each example is a link that opens exactly its state', () => {
  for (const item of galleryItems()) {
    const decoded = decodeHash(item.hash);
    assert.deepEqual(decoded.ignored, [], item.id);
    assert.deepEqual(decoded.state, item.state, item.id);
  }
});

const weightsRow = (result, row) =>
  Array.from(result.perHead[0].weights.data.subarray(row * result.T, (row + 1) * result.T)).map((v) => v.toFixed(3));

test('the numbers quoted in the examples’ texts are what the engine computes', async () => {
  const engine = await createAttention();
  const open = (id) => engine.compute(engineConfigOf(galleryItems().find((item) => item.id === id).state));
  assert.deepEqual(weightsRow(open('journey'), 1), ['0.423', '0.577', '0.000', '0.000', '0.000', '0.000']);
  assert.deepEqual(weightsRow(open('journey-unscaled'), 1).slice(0, 2), ['0.368', '0.632']);
  assert.deepEqual(weightsRow(open('cat-sat'), 1), ['0.274', '0.452', '0.274']);
  // Self-test question 2: the note says [0.09, 0.82, 0.09]; the formula gives this.
  const q2 = open('self-test-2');
  assert.deepEqual(
    Array.from(q2.perHead[0].scores.data.subarray(3, 6)).map((v) => v.toFixed(2)),
    ['0.71', '1.41', '0.71'],
  );
  assert.deepEqual(weightsRow(q2, 1), ['0.248', '0.503', '0.248']);
  // (the journey's and question 2's rows are what the course's exercises ask: no card prints them)
  for (const [id, text] of [['cat-sat', '0.274, 0.452, 0.274']]) {
    assert.ok(DICTIONARIES.en[`gallery.${id}.text`].includes(text), id);
    assert.ok(DICTIONARIES['zh-CN'][`gallery.${id}.text`].includes(text), id);
  }
});

// The course is in Chinese: its example is written as Chinese is, without spaces, and still
// shows one token per word.
test('the Chinese example is written without spaces and split into words', async () => {
  const item = galleryItems().find((entry) => entry.id === 'chinese');
  const { state } = decodeHash(item.hash);
  assert.doesNotMatch(state.sentence, /\s/);
  const engine = await createAttention();
  const { tokens } = engine.compute(engineConfigOf(state));
  assert.ok(tokens.length >= 8 && tokens.includes('注意力'), tokens.join('|'));
  for (const lang of ['en', 'zh-CN']) assert.doesNotMatch(DICTIONARIES[lang][item.textKey], /written with spaces|加空格/);
});
