// Frozen links (share-frozen-links.mjs): every link made with schema v=1 opens the same state
// and the same numbers forever. Fields added later must take, for these links, values that
// change nothing: their defaults — and the view, the one their fields point to (impliedView): a
// link opens where it did when every panel was on one page.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createAttention } from '../../web/src/engine/attention.js';
import { engineConfigOf } from '../../web/src/share/engine-config.js';
import { LANGUAGES } from '../../web/src/i18n/index.js';
import { ALL_FIELDS, decodeHash, presetState } from '../../web/src/state/url.js';
import { impliedView } from '../../web/src/state/schema.js';
import { FROZEN_LINKS } from './share-frozen-links.mjs';

test('there are a dozen frozen links or more', () => {
  assert.ok(FROZEN_LINKS.length >= 12);
});

test('every link field, language and a compressed value is in some frozen link', () => {
  const names = new Set(
    FROZEN_LINKS.flatMap(({ link }) =>
      link
        .slice(1)
        .split('&')
        .map((part) => part.split('=')[0]),
    ),
  );
  for (const field of ALL_FIELDS) assert.ok(names.has(field.param), `no frozen link gives ${field.param}`);
  for (const lang of LANGUAGES)
    assert.ok(
      FROZEN_LINKS.some((frozen) => frozen.lang === lang),
      `no frozen link in ${lang}`,
    );
  for (const param of ['x', 'cm', 'wq'])
    assert.ok(
      FROZEN_LINKS.some(({ link }) => link.includes(`&${param}=~`)),
      `no compressed ${param}`,
    );
});

for (const frozen of FROZEN_LINKS) {
  test(`the frozen link ${JSON.stringify(frozen.link).slice(0, 90)} opens as it did`, async () => {
    const decoded = decodeHash(frozen.link);
    assert.deepEqual(decoded.ignored, []);
    assert.equal(decoded.presetId, frozen.presetId);
    assert.equal(decoded.lang, frozen.lang);
    assert.deepEqual(decoded.view, frozen.view);
    for (const [key, value] of Object.entries(frozen.state)) assert.deepEqual(decoded.state[key], value, key);
    // A field that did not exist when the link was made keeps the default preset's value.
    const base = {
      ...presetState('default'),
      view: impliedView(
        frozen.link
          .slice(1)
          .split('&')
          .map((part) => part.split('=')[0]),
      ),
    };
    for (const key of Object.keys(decoded.state)) {
      if (!Object.hasOwn(frozen.state, key)) assert.deepEqual(decoded.state[key], base[key], `new field ${key}`);
    }
    const engine = await createAttention();
    const result = engine.compute(engineConfigOf(decoded.state));
    const last = result.T - 1;
    const row = Array.from(result.output.data.subarray(last * result.dModel, (last + 1) * result.dModel));
    row.forEach((value, c) => assert.ok(Math.abs(value - frozen.lastOutputRow[c]) <= 2e-6, `output[${last}][${c}] = ${value}`));
  });
}
