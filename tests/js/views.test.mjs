// The DOM-free parts of the views: number printing, cell colours, config keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { colorScale, maxAbs, textOn } from '../../web/src/render/colors.js';
import { configKey } from '../../web/src/views/config-key.js';
import { formatCell, parseCell } from '../../web/src/render/format.js';

test('cells print 3 decimals with a real minus sign, masked scores as −∞', () => {
  assert.equal(formatCell(0.5773), '0.577');
  assert.equal(formatCell(-1.23456), '−1.235');
  assert.equal(formatCell(-0.0001), '0.000');
  assert.equal(formatCell(0), '0.000');
  assert.equal(formatCell(-Infinity), '−∞');
  assert.equal(formatCell(NaN), 'NaN');
});

test('printed cells read back as numbers', () => {
  assert.equal(parseCell('−1.235'), -1.235);
  assert.equal(parseCell(' 0.577 '), 0.577);
  assert.equal(parseCell('−∞'), -Infinity);
  assert.equal(parseCell('0'), 0);
});

test('the signed scale is centred on 0 and ignores masked entries', () => {
  const data = Float32Array.from([-2, 1, -Infinity, 0.5]);
  assert.equal(maxAbs(data), 2);
  assert.equal(maxAbs(Float32Array.from([0, 0])), 1);
  const scale = colorScale('signed', data);
  assert.deepEqual(scale.domain, [-2, 2]);
  assert.equal(scale.color(0), scale.stops(3)[1]); // white-ish middle
  assert.notEqual(scale.color(2), scale.color(-2));
  assert.equal(scale.color(5), scale.color(2)); // clamped
});

test('weights use a fixed 0..1 scale', () => {
  const scale = colorScale('weights', Float32Array.from([0.2, 0.3]));
  assert.deepEqual(scale.domain, [0, 1]);
  assert.notEqual(scale.color(0), scale.color(1));
});

test('text is black on light cells and white on dark ones', () => {
  assert.equal(textOn('rgb(255, 255, 255)'), '#000000');
  assert.equal(textOn('rgb(5, 48, 97)'), '#ffffff');
  assert.equal(textOn('not a colour'), '#000000');
});

test('a config key changes with any number of a matrix, and stays short', () => {
  const rows = Array.from({ length: 300 }, (_, r) => Array.from({ length: 64 }, (_, c) => Math.sin(r + c)));
  const config = {
    tokens: ['a', 'b'],
    dModel: 64,
    embeddings: rows,
    customMask: [
      [false, true],
      [false, false],
    ],
    packed: new Float32Array([1, 2]),
  };
  const key = configKey(config);
  assert.equal(configKey(structuredClone(config)), key);
  assert.ok(key.length < 400);
  const changed = (edit) => {
    const copy = structuredClone(config);
    edit(copy);
    return configKey(copy);
  };
  assert.notEqual(
    changed((c) => {
      c.embeddings[299][63] += 1e-12;
    }),
    key,
  );
  assert.notEqual(
    changed((c) => {
      c.customMask[1][1] = true;
    }),
    key,
  );
  assert.notEqual(
    changed((c) => {
      c.packed[0] = 1.5;
    }),
    key,
  );
  assert.notEqual(
    changed((c) => {
      c.dModel = 32;
    }),
    key,
  );
});
