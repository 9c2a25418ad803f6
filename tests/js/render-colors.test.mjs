// The page's colours come from one module (web/src/render/colors.js): its scales, the text
// colour it picks for each cell, the head colours, and that no other source file defines them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import {
  COLORS,
  HATCHES,
  HID_ALPHA,
  MASKED_CELL,
  MIN_CONTRAST,
  colorScale,
  contrast,
  cssCustomProperties,
  headColor,
  headInk,
  legible,
  mix,
  palette,
  stops,
  textOn,
  weightColor,
} from '../../web/src/render/colors.js';

const SRC = new URL('../../web/src/', import.meta.url).pathname;
const CSS_FILE = join(SRC, 'styles/colors.css');

test('the signed scale runs blue → white → red, symmetric in the largest |value|', () => {
  const scale = colorScale('signed', Float32Array.from([-2, 0.5, 1]));
  assert.deepEqual(scale.domain, [-2, 2]);
  assert.equal(scale.color(-2), 'rgb(5, 48, 97)'); // RdBu's darkest blue
  assert.equal(scale.color(2), 'rgb(103, 0, 31)'); // its darkest red
  assert.equal(scale.color(0), palette('signed')[128].background); // the middle level: near white
  assert.equal(scale.color(0), 'rgb(242, 239, 237)');
  assert.equal(scale.color(-5), scale.color(-2)); // out of the domain: clamped
});

test('the weights scales run from [0, 1]: pale to dark green, viridis for the head views', () => {
  const scale = colorScale('weights', Float32Array.from([0.2, 0.3]));
  assert.deepEqual(scale.domain, [0, 1]);
  assert.equal(scale.color(0), 'rgb(241, 250, 238)');
  assert.equal(scale.color(1), 'rgb(3, 100, 41)');
  assert.equal(scale.levelOf(0.5), 128);
  assert.equal(weightColor(0), '#440154');
  assert.equal(weightColor(0.5), '#21918c');
  assert.equal(weightColor(1), '#fde725');
  assert.deepEqual(stops('viridis', 3), ['#440154', '#21918c', '#fde725']);
  assert.deepEqual(scale.stops(2), [scale.color(0), scale.color(1)]);
});

test('the text on a cell is white on a dark fill and black on a light one', () => {
  assert.equal(textOn('rgb(5, 48, 97)'), '#ffffff');
  assert.equal(textOn('#440154'), '#ffffff');
  assert.equal(textOn('rgb(242, 239, 237)'), '#000000');
  assert.equal(textOn('#fde725'), '#000000');
  // and each level of a scale carries the text chosen for it
  for (const kind of ['signed', 'weights', 'viridis']) {
    for (const { background, text } of palette(kind)) assert.equal(text, textOn(background));
  }
});

test('every heat cell reads at 4.5:1 (WCAG AA), masked ones over both colours of their hatch', () => {
  assert.ok(contrast('#111111', 'rgb(206, 82, 72)') < MIN_CONTRAST); // the old ink on a mid red: 4.4
  for (const kind of ['signed', 'weights', 'viridis']) {
    for (const { background, text, hidBackground, hidText, level } of palette(kind)) {
      assert.ok(contrast(text, background) >= MIN_CONTRAST, `${kind} level ${level}`);
      for (const ground of [...HATCHES.grey, ...HATCHES.light]) {
        assert.ok(contrast(hidText, mix(hidBackground, HID_ALPHA, ground)) >= MIN_CONTRAST, `${kind} level ${level} masked over ${ground}`);
      }
    }
  }
});

test('the inks of masked, −∞, grey and head-coloured text read at 4.5:1 on their fills', () => {
  const on = (ink, grounds) => grounds.every((ground) => contrast(ink, ground) >= MIN_CONTRAST);
  assert.ok(on(COLORS.maskedInk, HATCHES.grey), '−∞ on the grey hatch');
  assert.ok(on(MASKED_CELL.text, [MASKED_CELL.background, ...HATCHES.grey]), "the SVG export's masked cell");
  assert.ok(on(COLORS.faint, [COLORS.panel, COLORS.headMasked, ...HATCHES.light]), 'a weight behind the mask, a masked key');
  assert.ok(on(COLORS.maskZeroInk, HATCHES.yellow), 'M filled with 0');
  assert.ok(on(COLORS.danger, [COLORS.badBg]), 'NaN, ∞');
  for (const heads of [2, 8, 10, 16]) {
    for (let h = 0; h < heads; h += 1) assert.ok(on(headInk(h, heads), [COLORS.panel, COLORS.page]), `head ${h + 1} of ${heads}`);
  }
  // An ink that already reads is kept; one that does not keeps its hue, darker.
  assert.equal(legible('#1d2330', ['#ffffff']), '#1d2330');
  assert.notEqual(headInk(1, 2), headColor(1, 2)); // Tableau's orange, 2.4:1 on white
});

test('head colours are distinct: Tableau10 up to ten heads, evenly spaced hues past that', () => {
  for (const heads of [1, 2, 8, 10, 16, 64]) {
    const colours = Array.from({ length: heads }, (_, h) => headColor(h, heads));
    assert.equal(new Set(colours).size, heads, `${heads} heads`);
  }
  assert.equal(headColor(0, 2), '#4e79a7');
});

test('CSS gets the colours from styles/colors.css, written from the module', () => {
  // To write it again after changing a colour: WRITE_COLORS_CSS=1 node --test tests/js/render-colors.test.mjs
  if (process.env.WRITE_COLORS_CSS) writeFileSync(CSS_FILE, cssCustomProperties());
  assert.equal(readFileSync(CSS_FILE, 'utf8'), cssCustomProperties());
});

const files = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]));

test('no other source file defines a colour: scripts read the module, style sheets its custom properties', () => {
  const sources = files(SRC).filter((file) => /\.(js|css)$/.test(file) && !/render\/colors\.js$|styles\/colors\.css$/.test(file));
  // White is also the text on an accent button and the panels of the page (CSS only).
  const roles = [...Object.values(COLORS), ...Object.values(HATCHES).flat()].filter((color) => color !== '#ffffff');
  const found = [];
  for (const file of sources) {
    const text = readFileSync(file, 'utf8').toLowerCase();
    const name = relative(SRC, file);
    if (text.includes('d3-scale-chromatic')) found.push(`${name}: a colour scale`);
    if (file.endsWith('.js') && /['"`]#[0-9a-f]{3,8}\b|rgba?\(\d/.test(text)) found.push(`${name}: a colour literal`);
    for (const color of roles) if (new RegExp(`${color}\\b`).test(text)) found.push(`${name}: ${color}`);
  }
  assert.deepEqual(found, []);
});
