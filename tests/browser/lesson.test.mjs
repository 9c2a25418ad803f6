// The lesson as a learner meets it, in Chromium (playwright-core) through lesson-harness.mjs: the
// stepper, explanations with the worked example's numbers, the mask workbench, editing cells and
// its refusals, the presets, the softmax lab, links that reproduce what the page shows, and the
// page after any change looking as a fresh page of its link does, whether a matrix is a table or
// a canvas (which one, and when it is drawn, is render/policy.js's and render/scheduler.js's:
// tests/js/render-policy.test.mjs and render-scheduler.test.mjs). Screenshots in English and
// Chinese go to tests/browser/screenshots/lesson-*.png: look at them.
// Needs the built site: `npm run build` (or the wasm build and `npx vite build`) writes dist/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { linkNow, openSettings, screenshotDrawn, saveScreenshot, whenDrawn, openView } from './harness.mjs';
import {
  SHOWN,
  assertLooksLikeFreshPage,
  cell,
  entryPoint,
  explainedValue,
  explanation,
  fixed3,
  grid,
  numbers,
  pastTheirStep,
  pictures,
  readout,
  screenshots,
  shownSteps,
  startLesson,
  steadyEntryPoint,
  twoFrames,
} from './lesson-harness.mjs';
import { lessonRow } from './heads-harness.mjs';

import { createAttention } from '../../web/src/engine/attention.js';
import { decodeHash } from '../../web/src/state/url.js';

let lesson;
before(async () => {
  lesson = await startLesson();
});
after(async () => {
  await lesson?.close();
});
const open = (hash, options) => lesson.open(hash, options);
const tokens = (n, stem = 't') => Array.from({ length: n }, (_, i) => `${stem}${i + 1}`).join('+');

test('the stepper moves through the pipeline: next, previous, a step, play, all steps', async () => {
  const { page, errors, close } = await open('#preset=journey');
  try {
    // The page opens with every step, in the course's order.
    assert.deepEqual(await shownSteps(page), ['x', 'qkv', 'dots', 'scale', 'mask', 'softmax', 'context', 'concat', 'output']);
    assert.equal(await page.getAttribute('#step-all', 'aria-pressed'), 'true');
    // Each step has its formula typeset by KaTeX, beside its matrices (÷√d_k's line shows one form).
    assert.equal(await page.locator('section[data-step="scale"] .formulas-tex > .step-formula').count(), 1);
    assert.equal(await page.locator('section[data-step="scale"] .formulas-tex .formula-alt:not(.off) .katex').count(), 1);
    assert.match(await page.getAttribute('section[data-step="scale"] .step-formula', 'data-tex'), /\\frac\{QK\^T\}\{\\sqrt\{d_k\}\}/);

    await page.click('#step-next');
    assert.deepEqual(await shownSteps(page), ['x']);
    assert.equal(await page.isDisabled('#step-prev'), true);
    await page.click('#step-next');
    await page.click('#step-next');
    assert.deepEqual(await shownSteps(page), ['dots']);
    // One step shows what it reads too: QKᵀ is followed by S, which shows QKᵀ as its input.
    await page.click('#step-next');
    assert.deepEqual(await shownSteps(page), ['scale']);
    assert.equal(await page.locator('section[data-step="scale"] figure[data-matrix-figure="dots"] .from').count(), 1);
    await page.click('#step-prev');
    assert.deepEqual(await shownSteps(page), ['dots']);
    await page.click('button[data-step="output"]');
    assert.deepEqual(await shownSteps(page), ['output']);
    assert.equal(await page.isDisabled('#step-next'), true);
    assert.equal(await page.getAttribute('button[data-step="output"]', 'aria-current'), 'step');
    await page.waitForURL(/step=output/); // the step is part of the link

    // Play from the last step starts over at step 1 and moves on by itself; pause stops it.
    await page.click('#step-play');
    assert.deepEqual(await shownSteps(page), ['x']);
    assert.equal(await page.getAttribute('#step-play', 'aria-pressed'), 'true');
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.step === 'qkv', SHOWN, { timeout: 8000 });
    await page.click('#step-play');
    assert.equal(await page.getAttribute('#step-play', 'aria-pressed'), 'false');
    assert.equal(await page.evaluate(() => window.attentionPlayground.animations()), 0, 'paused: nothing moves on by itself');
    await whenDrawn(page);
    assert.deepEqual(await shownSteps(page), ['qkv']);

    await page.click('#step-all');
    assert.equal((await shownSteps(page)).length, 9);
    // Nothing a step shows, a focus ring included, is cut off at its box (each step clips there).
    assert.deepEqual(await pastTheirStep(page), []);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('explanations give the worked example’s numbers and highlight what they depend on', async () => {
  const { page, errors, close } = await open('#preset=journey');
  try {
    // Before anything is pointed at, the panel shows its invitation and nothing else (its fonts
    // are warmed up ahead in it: nothing of that may stay), in English and in Chinese.
    await whenDrawn(page);
    assert.match(await page.innerText('#explain'), /^How was this number computed\?\s+Point at any number[^\n]*$/);
    await page.click('button[data-lang="zh-CN"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await whenDrawn(page);
    assert.deepEqual((await page.innerText('#explain')).split('\n').filter(Boolean).length, 2);
    await page.click('button[data-lang="en"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en');

    // s₂₁ = (0.55·0.43 + 0.87·0.15 + 0.66·0.89)/√3 ≈ 0.551
    await page.hover(cell('scores', 0, 1, 0));
    assert.match(await explanation(page), /s₂₁ = \(0\.55·0\.43 \+ 0\.87·0\.15 \+ 0\.66·0\.89\)\/√3 ≈ 0\.551/);
    assert.match(await page.innerText('#explain .explain-heading'), /Score of “journey” for “Your”/);
    // An entry of S + M that is not masked has no notes: nothing may be printed for them.
    await page.hover(cell('masked', 0, 0, 0));
    await page.waitForFunction(() => document.querySelector('#explain').dataset.cell?.startsWith('masked'));
    assert.doesNotMatch(await page.innerText('#explain'), /\bnull\b|\bundefined\b/);
    await page.hover(cell('scores', 0, 1, 0));
    // Its factors: row 2 of Q⁽¹⁾ and row 1 of K⁽¹⁾ are highlighted, and the cell itself.
    const deps = await page.$$eval('[data-hl="dep"]', (n) => n.map((c) => `${c.dataset.matrix}${c.dataset.head}:${c.dataset.row},${c.dataset.col}`));
    for (const expected of ['q0:1,0', 'q0:1,1', 'q0:1,2', 'k0:0,0', 'k0:0,1', 'k0:0,2', 'dots0:1,0']) assert.ok(deps.includes(expected), expected);
    assert.equal(await page.getAttribute(cell('scores', 0, 1, 0), 'data-hl'), 'self');

    // a₂₁ = e^(0.551−0.863) / (e^(0.551−0.863) + e^0) ≈ 0.423
    await page.hover(cell('weights', 0, 1, 0));
    assert.match(await explanation(page), /a₂₁ = e\^\(0\.551 − 0\.863\) \/ \(e\^\(0\.551 − 0\.863\) \+ e\^0\) ≈ 0\.423/);
    assert.match(await explanation(page), /a₂₁ = 0\.732 \/ 1\.732 ≈ 0\.423/);

    // o₂ = 0.423·v₁ + 0.577·v₂ ≈ (0.499, 0.566, 0.757), by tapping (clicking) the cell.
    await page.click(cell('context', 0, 1, 0));
    const o = await explanation(page);
    assert.match(o, /o₂₁ = 0\.423·0\.43 \+ 0\.577·0\.55 ≈ 0\.499/);
    assert.match(o, /o₂ = 0\.423·v₁ \+ 0\.577·v₂ ≈ \(0\.499, 0\.566, 0\.757\)/);
    assert.match(await page.innerText('#explain .explain-mode'), /selected/i);
    await page.waitForURL(/cell=context\.1\.2\.1/);

    // The keyboard: the selected cell is in the tab order; arrows move the focus and explain.
    await page.focus(cell('context', 0, 1, 0));
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.row), '0');
    await page.mouse.move(5, 5); // the pointer leaves: the selected cell is explained
    assert.match(await explanation(page), /o₁₁ = 1·0\.43 ≈ 0\.430/);
    await page.keyboard.press('ArrowRight');
    assert.match(await explanation(page), /o₁₂ = 1·0\.15 ≈ 0\.150/);

    // A masked score explains why it is masked.
    await page.hover(cell('masked', 0, 0, 1));
    assert.match(await explanation(page), /s₁₂ \+ m₁₂ = 0\.551 \+ \(−∞\) = −∞/);
    assert.match(await page.innerText('#explain .explain-notes'), /“journey” comes after “Your”/);

    // A change that redraws the page keeps the highlights where they are: ÷√d_k off and on with a
    // weight selected.
    await page.click(cell('weights', 0, 1, 0));
    const marks = () =>
      page.$$eval('#results [data-hl]', (n) =>
        n.map((c) => `${c.dataset.hl} ${c.dataset.matrix}${c.dataset.head}:${c.dataset.row},${c.dataset.col}`).sort(),
      );
    const selected = await marks();
    assert.deepEqual(
      selected.filter((m) => m.startsWith('self')),
      ['self weights0:1,0'],
    );
    await page.click('#lesson-scale');
    await page.waitForFunction(() => document.querySelector('#lesson-scale').checked === false);
    assert.deepEqual(await marks(), selected);
    await page.click('#lesson-scale');
    assert.deepEqual(await marks(), selected);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the last number pointed at stays explained when the pointer leaves the matrices; a selected one takes its place', async () => {
  const { page, errors, close } = await open('#preset=journey');
  try {
    const mode = () => page.textContent('#explain .explain-mode');
    await page.hover(cell('weights', 0, 1, 0));
    assert.equal(await mode(), 'Under the pointer');
    // On the way to the panel to read it, the explanation stays where it was (the label keeps to
    // one line), and what it depends on stays highlighted.
    const headingTop = () => page.$eval('#explain .explain-heading', (n) => n.getBoundingClientRect().top);
    const top = await headingTop();
    await page.hover('#explain h2');
    assert.equal(await mode(), 'Last pointed at');
    assert.equal(await headingTop(), top);
    assert.match(await explanation(page), /a₂₁ = e\^\(0\.551 − 0\.863\) \/ \(e\^\(0\.551 − 0\.863\) \+ e\^0\) ≈ 0\.423/);
    assert.equal(await page.getAttribute(cell('weights', 0, 1, 0), 'data-hl'), 'self');
    // Back on the matrices, the number under the pointer is explained.
    await page.hover(cell('weights', 0, 2, 1));
    assert.equal(await mode(), 'Under the pointer');
    assert.match(await explanation(page), /a₃₂ = /);
    assert.equal(await page.getAttribute(cell('weights', 0, 1, 0), 'data-hl'), null);
    assert.equal(await headingTop(), top);

    // A cell selected with the keyboard while the last one pointed at lingers takes the panel;
    // then the pointer leaving brings the selected cell back, not the last one pointed at.
    await page.hover('#explain h2');
    assert.equal(await mode(), 'Last pointed at');
    await page.focus(cell('context', 0, 1, 0));
    await page.waitForURL(/cell=context\.1\.2\.1/);
    assert.equal(await mode(), 'Selected cell');
    assert.match(await explanation(page), /o₂₁ = 0\.423·0\.43 \+ 0\.577·0\.55 ≈ 0\.499/);
    await page.hover(cell('weights', 0, 2, 1));
    assert.equal(await mode(), 'Under the pointer');
    await page.hover('#explain h2');
    assert.equal(await mode(), 'Selected cell');
    assert.match(await explanation(page), /o₂₁ = /);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
  // In Chinese too.
  const zh = await open('#preset=journey&lang=zh-CN');
  try {
    await zh.page.hover(cell('weights', 0, 1, 0));
    const top = await zh.page.$eval('#explain .explain-heading', (n) => n.getBoundingClientRect().top);
    await zh.page.hover('#explain h2');
    assert.equal(await zh.page.$eval('#explain .explain-heading', (n) => n.getBoundingClientRect().top), top);
    assert.equal(await zh.page.textContent('#explain .explain-mode'), '指针上次所指');
    assert.match(await explanation(zh.page), /a₂₁ = /);
    assert.deepEqual(zh.errors, []);
  } finally {
    await zh.close();
  }
});

test('the mask workbench: kinds, custom cells, fill 0, order, padding, a fully masked row', async () => {
  const { page, errors, close } = await open('#preset=journey&v=1&step=mask');
  try {
    const maskRow = (r) => lessonRow(page, 'mask', null, r);
    assert.deepEqual(await maskRow(0), ['0', '−∞', '−∞', '−∞', '−∞', '−∞']);

    // Custom: clicking cells of M toggles them, starting from the pattern on screen.
    await page.click(cell('mask', null, 0, 1));
    assert.equal(await page.isChecked('input[name="lesson-mask"][value="custom"]'), true);
    assert.deepEqual(await maskRow(0), ['0', '0', '−∞', '−∞', '−∞', '−∞']);
    await page.click(cell('mask', null, 3, 0));
    assert.deepEqual(await maskRow(3), ['−∞', '0', '0', '0', '−∞', '−∞']);
    await page.focus(cell('mask', null, 3, 0));
    await page.keyboard.press('Space'); // and back, with the keyboard
    assert.deepEqual(await maskRow(3), ['0', '0', '0', '0', '−∞', '−∞']);
    await page.waitForURL(/mask=custom/);
    await page.click('button[data-step="softmax"]');
    assert.deepEqual(fixed3(await numbers(page, 'weights', 0, 0)), fixed3([0.507, 0.493, 0, 0, 0, 0]));

    // Back to causal; a fill of 0 masks nothing: the future gets weight.
    await page.click('button[data-step="mask"]');
    await page.check('input[name="lesson-mask"][value="causal"]');
    const workbenchHeight = () => page.$eval('#mask-workbench', (n) => n.getBoundingClientRect().height);
    const withInfinity = await workbenchHeight();
    await page.check('input[name="lesson-fill"][value="0"]');
    assert.deepEqual(await maskRow(0), ['0', '0', '0', '0', '0', '0']);
    const notes = await page.innerText('#mask-workbench .wb-notes');
    assert.match(notes, /A fill of 0 masks nothing/);
    assert.doesNotMatch(notes, /e\^\(−∞\) = 0, so they get exactly 0 weight/);
    // The fill's note keeps its size whichever text it shows: the page below does not move.
    assert.equal(await workbenchHeight(), withInfinity);
    // M's rule says the fill chosen: one form of it is seen (and read aloud), the others not.
    const rule = () =>
      page.$eval('section[data-step="mask"] .formulas-tex > .formula-stack:nth-child(2)', (stack) => ({
        tex: stack.dataset.tex,
        // (seen at 0.999, unseen at 0.001: lesson.css says why not 1 and 0)
        shown: [...stack.children]
          .filter((alt) => Number(getComputedStyle(alt).opacity) > 0.99 && !alt.hasAttribute('aria-hidden'))
          .map((alt) => alt.dataset.tex),
      }));
    const zero = await rule();
    assert.match(zero.tex, /\\\\ 0 & /);
    assert.deepEqual(zero.shown, [zero.tex]);
    await page.click('button[data-step="softmax"]');
    const future = await numbers(page, 'weights', 0, 0);
    assert.ok(
      future.slice(1).every((w) => w > 0.1),
      future.join(' '),
    );

    // −1e9 after the division stays −1e9; before it, it is divided by √3.
    await page.click('button[data-step="mask"]');
    await page.check('input[name="lesson-fill"][value="-1e9"]');
    // (the change is drawn after the click's task: read once the page is idle)
    const maskedEntry = async () => (await lessonRow(page, 'masked', 0, 0))[1];
    assert.equal(await maskedEntry(), '−1.00e9');
    const maskedCaption = () => page.textContent('figure[data-matrix-figure="masked"] figcaption .sym');
    assert.equal(await maskedCaption(), 'S⁽¹⁾ + M');
    const big = await rule();
    assert.match(big.tex, /-10\^\{9\}/);
    assert.deepEqual(big.shown, [big.tex]);
    await page.check('input[name="lesson-order"][value="before"]');
    assert.equal(await maskedEntry(), '−5.77e8');
    assert.equal(await maskedCaption(), '(Q⁽¹⁾K⁽¹⁾ᵀ + M)/√dk'); // the figure says the order too (k in a sub)
    assert.equal(await page.getAttribute('section[data-step="mask"] .step-formula', 'data-tex'), '\\frac{QK^T + M}{\\sqrt{d_k}}');
    assert.equal(await page.$$eval('section[data-step="mask"] .formulas-tex > *', (lines) => lines.length), 2);

    // A sliding window of 2, then prefix-LM with p = 3; a width of 0 is refused where it is typed.
    await page.check('input[name="lesson-fill"][value="-inf"]');
    await page.check('input[name="lesson-mask"][value="window"]');
    await page.fill('#lesson-window', '2');
    assert.deepEqual(await maskRow(3), ['−∞', '−∞', '0', '0', '−∞', '−∞']);
    await page.fill('#lesson-window', '0');
    assert.match(await page.textContent('#mask-workbench .lesson-error'), /window width w must be a whole number/);
    assert.deepEqual(await maskRow(3), ['−∞', '−∞', '0', '0', '−∞', '−∞']); // nothing changed
    await page.check('input[name="lesson-mask"][value="prefix"]');
    await page.fill('#lesson-prefix', '3');
    assert.deepEqual(await maskRow(0), ['0', '0', '0', '−∞', '−∞', '−∞']);

    // Padding on top: "Your" as padding under causal leaves row 1 without a visible key.
    await page.check('input[name="lesson-mask"][value="causal"]');
    await page.click('.pad-chips button[data-pad="0"]');
    assert.deepEqual(await maskRow(2), ['−∞', '0', '0', '−∞', '−∞', '−∞']);
    assert.match(await page.innerText('#mask-workbench .wb-notes'), /“Your” see no key at all/);
    await page.click('button[data-step="softmax"]');
    assert.deepEqual(await numbers(page, 'weights', 0, 0), [0, 0, 0, 0, 0, 0]);
    assert.equal(await page.textContent('section[data-step="softmax"] tr:nth-child(1) td.rowsum'), '0');
    await page.hover(cell('weights', 0, 0, 0));
    assert.match(await page.innerText('#explain'), /0\/0 = NaN/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('editing cells in place: valid numbers recompute, bad ones are refused with a message', async () => {
  const { page, errors, close } = await open('#preset=journey');
  try {
    const x = cell('x', null, 1, 0);
    const before = await numbers(page, 'scores', 0, 1);
    for (const bad of ['abc', 'NaN', 'Infinity']) {
      await page.click(x);
      await page.keyboard.type(bad);
      await page.keyboard.press('Enter');
      const message = await page.textContent('figure[data-matrix-figure="x"] .cell-error');
      assert.match(message, new RegExp(`“${bad}” is not a finite number: the cell keeps 0\\.550`));
      assert.equal(await page.getAttribute(`${x} input`, 'aria-invalid'), 'true');
      await page.keyboard.press('Escape');
      assert.equal(await page.textContent(x), '0.550');
      assert.deepEqual(await numbers(page, 'scores', 0, 1), before);
    }
    // Leaving the cell with a bad entry keeps the old value too.
    await page.click(x);
    await page.keyboard.type('1e999');
    await page.click('h1');
    assert.equal(await page.textContent(x), '0.550');
    assert.match(await page.textContent('figure[data-matrix-figure="x"] .cell-error'), /“1e999” is not a finite number/);

    // A valid number: X, the embeddings box and the scores change; Enter moves down. The editor
    // lies over its cell: the figure keeps its size while it is open.
    const figureBox = () => page.$eval('figure[data-matrix-figure="x"]', (n) => [n.offsetWidth, n.offsetHeight]);
    const closedBox = await figureBox();
    await page.click(x);
    await page.keyboard.type('1.5');
    assert.deepEqual(await figureBox(), closedBox);
    await page.keyboard.press('Enter');
    assert.equal(await page.textContent(x), '1.500');
    assert.equal(await page.isHidden('figure[data-matrix-figure="x"] .cell-error'), true);
    await page.waitForFunction(() => /^0\.43 0\.15 0\.89\n1\.5 0\.87 0\.66/.test(document.querySelector('#embeddings-text').value));
    assert.notDeepEqual(await numbers(page, 'scores', 0, 1), before);
    assert.deepEqual(await page.evaluate(() => [document.activeElement.dataset.matrix, document.activeElement.dataset.row]), ['x', '2']);

    // W_Q: type, Tab moves right; Q follows (Q = X W_Q).
    await page.click(cell('wq', null, 0, 0));
    await page.keyboard.type('2');
    await page.keyboard.press('Tab');
    assert.equal(await page.textContent(cell('wq', null, 0, 0)), '2.000');
    assert.deepEqual(await page.evaluate(() => [document.activeElement.dataset.matrix, document.activeElement.dataset.col]), ['wq', '1']);
    assert.deepEqual(fixed3(await numbers(page, 'q', null, 0)), fixed3([0.86, 0.15, 0.89]));
    assert.deepEqual(fixed3(await numbers(page, 'k', null, 0)), fixed3([0.43, 0.15, 0.89])); // W_K unchanged
    await page.hover(cell('q', null, 0, 0));
    assert.match(await explanation(page), /q₁₁ = x₁·W_Q\[:, 1\] = 0\.43·2 \+ 0\.15·0 \+ 0\.89·0 ≈ 0\.860/);
    // Reset brings the identity back; Randomise and Identity work per matrix.
    await page.click('figure[data-matrix-figure="wq"] button[data-tool="reset"]');
    assert.equal(await page.textContent(cell('wq', null, 0, 0)), '1.000');
    await page.click('figure[data-matrix-figure="wv"] button[data-tool="random"]');
    assert.notEqual(await page.textContent(cell('wv', null, 0, 0)), '1.000');
    await page.click('figure[data-matrix-figure="wv"] button[data-tool="identity"]');
    assert.equal(await page.textContent(cell('wv', null, 0, 0)), '1.000');
    assert.equal(await page.textContent(cell('wv', null, 0, 1)), '0.000');
    // After the edits, every matrix, those far below included, shows what a fresh page of the
    // link shows.
    await assertLooksLikeFreshPage(open, page);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('every preset loads in one click, with the material’s numbers checked', async () => {
  const { page, errors, close } = await open();
  try {
    // (The first page a visitor sees: nothing a step shows is cut off at its box.)
    assert.deepEqual(await pastTheirStep(page), []);
    // The worked example.
    await openSettings(page); // (the examples are in the settings)
    await page.click('a[data-preset="journey"]');
    await page.waitForFunction(() => document.querySelectorAll('section.lesson-step:not(.parked) td[data-matrix="x"]').length === 18);
    assert.deepEqual(fixed3(await numbers(page, 'weights', 0, 1)), fixed3([0.423, 0.577, 0, 0, 0, 0]));

    // "The cat sat": q = k₂ = [1,0,1,0]; the cat row is softmax([0.5, 1, 0.5]).
    await page.click('a[data-preset="cat"]');
    await page.waitForSelector('section[data-step="softmax"] td[data-matrix="weights"]');
    assert.deepEqual(fixed3(await numbers(page, 'weights', 0, 1)), ['0.274', '0.452', '0.274']);
    assert.deepEqual(fixed3(await numbers(page, 'masked', 0, 1)), ['0.500', '1.000', '0.500']); // [1, 2, 1]/√4
    assert.match(await page.textContent('#lesson-remark'), /\[0\.27, 0\.46, 0\.27\].*\(0\.274, 0\.452, 0\.274\).*0\.46 is off/);
    assert.equal(await page.getAttribute('.lab-rows button[data-lab-row="1"]', 'aria-pressed'), 'true');
    assert.match(await explanation(page), /a₂₂ = e\^0 \/ \(e\^\(0\.500 − 1\.000\) \+ e\^0 \+ e\^\(0\.500 − 1\.000\)\) ≈ 0\.452/);

    // Self-test question 2: [2, 4, 2]/√8.
    await page.click('a[data-preset="selftest"]');
    await page.waitForFunction(() => document.querySelector('#sentence').value === 'a b c');
    assert.deepEqual(fixed3(await numbers(page, 'weights', 0, 1)), ['0.248', '0.503', '0.248']);
    assert.match(await page.textContent('#lesson-remark'), /\[0\.09, 0\.82, 0\.09\]/);

    // Bidirectional vs causal: both A side by side.
    await page.click('a[data-preset="compare"]');
    await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="cmp-weights"]');
    assert.deepEqual(fixed3(await numbers(page, 'weights', 0, 0)), fixed3([0.192, 0.187, 0.185, 0.142, 0.14, 0.155]));
    assert.deepEqual(fixed3(await numbers(page, 'cmp-weights', 0, 0)), fixed3([1, 0, 0, 0, 0, 0]));
    assert.match(await page.textContent('figure[data-matrix-figure="cmp-weights"] figcaption'), /causal/);

    // Padding: two padding tokens on the left, causal.
    await page.click('a[data-preset="padding"]');
    await page.waitForSelector('section[data-step="mask"]');
    assert.deepEqual(await page.$$eval('.pad-chips button', (b) => b.map((n) => n.getAttribute('aria-pressed'))), [
      'true',
      'true',
      'false',
      'false',
      'false',
    ]);
    assert.deepEqual(await lessonRow(page, 'mask', null, 4), ['−∞', '−∞', '0', '0', '0']);
    assert.match(await page.innerText('#mask-workbench .wb-notes'), /“\[PAD\]”, “\[PAD\]” see no key at all/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the softmax lab: temperature, √d_k, naive softmax overflowing next to the stable one', async () => {
  const { page, errors, close } = await open('#preset=journey&v=1&step=softmax&row=2');
  try {
    // The lab's table is a matrix of its keys (columns z, exp, weight, naive e^z, naive a); its sums
    // are in the summary.
    const labCol = { z: 0, exp: 1, weight: 2, 'naive-exp': 3, 'naive-weight': 4 };
    const labSel = (kind) => (kind in labCol ? `td[data-matrix="lab"][data-col="${labCol[kind]}"]` : `[data-lab="${kind}"]`);
    const lab = (kind) => page.$$eval(`#softmax-lab ${labSel(kind)}`, (c) => c.map((n) => n.textContent.trim()));
    assert.deepEqual(await lab('weight'), ['0.423', '0.577', '0.000', '0.000', '0.000', '0.000']);
    // Each weight's bar is as wide as the weight: a share of its box (its background's width).
    const bars = () =>
      page.$$eval(`#softmax-lab ${labSel('weight')}`, (boxes) => boxes.map((box) => parseFloat(getComputedStyle(box).backgroundSize)));
    (await bars()).forEach((width, j) => assert.ok(Math.abs(width - [42.3, 57.7, 0, 0, 0, 0][j]) < 0.06, `bar ${j + 1}: ${width} %`));
    assert.deepEqual(await lab('exp'), ['0.732', '1.000', '0.000', '0.000', '0.000', '0.000']);
    assert.equal((await lab('sum'))[0], 'Σ e^(z − max) = 1.732');
    assert.match((await lab('wsum'))[0], /= 1$/);
    const entropy = (await lab('entropy'))[0];
    assert.match(await page.innerText('#softmax-lab .lab-notes'), /τ = 1: the plain softmax/);
    const labHeight = () => page.$eval('#softmax-lab', (n) => n.getBoundingClientRect().height);
    const atOne = await labHeight();
    // The step's formula lines, as the TeX each shows.
    const lines = () => page.$$eval('section[data-step="softmax"] .formulas-tex > .step-formula', (n) => n.map((f) => f.dataset.tex));
    const plain = await lines();
    assert.equal(plain.length, 2);
    assert.match(plain[0], /softmax\}\\!\\left\(S \+ M\\right\)/);

    // τ = 0.5 sharpens: the larger weight grows, the entropy falls. Its note takes the place of
    // the τ = 1 note: the lab keeps its height, so the page below does not move.
    await page.fill('#lesson-tau', '0.5');
    assert.match(await page.innerText('#softmax-lab .lab-notes'), /τ = 0\.5 < 1 sharpens/);
    assert.equal(await labHeight(), atOne);
    const sharp = (await lab('weight')).map(Number);
    assert.ok(sharp[1] > 0.577 && sharp[1] < 1, sharp.join(' '));
    (await bars()).forEach((width, j) => assert.ok(Math.abs(width - sharp[j] * 100) < 0.06, `bar ${j + 1} at τ = 0.5: ${width} %`));
    assert.ok(parseFloat((await lab('entropy'))[0].match(/[\d.]+/)[0]) < parseFloat(entropy.match(/[\d.]+/)[0]));
    const tempered = await lines();
    assert.equal(tempered.length, 3); // τ's own line comes in between
    assert.match(tempered[0], /\\frac\{S \+ M\}\{\\tau\}/);
    assert.equal(tempered[1], '\\tau = 0.5');
    assert.equal(tempered[2], plain[1]);
    // Moving τ again, the formula shows the new number.
    await page.fill('#lesson-tau', '0.25');
    const tau = await page.$$eval('section[data-step="softmax"] .step-formula', (nodes) =>
      nodes.filter((n) => n.dataset.tex === '\\tau = 0.25').map((n) => n.querySelector('.katex-html').textContent),
    );
    assert.deepEqual(tau, ['τ=0.25']);
    await page.fill('#lesson-tau', '0.5');
    // Bad temperatures are refused where they are typed.
    await page.fill('#lesson-tau', '0');
    assert.match(await page.textContent('#softmax-lab .lesson-error'), /between|from 0\.01 to 100/);
    assert.deepEqual((await lab('weight')).map(Number), sharp);
    await page.fill('#lesson-tau', '1');
    assert.equal(await page.isHidden('#softmax-lab .lesson-error'), true);
    assert.deepEqual(await lines(), plain);

    // Naive softmax: same numbers while e^z fits in float32 … Switching it on moves nothing below
    // the lab: its columns, sum and note keep their place while it is off.
    const labBottom = () => page.$eval('#softmax-lab', (n) => n.getBoundingClientRect().bottom + scrollY);
    const bottomBefore = await labBottom();
    await page.check('#lesson-naive');
    assert.equal(await labBottom(), bottomBefore);
    // With a weight selected, the explanation's formula follows the switch: one form seen (and
    // read aloud) at a time.
    await page.click(cell('weights', 0, 1, 0));
    const seenForms = () =>
      page.$$eval('#explain .explain-stack > .explain-tex', (nodes) =>
        nodes
          .filter((f) => Number(getComputedStyle(f).opacity) > 0.99 && f.getAttribute('aria-hidden') !== 'true')
          .map((f) => (/\\max/.test(f.dataset.tex) ? 'stable' : 'naive')),
      );
    assert.deepEqual(await seenForms(), ['naive']);
    await page.uncheck('#lesson-naive');
    assert.deepEqual(await seenForms(), ['stable']);
    await page.check('#lesson-naive');
    assert.deepEqual(await seenForms(), ['naive']);
    assert.match(await explanation(page), /a₂₁ = 1\.735 \/ 4\.106 ≈ 0\.423/);
    assert.deepEqual(await lab('naive-weight'), ['0.423', '0.577', '0.000', '0.000', '0.000', '0.000']);
    assert.deepEqual(await lab('naive-exp'), ['1.735', '2.371', '0.000', '0.000', '0.000', '0.000']);
    // … X × 10: scores ≈ 100×; with √3 the largest is 86.3 < 88.72, e^86.3 ≈ 3.06e37 still fits.
    await page.click('#lesson-x10');
    assert.deepEqual(await lab('naive-exp'), ['8.52e23', '3.06e37', '0.000', '0.000', '0.000', '0.000']);
    assert.match(await page.innerText('#softmax-lab .lab-notes'), /no overflow in this row yet/);
    // … without √d_k the score 149.5 overflows: ∞, and ∞/∞ = NaN, while the stable result is fine.
    await page.uncheck('#lesson-scale');
    assert.deepEqual(await lab('naive-exp'), ['∞', '∞', '0.000', '0.000', '0.000', '0.000']);
    assert.deepEqual(await lab('naive-weight'), ['NaN', 'NaN', '0.000', '0.000', '0.000', '0.000']);
    assert.deepEqual(await lab('weight'), ['0.000', '1.000', '0.000', '0.000', '0.000', '0.000']);
    assert.match(await page.innerText('#softmax-lab .lab-notes'), /overflows float32 in 2 place/);
    assert.equal(await page.isChecked('#scale'), false); // the same switch as in the form
    // The NaN flows on into the page's A, in bold.
    assert.deepEqual((await numbers(page, 'weights', 0, 1)).slice(0, 2).map(String), ['NaN', 'NaN']);
    assert.equal(await page.$eval(cell('weights', 0, 1, 0), (td) => getComputedStyle(td).fontWeight), '700');
    await saveScreenshot(page, { path: path.join(screenshots, 'lesson-lab-naive-en.png'), fullPage: false });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// A full-page screenshot from the top of the page, so that the sticky stepper and explanation
// sit where a reader first sees them; the selected cell (not the pointer) is explained.
async function shoot(page, name) {
  await page.mouse.move(1, 1);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshotDrawn(page, path.join(screenshots, name));
}

test('a number drawn on a canvas says the same under the keys, in its explanation and in the softmax lab', async () => {
  // 7 tokens, d_model 8, 2 heads, all steps: too many cells for tables (render/policy.js), so the
  // matrices with a row per token are canvases, and the softmax lab (7 keys) a table.
  const { page, errors, close } = await open(`#v=1&s=${tokens(7, 'w')}&d=8&h=2`);
  try {
    // a₄₂ reached with the keyboard: the readout says the number the explanation computes…
    await page.focus(grid('weights', 0));
    for (const key of ['Home', ...Array(7).fill('ArrowUp'), 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight']) await page.keyboard.press(key);
    await page.waitForFunction(() => document.querySelector('#explain .explain-mode')?.textContent === 'Selected cell');
    await page.waitForFunction(() => /^a.*₄₂/.test(document.querySelector('#explain .explain-lines')?.innerText ?? ''));
    const said = (await readout(page, 'weights', 0)).split(': ').pop();
    assert.equal(await explainedValue(page), said);
    // …and the lab prints for the row selected; one step at a time, the softmax step says it too.
    await page.click('button[data-step="softmax"]');
    await page.waitForSelector(`${SHOWN}[data-step="softmax"]`);
    assert.equal(await page.getAttribute('.lab-rows button[data-lab-row="3"]', 'aria-pressed'), 'true');
    assert.equal(
      Number(await page.textContent('#softmax-lab td[data-matrix="lab"][data-col="2"][data-row="1"]')).toFixed(3),
      Number(said).toFixed(3),
    );
    assert.equal(fixed3(await numbers(page, 'weights', 0, 3))[1], Number(said).toFixed(3));
    await page.click('#step-all');
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 9, SHOWN);
    assert.deepEqual(await pastTheirStep(page), []); // on canvases too
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('from T = 8 the T×T matrices explain, highlight and toggle on their canvases as tables do', async () => {
  const { page, errors, close } = await open(`#v=1&s=${tokens(20, 'w')}&d=4&h=1&step=softmax`);
  try {
    // The softmax lab, read through its keyboard readout (key is 0-based).
    const labSays = async (key) => {
      await page.focus('#softmax-lab .cg-body');
      await page.keyboard.press('Home');
      for (let k = 0; k < key; k += 1) await page.keyboard.press('ArrowDown');
      return page.textContent('#softmax-lab .cg-readout');
    };
    const labWeight = async (key) => (await labSays(key)).match(/weight (\S+?)(;|$)/)[1];
    assert.match(await labSays(0), /^Key 1 \(w1\): z = \S+, e\^\(z − max\) = 1\.000, weight 1\.000$/);

    // Pointing at a₅₃ explains it, outlines it and the entries it depends on.
    let p = await entryPoint(page, 'weights', 0, 4, 2);
    await page.mouse.move(p.x, p.y);
    await page.waitForFunction(() => document.querySelector('#explain').dataset.cell === 'weights.1.5.3');
    assert.equal(await page.textContent('#explain .explain-mode'), 'Under the pointer');
    assert.match(await explanation(page), /a₅₃ = /);
    const self = `${grid('weights', 0)} [data-hl="self"][data-row="4"][data-col="2"]`;
    assert.equal(await page.locator(self).count(), 1);
    const deps = await page.$$eval(`${SHOWN} .cg-body [data-hl="dep"]`, (n) =>
      n.map((m) => `${m.closest('.cg-body').dataset.matrix}:${m.dataset.row},${m.dataset.col}`),
    );
    assert.ok(
      deps.some((d) => /^(masked|exps):4,/.test(d)),
      deps.join(' '),
    );
    // A change that keeps a₅₃ explained (τ) keeps it outlined. (The slider is set by script:
    // focusing it could scroll the page, and the pointer would then be over another entry.)
    const nudgeTau = (by) =>
      page.evaluate((d) => {
        const range = document.querySelector('#lesson-tau-range');
        range.value = String(Number(range.value) + d);
        range.dispatchEvent(new Event('input', { bubbles: true }));
      }, by);
    await nudgeTau(0.1);
    await page.waitForURL(/tau=/);
    assert.match(await explanation(page), /a₅₃ = /);
    assert.equal(await page.locator(self).count(), 1);
    await nudgeTau(-0.1);
    await page.waitForURL((url) => !/tau=/.test(url.hash));

    // A click selects it: the softmax lab moves to row 5, and the explanation ends on its weight.
    await page.mouse.click(p.x, p.y);
    await page.waitForURL(/cell=weights\.1\.5\.3/);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.matrix), 'weights');
    assert.equal(await page.textContent('#explain .explain-mode'), 'Selected cell');
    const [w3, w4] = [await labWeight(2), await labWeight(3)];
    assert.match(await explanation(page), new RegExp(`a₅₃ = .*≈ ${w3.replace('.', '\\.')}$`, 'm'));
    assert.equal(await labWeight(5), '0.000'); // a₅₆: behind the causal mask

    // The keyboard: arrows move the active entry, which is selected and said in the readout.
    await page.focus(grid('weights', 0));
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/cell=weights\.1\.5\.4/);
    await page.mouse.move(5, 5); // the pointer leaves: the selected entry is explained
    assert.match(await explanation(page), /a₅₄ = /);
    assert.equal(await readout(page, 'weights', 0), `Row 5 (w5), column 4: ${w4}`);
    await page.keyboard.press('ArrowRight'); // a₅₅, then a₅₆: behind the causal mask, exactly 0
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/cell=weights\.1\.5\.6/);
    assert.equal(await readout(page, 'weights', 0), 'Row 5 (w5), column 6: 0');

    // M: a click toggles an entry (the mask becomes custom), Space toggles it back.
    await page.click('button[data-step="mask"]');
    const readM = () => readout(page, 'mask', null);
    p = await entryPoint(page, 'mask', null, 2, 5);
    await page.mouse.click(p.x, p.y);
    await page.waitForURL(/mask=custom/);
    assert.equal(await page.isChecked('input[name="lesson-mask"][value="custom"]'), true);
    assert.equal(await readM(), 'Row 3 (w3), column 6: 0');
    assert.match(await page.innerText('#explain'), /w3.*may see.*w6/);
    await page.keyboard.press('ArrowLeft');
    assert.equal(await readM(), 'Row 3 (w3), column 5: −∞');
    await page.keyboard.press('Space');
    await page.waitForFunction(
      (sel) => /Row 3 \(w3\), column 5: 0/.test(document.querySelector(`${sel} .cg-readout`).textContent),
      grid('mask', null),
    );
    // The recomputed scores agree: S + M at (3, 5) and (3, 6) are finite now, (3, 7) still −∞.
    for (const [c, finite] of [
      [4, true],
      [5, true],
      [6, false],
    ]) {
      p = await entryPoint(page, 'masked', 0, 2, c);
      await page.mouse.move(p.x, p.y);
      await page.waitForFunction((ref) => document.querySelector('#explain').dataset.cell === ref, `masked.1.3.${c + 1}`);
      const line = await explanation(page);
      assert.equal(/= −∞$/m.test(line), !finite, line);
    }

    // A step shown again is brought up to date: with a fill of 0 nothing is masked, so a₁₆ (the
    // future, 0 until now) is not 0, and the step looks as a fresh page of its link does.
    await page.check('input[name="lesson-fill"][value="0"]');
    await page.click('button[data-step="softmax"]');
    assert.deepEqual(await shownSteps(page), ['softmax']);
    p = await entryPoint(page, 'weights', 0, 0, 5);
    await page.mouse.click(p.x, p.y);
    const shown = await readout(page, 'weights', 0);
    assert.match(shown, /^Row 1 \(w1\), column 6: 0\.\d{3}$/);
    assert.ok(Number(shown.split(': ')[1]) > 0, shown);
    await assertLooksLikeFreshPage(open, page);

    // Screenshots of the canvases (look at them): pointing at an entry, in English and in Chinese.
    const toHead = () =>
      page.evaluate(() =>
        window.scrollTo(0, document.querySelector('section.lesson-step:not(.parked) article.head').getBoundingClientRect().top + window.scrollY - 60),
      );
    await toHead();
    p = await entryPoint(page, 'masked', 0, 2, 4);
    await page.mouse.move(p.x, p.y);
    await page.waitForSelector('#explain[data-cell="masked.1.3.5"]');
    await saveScreenshot(page, { path: path.join(screenshots, 'lesson-canvas-en.png') });
    await page.evaluate(() => document.querySelector('#softmax-lab').scrollIntoView({ block: 'start' }));
    await labSays(3);
    await saveScreenshot(page, { path: path.join(screenshots, 'lesson-lab-canvas-en.png') });
    const weightsName = () => page.textContent('section:not(.parked) figure[data-matrix-figure="weights"] figcaption .name');
    assert.match(await weightsName(), /^[ -~]+$/);
    await page.click('[data-lang="zh-CN"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert.match(await weightsName(), /[\u4e00-\u9fff]/); // the figures are named in Chinese too
    await toHead();
    await page.mouse.move(p.x, p.y);
    await whenDrawn(page);
    await saveScreenshot(page, { path: path.join(screenshots, 'lesson-canvas-zh.png') });
    // The lab's canvas in Chinese: its headers and its readout.
    await page.evaluate(() => document.querySelector('#softmax-lab').scrollIntoView({ block: 'start' }));
    assert.match(await labSays(0), /^第 1 个键（w1）：z = /);
    await saveScreenshot(page, { path: path.join(screenshots, 'lesson-lab-canvas-zh.png') });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('from T = 8 X on its canvas is edited as the table is: type, Enter, Tab, F2, a double click, a refused entry, the link', async () => {
  const { page, errors, close } = await open(`#v=1&s=${tokens(20, 'w')}&d=4&h=1&step=x`);
  try {
    await openSettings(page); // (the embeddings box is in the settings)
    const editor = `${grid('x', null)} input.cell-input`;
    const said = () => readout(page, 'x', null);
    const message = () => page.textContent(`${SHOWN} figure[data-matrix-figure="x"] .cell-error`);
    const row = async (r) => (await page.inputValue('#embeddings-text')).split('\n')[r];
    const figureBox = () => page.$eval(`${SHOWN} figure[data-matrix-figure="x"]`, (n) => [n.offsetWidth, n.offsetHeight]);
    const closedBox = await figureBox();

    // A click selects x₂₁ (the keyboard then works on it); typing opens the editor over it.
    let p = await entryPoint(page, 'x', null, 1, 0);
    await page.mouse.click(p.x, p.y);
    const before = (await said()).split(': ')[1];
    assert.match(await said(), /^Row 2 \(w2\), column 1: −?\d\.\d{3}$/);
    await page.keyboard.type('abc');
    const box = await page.locator(editor).boundingBox();
    assert.ok(Math.abs(box.y + box.height / 2 - p.y) < 3 && box.x < p.x && box.x + box.width > p.x, JSON.stringify([box, p])); // over the entry
    assert.deepEqual(await figureBox(), closedBox); // the editor lies over the canvas
    await page.keyboard.press('Enter');
    assert.equal(await message(), `“abc” is not a finite number: the cell keeps ${before}.`);
    assert.equal(await page.getAttribute(editor, 'aria-invalid'), 'true');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator(editor).count(), 0);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.matrix), 'x'); // back on the grid
    assert.equal((await said()).split(': ')[1], before);
    assert.equal(await page.isChecked('input[name="embeddings"][value="edit"]'), false); // nothing was edited

    // A valid number: X and the embeddings box change; Enter moves down to x₃₁.
    await page.keyboard.type('1.5');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('input[name="embeddings"][value="edit"]').checked);
    assert.match(await row(1), /^1\.5 /);
    assert.equal(await page.isHidden(`${SHOWN} figure[data-matrix-figure="x"] .cell-error`), true);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.matrix), 'x');
    assert.match(await said(), /^Row 3 \(w3\), column 1: /);
    await page.keyboard.press('ArrowUp');
    assert.equal(await said(), 'Row 2 (w2), column 1: 1.500');
    await page.mouse.move(5, 5); // the selected entry is explained
    await page.waitForURL(/cell=x\.2\.1/);
    assert.match(await explanation(page), /1\.500/);

    // F2 opens the editor on the value; Tab moves right; the embeddings box follows.
    await page.keyboard.press('F2');
    assert.equal(await page.inputValue(editor), '1.500');
    await page.keyboard.type('-2'); // (the value was selected: typing replaces it)
    await page.keyboard.press('Tab');
    assert.match(await said(), /^Row 2 \(w2\), column 2: /);
    await page.waitForFunction(() => /^-2 /.test(document.querySelector('#embeddings-text').value.split('\n')[1]));

    // An edit and, before the embeddings box caught up (it is written in idle time), a reader
    // about to type in it: it shows the edit as it takes the focus, at the 4 decimals the page
    // computed with. (In one task, so that the box has not caught up.)
    const [rowBefore, rowOnFocus, saidThen] = await page.evaluate(
      (sel) => {
        const gridNode = document.querySelector(sel);
        const text = document.querySelector('#embeddings-text');
        gridNode.dispatchEvent(new KeyboardEvent('keydown', { key: '7', bubbles: true, cancelable: true }));
        const input = gridNode.querySelector('input.cell-input');
        input.value = '0.123456';
        input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
        const rowBefore = text.value.split('\n')[1];
        text.focus();
        return [rowBefore, text.value.split('\n')[1], gridNode.querySelector('.cg-readout').textContent];
      },
      grid('x', null),
    );
    assert.doesNotMatch(rowBefore, /^-2 0\.1235 /); // (not yet: else this checks nothing)
    assert.match(rowOnFocus, /^-2 0\.1235 /);
    assert.match(saidThen, /^Row 3 \(w3\), column 2: /); // Enter moved down
    // The link holds the embeddings box's rows, and a fresh page of it shows the same matrices.
    const text = await page.inputValue('#embeddings-text');
    const linked = () => decodeHash(new URL(page.url()).hash).draft.embeddingsText;
    await linkNow(page);
    assert.equal(linked(), text);
    await assertLooksLikeFreshPage(open, page);
    await page.focus(grid('x', null));

    // A double click opens the editor on that entry; leaving it with a bad entry keeps the value.
    p = await entryPoint(page, 'x', null, 4, 3);
    const fifth = await row(4);
    await page.mouse.dblclick(p.x, p.y);
    assert.equal(await page.getAttribute(editor, 'aria-label'), 'New value for row 5, column 4');
    await page.keyboard.type('1e999');
    await saveScreenshot(page, { path: path.join(screenshots, 'lesson-canvas-x-edit-en.png') });
    await page.click('h1');
    assert.equal(await page.locator(editor).count(), 0);
    assert.match(await message(), /“1e999” is not a finite number/);
    assert.equal(await row(4), fifth);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('from d_model = 16 the weights on their canvases are edited in place: refused entries, Randomise, the link', async () => {
  const { page, errors, close } = await open('#v=1&s=Your+journey+starts&d=16&h=4&step=qkv');
  try {
    const said = () => readout(page, 'wq', null);
    const q00 = async () => (await numbers(page, 'q', null, 0))[0];
    const q00Before = await q00();

    // A click makes w₁₁ the active entry; a bad entry is refused and the value stays.
    const p = await entryPoint(page, 'wq', null, 0, 0);
    await page.mouse.click(p.x, p.y);
    const before = (await said()).split(': ')[1];
    assert.match(await said(), /^Row 1 \(1\), column 1: −?\d\.\d{3}$/);
    await page.keyboard.type('abc');
    await page.keyboard.press('Enter');
    assert.match(await page.textContent(`${SHOWN} figure[data-matrix-figure="wq"] .cell-error`), /“abc” is not a finite number/);
    await page.keyboard.press('Escape');
    assert.equal((await said()).split(': ')[1], before);

    // A number: W_Q and Q change (Q = X W_Q), Enter moves down, the link holds the weights.
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    assert.match(await said(), /^Row 2 \(2\), column 1: /);
    await page.keyboard.press('ArrowUp');
    assert.equal(await said(), 'Row 1 (1), column 1: 2.000');
    assert.notEqual(await q00(), q00Before);
    await page.waitForURL(/wq=/);
    assert.equal(await page.locator(`${grid('wq', null)} input.cell-input`).count(), 0);

    // Randomise draws new numbers on the same canvas, and Q follows.
    const pixels = () => page.$eval(`${grid('wq', null)} canvas`, (c) => c.toDataURL());
    const drawn = await pixels();
    const q00Edited = await q00();
    await page.click('button[data-tool="random"][data-target="wq"]');
    await page.waitForFunction(([sel, old]) => document.querySelector(sel).toDataURL() !== old, [`${grid('wq', null)} canvas`, drawn]);
    assert.notEqual(await q00(), q00Edited);
    await saveScreenshot(page, { path: path.join(screenshots, 'lesson-canvas-weights-en.png') });
    await assertLooksLikeFreshPage(open, page);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// Past the printed corner (T > 48) a matrix shows its 48 × 48 corner (render/policy.js). With the
// causal mask a row depends only on the tokens up to it: an entry of the corner explains the
// number the page of the first 48 tokens explains for it.
test('past the printed corner a matrix shows its 48 × 48 corner, with the numbers of the page of 48 tokens', async () => {
  // Entries explained under the pointer (qkv), or read with the keys (softmax).
  const steps = {
    qkv: [
      ['x', null, 45, 2],
      ['wq', null, 3, 1],
    ],
    softmax: [
      ['weights', 0, 40, 12],
      ['weights', 0, 47, 3],
    ],
  };
  const read = async (T) => {
    const { page, errors, close } = await open(`#v=1&s=${tokens(T)}&d=4&h=1&step=qkv`);
    const out = {};
    try {
      for (const step of Object.keys(steps)) {
        await page.click(`button[data-step="${step}"]`);
        await page.waitForSelector(`${SHOWN}[data-step="${step}"] [data-matrix]`);
        await whenDrawn(page);
        const shapes = await page.$$eval(`${SHOWN} figure[data-matrix-figure] .shape`, (all) => all.map((s) => s.textContent));
        const said = [];
        for (const [name, head, row, col] of steps[step]) {
          const ref = [name, head === null ? null : head + 1, row + 1, col + 1].filter((v) => v !== null).join('.');
          if (step === 'softmax') {
            // Its grid focused, the active entry moved there: what the readout says. The corner's
            // last row is row 48, however far down the keys go.
            const g = page.locator(grid(name, head));
            await g.focus();
            await page.keyboard.press('Home');
            for (let k = 0; k < 60; k += 1) await page.keyboard.press('ArrowDown');
            assert.match(await g.locator('.cg-readout').textContent(), /^Row 48 /);
            for (let k = 0; k < 47 - row; k += 1) await page.keyboard.press('ArrowUp');
            for (let k = 0; k < col; k += 1) await page.keyboard.press('ArrowRight');
            const [, r, c, value] = (await g.locator('.cg-readout').textContent()).match(/^Row (\d+) \(t\d+\), column (\d+): (\S+)$/) ?? [];
            assert.deepEqual([r, c], [String(row + 1), String(col + 1)]);
            said.push(value);
            continue;
          }
          if (await page.locator(cell(name, head, row, col)).count()) await page.hover(cell(name, head, row, col));
          else {
            // (entryPoint, with the box scrolled down too: row 46 is below its 75vh; once the page
            // has stopped moving, as figures skipped above take their size)
            const sel = grid(name, head);
            await page.locator(sel).scrollIntoViewIfNeeded();
            const at = () =>
              page.$eval(
                sel,
                (g, [r, c]) => {
                  const width = parseFloat(g.parentNode.style.getPropertyValue('--cw'));
                  const box = g.closest('.scroll');
                  box.scrollLeft = c * width;
                  box.scrollTop = Math.max(0, (r - 25) * 20);
                  const canvas = g.querySelector('canvas').getBoundingClientRect();
                  return `${canvas.left + (c + 0.5) * width},${canvas.top + (r + 0.5) * 20}`;
                },
                [row, col],
              );
            let [p, before] = [await at(), ''];
            for (let attempt = 0; attempt < 20 && p !== before; attempt += 1) {
              await twoFrames(page);
              [before, p] = [p, await at()];
            }
            const [x, y] = p.split(',').map(Number);
            await page.mouse.move(x, y);
          }
          await page.waitForSelector(`#explain[data-cell="${ref}"]`);
          said.push(await explainedValue(page));
        }
        // The step's last grid is drawn: more than the one colour of an empty canvas.
        const colours = await page.$$eval(`${SHOWN} .cg-body[data-matrix] canvas`, (all) => {
          const canvas = all.pop();
          const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
          const seen = new Set();
          for (let k = 0; k < data.length && seen.size < 10; k += 4 * 97) seen.add(data.slice(k, k + 3).join());
          return seen.size;
        });
        out[step] = { shapes, said, colours };
      }
      assert.deepEqual(errors, []);
      return out;
    } finally {
      await close();
    }
  };
  const [past, below] = [await read(64), await read(48)];
  for (const step of Object.keys(steps)) {
    assert.ok(
      past[step].shapes.some((s) => s.startsWith('64 ×')),
      past[step].shapes.join(', '),
    );
    assert.ok(past[step].colours > 2, `${step}: the corner is drawn`);
    assert.deepEqual(past[step].said, below[step].said, step);
    assert.ok(
      past[step].said.every((v) => /^−?\d+\.\d{3}$/.test(v)),
      past[step].said.join(' '),
    );
  }
});

test('the softmax lab on a canvas, far below and then after changes of τ, row, head, naive softmax and overflow, shows what a fresh page shows', async () => {
  // All steps, 32 tokens: the lab starts far below the window.
  const { page, errors, close } = await open(`#v=1&s=${tokens(32)}&d=8&h=2&row=5`);
  try {
    const lab = (name) => name === 'lab';
    // An edit of W_Q at the top of the page, the lab far below; scrolled to, it holds the new numbers.
    await page.click(cell('wq', null, 0, 0));
    await page.keyboard.press('Enter');
    await page.keyboard.type('2.5');
    await page.keyboard.press('Enter');
    assert.match(await page.textContent(cell('wq', null, 0, 0)), /^2\.5/);
    await page.waitForURL(/wq=/);
    await assertLooksLikeFreshPage(open, page, lab, 'after an edit far above:');
    // A run of changes in the lab (only the cells that change are drawn again: its end must
    // look as a page opened on its link does).
    const tauTo = async (value) => {
      await page.fill('#lesson-tau', value);
      await page.waitForURL(new RegExp(`tau=${value.replace('.', '\\.')}`));
    };
    await tauTo('0.5');
    await page.click('.lab-rows button[data-lab-row="9"]');
    await page.click('.lab-heads button[data-lab-head="1"]');
    await page.check('#lesson-naive');
    await tauTo('0.05');
    await page.click('#lesson-x10');
    await page.click('#lesson-x10'); // the naive exponentials overflow: ∞ and NaN, in bold on pink
    await page.waitForFunction(() => /overflows float32/.test(document.querySelector('#softmax-lab .lab-notes').innerText));
    await tauTo('2');
    await page.waitForURL(/naive=1/);
    await assertLooksLikeFreshPage(open, page, lab, 'after changes in the lab:');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('canvases far from the window show the latest numbers when scrolled to, and coming near moves nothing', async () => {
  const { page, errors, close } = await open(`#v=1&s=${tokens(32)}&d=8&h=2&step=softmax`);
  try {
    const frames = () =>
      page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)))));
    const figureTops = () => page.$$eval(`${SHOWN} figure.matrix`, (all) => all.map((f) => Math.round(f.getBoundingClientRect().top + scrollY)));
    // The temperature slider (log₁₀ τ) moved to `value`, wherever it is on the page.
    const setLogTau = async (value) => {
      await page.evaluate((v) => {
        const range = document.querySelector('#lesson-tau-range');
        range.value = v;
        range.dispatchEvent(new Event('input', { bubbles: true }));
      }, value);
      await frames();
    };
    await page.evaluate(() => window.scrollTo(0, 0));
    await frames();
    // A new temperature while the last figure (A of head 2) is far below; scrolled to, nothing
    // above it moves, and the entry clicked says what the engine computed.
    await setLogTau('-0.5');
    const atTop = await figureTops();
    const p = await entryPoint(page, 'weights', 1, 5, 2);
    await frames();
    const moved = (await figureTops()).map((top, k) => top - atTop[k]);
    assert.ok(
      moved.every((d) => Math.abs(d) <= 3),
      `figures moved by ${moved.join(', ')} px`,
    );
    await page.mouse.click(p.x, p.y);
    await page.waitForFunction(() => document.querySelector('#explain .explain-mode')?.textContent === 'Selected cell');
    assert.equal((await readout(page, 'weights', 1)).split(': ').pop(), await explainedValue(page));

    // Another temperature while it is on screen, its box scrolled sideways with the wheel to its
    // last columns: the last entry (causal: the only one of row 32 not masked) says the new number.
    await setLogTau('-0.3');
    const scrollBox = await page.locator(`${SHOWN} figure.matrix[data-matrix-figure="weights"][data-head="1"] .scroll`).boundingBox();
    await page.mouse.move(scrollBox.x + scrollBox.width / 2, scrollBox.y + scrollBox.height / 2);
    await page.mouse.wheel(4000, 0);
    await frames();
    const end = await page.$eval(grid('weights', 1), (g) => {
      const b = g.querySelector('canvas').getBoundingClientRect();
      const w = parseFloat(g.parentNode.style.getPropertyValue('--cw'));
      return { x: b.left + 31.5 * w, y: b.top + 31.5 * 20 };
    });
    await page.mouse.click(end.x, end.y);
    await page.waitForFunction(() => /\.32\.32$/.test(document.querySelector('#explain').dataset.cell ?? ''));
    assert.equal((await readout(page, 'weights', 1)).split(': ').pop(), await explainedValue(page));
    await assertLooksLikeFreshPage(open, page, () => true, 'after τ changed far and near:');

    // The mask step shown again (its section kept hidden meanwhile), its kind changed a few times
    // with the masked scores of head 2 far below: scrolled to, as a fresh page draws them.
    await page.click('button[data-step="mask"]');
    await frames();
    await page.click('button[data-step="softmax"]');
    await frames();
    await page.click('button[data-step="mask"]');
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const kind of ['none', 'prefix', 'causal', 'window']) {
      await page.locator(`#mask-workbench .wb-kind input[value="${kind}"]`).check();
      await frames();
    }
    await assertLooksLikeFreshPage(open, page, (name) => name === 'masked', 'the mask step shown again:');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('going to the last step moves nothing on the page as the step before is prepared, and that step shows what a fresh page of it shows', async () => {
  const { page, errors, close } = await open(`#v=1&s=${tokens(32)}&d=8&h=2&step=softmax`);
  try {
    await whenDrawn(page);
    // To the last step, then (in its first frame, before the step before it is prepared) the
    // page scrolled to its output.
    const where = () => page.evaluate(() => ({ y: window.scrollY, top: window.figureTop() }));
    const prepared = await page.evaluate(
      () =>
        new Promise((resolve) => {
          document.querySelector('button[data-step="output"]').click();
          requestAnimationFrame(() => {
            const figure = () => document.querySelector('section.lesson-step:not(.parked)[data-step="output"] figure.matrix:last-of-type');
            window.scrollTo(0, figure().getBoundingClientRect().top + window.scrollY - 200);
            window.figureTop = () => figure().getBoundingClientRect().top;
            resolve(Boolean(document.querySelector('section.lesson-step[data-step="concat"]')));
          });
        }),
    );
    assert.equal(prepared, false, 'the step before is not prepared yet (else this checks nothing)');
    const before = await where();
    await page.waitForSelector('#results section.lesson-step[data-step="concat"]', { state: 'attached' });
    await whenDrawn(page);
    assert.deepEqual(await where(), before);
    await page.click('#step-prev');
    assert.deepEqual(await shownSteps(page), ['concat']);
    await assertLooksLikeFreshPage(open, page);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// A change is shown at once where the learner looks; what it puts off (out of the window) must be
// up to date by the time it is seen: scrolled to, printed, or on a fresh page of the link.
test('a change shows at once in the window, and the rest of the page is up to date when scrolled to or printed', async () => {
  // A canvas half out of the window: its rows in the window are new in the change's own task
  // (no frame shows them stale), and all of it ends as a fresh page of the sliding window draws it.
  const { page, errors, close } = await open(`#v=1&s=${tokens(32)}&d=8&h=2&step=mask`);
  try {
    await whenDrawn(page);
    const M = `${grid('mask', null)} canvas`;
    await page.$eval(M, (canvas) => window.scrollBy(0, canvas.closest('.scroll').getBoundingClientRect().top - (innerHeight - 200)));
    await twoFrames(page);
    await whenDrawn(page);
    const seen = await page.evaluate((sel) => {
      const canvas = document.querySelector(sel);
      const rowH = 20 * devicePixelRatio; // a row of entries
      const rows = () => {
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        const per = canvas.width * rowH * 4;
        return Array.from({ length: Math.floor(canvas.height / rowH) }, (_, r) => {
          let hash = 0;
          for (let k = r * per; k < (r + 1) * per; k += 1) hash = (hash * 31 + data[k]) | 0;
          return hash;
        });
      };
      const before = rows();
      const top = canvas.getBoundingClientRect().top;
      document.querySelector('input[name="lesson-mask"][value="window"]').click();
      return { before, during: rows(), top, height: innerHeight };
    }, M);
    // The sliding window (width 3) masks more of every row from the 4th on.
    const inWindow = seen.before.map((_, r) => r >= 3 && seen.top + 20 * (r + 1) <= seen.height);
    assert.ok(inWindow.filter(Boolean).length >= 4, `${seen.top}`);
    seen.before.forEach((hash, r) => {
      if (inWindow[r]) assert.notEqual(seen.during[r], hash, `row ${r + 1}, in the window, is drawn with the change`);
    });
    await assertLooksLikeFreshPage(open, page, (name) => name === 'mask');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }

  // Tables, all steps and one step at a time: ÷√d_k off with S + M in the window and A just below
  // it. S + M is new in the change's task; A, scrolled to, shows a fresh page's numbers.
  for (const hash of ['#preset=journey', '#preset=journey&step=softmax']) {
    const { page, errors, close } = await open(hash);
    try {
      await whenDrawn(page);
      await page.evaluate(() => {
        const figure = document.querySelector('section.lesson-step:not(.parked)[data-step="softmax"] td[data-matrix="weights"]').closest('figure');
        window.scrollBy(0, figure.getBoundingClientRect().top - innerHeight - 60);
      });
      await twoFrames(page);
      await whenDrawn(page);
      const [before, during] = await page.evaluate(async () => {
        // The lowest entry of S + M in the window, clear of its edge (column 1: no row masks it).
        const cell = [...document.querySelectorAll('section.lesson-step:not(.parked) td[data-matrix="masked"][data-head="0"][data-col="0"]')]
          .filter((td) => td.getBoundingClientRect().top >= 40 && td.getBoundingClientRect().bottom <= innerHeight - 40)
          .pop();
        const read = () => cell.textContent;
        const was = read();
        const box = document.querySelector('#lesson-scale');
        box.checked = false;
        box.dispatchEvent(new Event('change', { bubbles: true }));
        await null; // (the change's microtasks)
        return [was, read()];
      });
      assert.notEqual(during, before, `${hash}: S + M, in the window, is redrawn in the change’s task`);
      await page.locator(`${SHOWN}[data-step="softmax"] figure:has(td[data-matrix="weights"])`).scrollIntoViewIfNeeded();
      await assertLooksLikeFreshPage(open, page, (name) => ['masked', 'weights', 'context'].includes(name), hash);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  }

  // Printing: an edit of X at the top, then at once the page printed: O, far below, is printed
  // with the new numbers.
  const { page: p2, errors: e2, close: c2 } = await open('#preset=journey');
  try {
    await whenDrawn(p2);
    await p2.evaluate(() => window.scrollTo(0, 0));
    await twoFrames(p2);
    const printed = await p2.evaluate(async () => {
      const key = (node) => node.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
      const td = document.querySelector('section.lesson-step td[data-matrix="x"][data-row="1"][data-col="0"]');
      td.focus();
      key(td);
      td.querySelector('input').value = '0.2';
      key(td.querySelector('input'));
      await null; // (the edit's microtasks)
      window.dispatchEvent(new Event('beforeprint'));
      return [0, 1, 2].map(
        (c) => document.querySelector(`section.lesson-step td[data-matrix="context"][data-head="0"][data-row="1"][data-col="${c}"]`).textContent,
      );
    });
    await linkNow(p2);
    const fresh = await open(p2.url().slice(p2.url().indexOf('#')));
    try {
      assert.deepEqual(printed, await lessonRow(fresh.page, 'context', 0, 1));
      assert.notDeepEqual(
        printed.map((x) => Number(x).toFixed(3)),
        ['0.499', '0.566', '0.757'],
      );
    } finally {
      await fresh.close();
    }
    assert.deepEqual(e2, []);
  } finally {
    await c2();
  }
});

test('a click on a cell leaves no text selection behind once another step is shown; a caret in the step shown stays', async () => {
  // (A caret left in a hidden step cost every frame 4.6 ms afterwards: bench/browser/measure-lesson.mjs.)
  const { page, errors, close } = await open('#preset=journey&step=x');
  const selection = () =>
    page.evaluate(() => {
      const s = document.getSelection();
      const node = s.anchorNode?.nodeType === Node.TEXT_NODE ? s.anchorNode.parentElement : s.anchorNode;
      return { type: s.type, step: node?.closest('section.lesson-step')?.dataset.step ?? null };
    });
  try {
    await page.click(cell('x', null, 1, 1)); // a click leaves a caret in the cell
    assert.deepEqual(await selection(), { type: 'Caret', step: 'x' });
    await page.click('button[data-step="mask"]');
    assert.deepEqual(await shownSteps(page), ['mask']);
    assert.deepEqual(await selection(), { type: 'None', step: null });
    // Padding a token (a button) with a caret in the mask step shown: it stays there.
    await page.click(cell('masked', 0, 2, 3));
    await page.click('#mask-workbench button[data-pad="5"]');
    await whenDrawn(page);
    assert.deepEqual(await selection(), { type: 'Caret', step: 'mask' });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('screenshots of the lesson, in English and in Chinese, with nothing fetched from another origin', async () => {
  const { page, errors, close } = await open('#preset=journey');
  try {
    await page.click(cell('weights', 0, 1, 0));
    await shoot(page, 'lesson-all-en.png');

    await openSettings(page); // (the examples are in the settings)
    await page.click('a[data-preset="cat"]');
    await page.waitForSelector('#lesson-remark:not([hidden])');
    await shoot(page, 'lesson-cat-en.png');

    await page.click('a[data-preset="padding"]');
    await page.waitForSelector('section[data-step="mask"]');
    await page.click('button[data-lang="zh-CN"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert.match(await page.textContent('#mask-workbench h3'), /掩码工作台/);
    assert.match(await page.textContent('#stepper'), /上一步/);
    await page.focus(cell('mask', null, 4, 1)); // a click would toggle it
    assert.match(await page.innerText('#explain'), /是填充/);
    assert.ok(await page.evaluate(() => document.fonts.check('16px "Noto Sans CJK SC"', '掩码')), 'no CJK font: install fonts-noto-cjk');
    await shoot(page, 'lesson-padding-zh-CN.png');

    await page.click('a[data-preset="journey"]');
    await page.click('button[data-step="softmax"]');
    await page.click(cell('weights', 0, 1, 0));
    assert.match(await page.innerText('#explain'), /注意力权重/);
    await shoot(page, 'lesson-softmax-zh-CN.png');
    assert.deepEqual(errors, []);
    assert.deepEqual(lesson.foreignRequests, [], 'the page fetched from another origin');
  } finally {
    await close();
  }
});

test('a page of all steps keeps its height as it is scrolled through, tables and canvases, and shows the course’s numbers far down', async () => {
  const scrollThrough = async (page) => {
    for (let k = 0; k < 14; k += 1) {
      await page.mouse.wheel(0, 600);
      await whenDrawn(page);
    }
    await twoFrames(page);
  };
  const { page, errors, close } = await open('#preset=journey');
  try {
    await whenDrawn(page);
    const lessonHeight = () => page.$eval('#results', (node) => node.getBoundingClientRect().height);
    const before = await lessonHeight();
    await scrollThrough(page);
    const after = await lessonHeight();
    assert.ok(Math.abs(after - before) < 2, `the lesson was ${before} px high, ${after} px once scrolled through`);
    // o₂ ≈ (0.499, 0.566, 0.757), far down.
    assert.deepEqual(fixed3(await numbers(page, 'context', 0, 1)), ['0.499', '0.566', '0.757']);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
  // Tables among canvases (the W matrices, the rows on canvases) keep their size too: the step
  // of Q, K, V was 340 px taller until they had been scrolled to.
  const canvases = await open('#v=1&s=a+b+c+d+e+f&d=6&h=3');
  try {
    await whenDrawn(canvases.page);
    const qkvHeight = () => canvases.page.$eval('section[data-step="qkv"]', (node) => node.getBoundingClientRect().height);
    const before = await qkvHeight();
    await scrollThrough(canvases.page);
    const after = await qkvHeight();
    // (A canvas estimates its own size before it is first laid out: a few px off, render/matrix-canvas.js.)
    assert.ok(Math.abs(after - before) < 8, `the step of Q, K, V was ${before} px high, ${after} px once scrolled through`);
    assert.deepEqual(canvases.errors, []);
  } finally {
    await canvases.close();
  }
});

test('on a narrow screen a wide table scrolls under its token labels, and nothing a step shows is cut off at its box', async () => {
  // (seven tokens: A is wider than a phone's screen, six fit)
  const { page, errors, close } = await open('#s=Your+journey+starts+with+one+small+step&d=3&h=1', { width: 420, height: 800 });
  try {
    // Scrolled sideways, a wide table's token labels stay at its box's left edge and its entries
    // pass under them.
    const box = page
      .locator(`${SHOWN} .scroll:has(> table.heatmap)`)
      .filter({ has: page.locator('td[data-col="6"]') })
      .first();
    await box.scrollIntoViewIfNeeded();
    await box.evaluate((node) => {
      node.scrollLeft = 120;
    });
    await twoFrames(page);
    const [scrolled, label, labelEnd, edge, entry] = await box.evaluate((node) => [
      node.scrollLeft,
      node.querySelector('tbody th').getBoundingClientRect().left,
      node.querySelector('tbody th').getBoundingClientRect().right,
      node.getBoundingClientRect().left + node.clientLeft,
      node.querySelector('td[data-col="0"]').getBoundingClientRect().left,
    ]);
    assert.ok(scrolled > 0, 'the box scrolls');
    assert.ok(Math.abs(label - edge) < 1, `label at ${label}, box's edge at ${edge}`);
    assert.ok(entry < labelEnd, `the first entry (at ${entry}) has scrolled under the labels (to ${labelEnd})`);
    await saveScreenshot(box, { path: path.join(screenshots, 'lesson-narrow-sticky-labels.png') });
    // (each step clips what would reach past it: a focus ring included, nothing may)
    assert.deepEqual(await pastTheirStep(page), [], 'all steps');
    await page.click('button[data-step="softmax"]');
    assert.deepEqual(await pastTheirStep(page), [], 'the softmax step');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('reader text stays text; a narrow screen keeps the explanation at hand', async () => {
  const { page, errors, close } = await open('#preset=journey', { width: 600, height: 800 });
  try {
    await page.fill('#sentence', '<img src=x onerror="window.hacked=1"> <b>x</b> two');
    // Five tokens: <img, src=x, onerror="window.hacked=1">, <b>x</b>, two.
    await page.waitForFunction(() => document.querySelectorAll('section.lesson-step:not(.parked) td[data-matrix="x"]').length === 15);
    assert.equal(await page.locator('#results img, #results b, #explain img, #explain b, #mask-workbench b, #softmax-lab b').count(), 0);
    await page.click(cell('weights', 0, 3, 0));
    assert.match(await page.innerText('#explain'), /the share “<b>x<\/b>” reads from “<img”/);
    assert.equal(await page.evaluate(() => window.hacked), undefined);
    assert.ok(await page.isVisible('#explain'));
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// Safari has no requestIdleCallback: the lesson's idle work (canvases drawn off screen, the steps
// prepared ahead, the fonts' warm-up) and the head views' run in timeouts there (render/scheduler.js).
test('without requestIdleCallback (Safari) the lesson draws, explains, and looks as it does with it', async () => {
  const init = () => {
    delete window.requestIdleCallback;
    delete window.cancelIdleCallback;
  };
  const { page, errors, close } = await open(`#v=1&s=${tokens(32)}&d=8&h=2&step=softmax`, { init });
  try {
    assert.equal(await page.evaluate(() => typeof requestIdleCallback), 'undefined');
    const p = await steadyEntryPoint(page, 'weights', 1, 31, 2);
    await page.mouse.click(p.x, p.y);
    await page.waitForFunction(() => /\.32\.3$/.test(document.querySelector('#explain').dataset.cell ?? ''));
    assert.equal((await readout(page, 'weights', 1)).split(': ').pop(), await explainedValue(page));
    // Every figure, the far ones scrolled to, as on a page with requestIdleCallback.
    // (pictures waits for idle time through setTimeout-polled requestIdleCallback: not here)
    const shown = [];
    for (const figure of await page.$$(`${SHOWN} figure[data-matrix-figure]`)) {
      await figure.scrollIntoViewIfNeeded();
      await whenDrawn(page); // (its idle work in timeouts here)
      shown.push(await figure.evaluate((f) => [...f.querySelectorAll('canvas')].map((c) => c.toDataURL()).join(' ')));
    }
    await linkNow(page);
    const fresh = await open(page.url().slice(page.url().indexOf('#')));
    try {
      const there = (await pictures(fresh.page, (name) => name !== 'lab')).map(([, , picture]) => picture);
      assert.equal(there.length, shown.length);
      shown.forEach((picture, k) => assert.ok(picture === there[k], `figure ${k + 1} differs from a page with requestIdleCallback`));
    } finally {
      await fresh.close();
    }
    // The next step, prepared ahead in timeouts, shows its numbers; the heads view is drawn.
    await page.click('#step-next');
    assert.deepEqual(await shownSteps(page), ['context']);
    await openView(page, 'heads');
    await page.waitForSelector('#head-split [data-hs-part]');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// The course's gaps: softmax over the wrong axis, "a large weight ≠ a strong relation", and what
// a row would read from the future without the causal mask (self-test question 3). The expected
// numbers are the engine's, run here in Node.
const journeyRun = async (hash, changes = {}) => {
  const { toEngineConfig } = await import('../../web/src/state/validate.js');
  const engine = await createAttention();
  return engine.compute({ ...toEngineConfig(decodeHash(hash).state), ...changes });
};
const rowOf = (m, r) => Array.from(m.data.subarray(r * m.cols, (r + 1) * m.cols));

test('the softmax lab normalises over the queries when asked: the rows no longer sum to 1', async () => {
  const hash = '#preset=journey&v=1&step=softmax&row=6';
  const over = await journeyRun(hash, { softmaxOver: 'queries' });
  const head = over.perHead[0];
  for (const lang of ['en', 'zh-CN']) {
    const { page, errors, close } = await open(`${hash}&lang=${lang}`);
    try {
      const lab = (col) => page.$$eval(`#softmax-lab td[data-matrix="lab"][data-col="${col}"]`, (c) => c.map((n) => n.textContent.trim()));
      assert.equal(await page.isChecked('#lesson-softmax-over-keys'), true);
      assert.match(await page.textContent('[data-lab="wsum"]'), /= 1$/);
      await page.check('#lesson-softmax-over-queries');
      await page.waitForFunction(() => /smax=queries/.test(location.hash));
      await whenDrawn(page);
      // The table's weights are the core's column-normalised ones; the row's sum is shown ≠ 1.
      assert.deepEqual(await lab(2), fixed3(rowOf(head.weights, 5)));
      assert.equal(head.weightSum[5].toFixed(3), '2.411');
      const wsum = await page.textContent('[data-lab="wsum"]');
      assert.ok(wsum.includes('Σ_j a_ij = 2.411 ≠ 1'), wsum);
      const notes = await page.innerText('#softmax-lab .lab-notes');
      const sums = Array.from(head.weightSum, (s, r) => `${r + 1} ${over.tokens[r]} ${s.toFixed(3)}`).join(' · ');
      assert.ok(notes.includes(sums), notes);
      if (lang === 'en') assert.match(notes, /no longer a weighted average of the values/);
      else assert.match(notes, /不再是各个值向量的加权平均/);
      // The step's formula normalises each column; a weight's explanation says so, with the row's sum.
      const tex = await page.$$eval('section[data-step="softmax"] .formulas-tex > .step-formula', (n) => n.map((f) => f.dataset.tex));
      assert.ok(
        tex.some((line) => line.includes('\\max_k z_{kj}')),
        tex.join('\n'),
      );
      await page.click(cell('weights', 0, 5, 5));
      assert.match(await explanation(page), /a₆₆ = 1\.000 \/ Σₖ e\^\(zₖ₆ − maxₖ zₖ₆\) = 1\.000|a₆₆ = 1\.000 \/ Σₖ e\^\(zₖ₆ − maxₖ zₖ₆\) ≈ 1\.000/);
      assert.ok((await page.innerText('#explain')).includes('2.411'));
      // The Σ column of A prints the core's row sums, the step's context follows the same weights.
      const sigma = await page.$$eval('section[data-step="softmax"] td.rowsum', (c) => c.map((n) => n.textContent));
      assert.deepEqual(sigma.slice(0, 6), fixed3(Array.from(head.weightSum)));
      await saveScreenshot(page, { path: path.join(screenshots, `lesson-lab-queries-${lang}.png`), fullPage: false });
      await page.$eval('#softmax-lab', (n) => n.scrollIntoView());
      await saveScreenshot(page, { path: path.join(screenshots, `lesson-lab-queries-lab-${lang}.png`), fullPage: false });
      // Back to the keys: each row sums to 1 again.
      await page.check('#lesson-softmax-over-keys');
      await page.waitForFunction(() => !/smax=/.test(location.hash));
      assert.match(await page.textContent('[data-lab="wsum"]'), /= 1$/);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
});

test('a large weight is not a strong relation: row 1 under the causal mask puts 1.000 on itself whatever the tokens', async () => {
  for (const lang of ['en', 'zh-CN']) {
    const { page, errors, close } = await open(`#preset=journey&v=1&step=softmax&row=3&mask=none&lang=${lang}`);
    try {
      const run = await journeyRun('#preset=journey&v=1&mask=none');
      const row = rowOf(run.perHead[0].weights, 2);
      const best = row.indexOf(Math.max(...row));
      const note = () => page.innerText('#lab-relative');
      const first = await note();
      assert.ok(first.includes(row[best].toFixed(3)) && first.includes(`“${run.tokens[best]}”`), first);
      // The example: row 1 under the causal mask, whatever the tokens.
      await page.click('#lesson-relative-example');
      await page.waitForFunction(() => /row=1|^(?!.*row=)/.test(location.hash) && !/mask=none/.test(location.hash));
      await whenDrawn(page);
      assert.ok((await note()).includes(lang === 'en' ? 'puts 1.000 on itself whatever the tokens' : '都把 1.000 放在自己身上'), await note());
      assert.equal(await page.isVisible('#lesson-relative-example'), false);
      await page.$eval('#softmax-lab', (n) => n.scrollIntoView());
      await saveScreenshot(page, { path: path.join(screenshots, `lesson-lab-relative-${lang}.png`), fullPage: false });
      // Another sentence: still 1.000.
      await page.fill('#sentence', 'Colourless green ideas sleep furiously');
      await page.waitForFunction(() => document.querySelector('#lab-relative')?.textContent.includes('Colourless'));
      assert.ok((await note()).includes('1.000'));
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
});

test('the mask step shows what a row would read from the future without the mask', async () => {
  const hash = '#preset=journey&v=1&step=mask&row=2';
  const none = await journeyRun(hash, { mask: 'none' });
  const later = none.perHead[0].laterWeight;
  for (const lang of ['en', 'zh-CN']) {
    const { page, errors, close } = await open(`${hash}&lang=${lang}`);
    try {
      const peek = () => page.innerText('#future-peek');
      let text = await peek();
      const share = `${(later[1] * 100).toFixed(1)} %`;
      assert.ok(text.includes(share), text);
      if (lang === 'en')
        assert.ok(
          text.includes(`Without the mask, token 2 “journey” would take ${share} of its output from tokens after it (with the causal mask: 0.0 %)`),
          text,
        );
      else assert.ok(text.includes(`去掉掩码后，第 2 个词 “journey” 的输出会有 ${share} 来自它后面的词`), text);
      // Which ones: every later token with its weight in the unmasked run.
      const w = rowOf(none.perHead[0].weights, 1);
      for (let j = 2; j < none.T; j += 1) assert.ok(text.includes(`“${none.tokens[j]}” ${w[j].toFixed(3)}`), text);
      await page.$eval('#future-peek', (n) => n.scrollIntoView({ block: 'center' }));
      await saveScreenshot(page, { path: path.join(screenshots, `lesson-mask-future-${lang}.png`), fullPage: false });
      // Every row at once: the comparison's A without the mask, whose run the note then reuses.
      await page.click('#lesson-peek-compare');
      await page.waitForFunction(() => /cmp=1/.test(location.hash));
      await whenDrawn(page);
      assert.equal(await page.isVisible('#lesson-peek-compare'), false);
      assert.ok((await peek()).includes(share));
      // Another row, picked here: its own share; the last row has nothing after it.
      await page.click('#future-peek button[data-peek-row="0"]');
      await page.waitForFunction((s) => document.querySelector('#future-peek').innerText.includes(s), `${(later[0] * 100).toFixed(1)} %`);
      await page.click('#future-peek button[data-peek-row="5"]');
      await page.waitForFunction(() => /row=6/.test(location.hash));
      text = await peek();
      assert.match(text, lang === 'en' ? /is the last: nothing comes after it/ : /后面没有词/);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
});
