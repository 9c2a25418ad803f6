// The performance side of the page in a real browser: the performance panel (SIMD path, the last
// computation's time and where it ran, FLOPs, memory, the T-versus-time plot measured in the
// worker), and a large input computed in the Web Worker with its progress bar and Cancel button
// while the previous result stays on screen. Screenshot: tests/browser/screenshots/perf-*.png.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';

import { forwardFlops } from '../../web/src/perf/work-estimate.js';
import { THRESHOLDS } from '../../web/src/render/thresholds.js';
import { SWEEP_TOKENS, formatFlops } from '../../web/src/perf/perf-panel.js';
import { whenDrawn, openSettings, saveScreenshot } from './harness.mjs';
import { count, lessonRow, retype, screenshots, startBrowser } from './heads-harness.mjs';

let harness;
before(async () => {
  harness = await startBrowser({ view: 'perf' });
});
after(async () => {
  await harness?.close();
});

// The panel's facts as { term: value }.
const facts = (page) =>
  page.$$eval('#perf-panel .perf-facts dt', (dts) => Object.fromEntries(dts.map((dt) => [dt.textContent, dt.nextElementSibling.textContent])));

const words = (n) => Array.from({ length: n }, (_, i) => `w${i + 1}`).join(' ');

// A page opened afresh with `hash` (not waiting for a result: it may never come).
async function openFresh(hash) {
  const opened = await harness.open();
  const address = opened.page.url().split('#')[0];
  await opened.page.goto('about:blank');
  await opened.page.goto(`${address}${hash}`);
  await openSettings(opened.page);
  return opened;
}

test('the performance panel shows the path, the last computation, its FLOPs and memory, and plots time against T', async () => {
  const { page, errors, close } = await harness.open();
  try {
    let shown = await facts(page);
    assert.match(shown['SIMD path'], /wasm simd128/);
    // The page's first computation is said to include warming the engine up.
    assert.match(shown['Last computation'], /^\d+\.\d\d ms \(on the page; the first computation, which includes warming up the engine\)$/);
    // Default page: T = 6, d_model = 6; the first computation gets no rate.
    assert.equal(shown.Arithmetic, `${formatFlops(forwardFlops(6, 6, 6))} (no rate: the first computation includes warming up the engine)`);
    assert.match(shown['Engine memory'], /^\d+ MiB of WebAssembly memory$/);

    await retype(page, '#sentence', 'Your journey starts with one small step');
    await page.waitForFunction(
      () => document.querySelector('section.lesson-step:not(.parked) figure[data-matrix-figure="output"] .shape')?.textContent === '7 × 6',
    );
    shown = await facts(page);
    assert.match(shown['Last computation'], /^\d+\.\d\d ms \(on the page\)$/);
    // 3.5 kFLOP: the time is the call's own, so no FLOP/s, and the panel says from what size it gives them.
    assert.equal(
      shown.Arithmetic,
      `${formatFlops(forwardFlops(7, 7, 6))}: too little for a rate — at this size the time is mostly the call itself (the settings in, the matrices out), not arithmetic. FLOP/s are given from ${formatFlops(THRESHOLDS.rateFromFlops)}.`,
    );
    assert.doesNotMatch(shown.Arithmetic, /FLOP\/s,|[kMG]FLOP\/s$/);

    // The sweep runs in the worker, one point per size, and says what it measured.
    await page.click('#perf-panel button.perf-measure');
    await page.waitForFunction(() => /time grows like T²/.test(document.querySelector('#perf-panel .perf-status')?.textContent ?? ''), null, {
      timeout: 60000,
    });
    assert.equal(await count(page, '#perf-panel svg.time-plot circle.dot'), SWEEP_TOKENS.length);
    // The points go left to right in the order of the sizes (no timing is asserted: figures only).
    const xs = await page.$$eval('#perf-panel svg.time-plot circle.dot', (dots) => dots.map((d) => Number(d.getAttribute('cx'))));
    assert.ok(xs.every((x, i) => i === 0 || x > xs[i - 1]));
    assert.equal(await page.textContent('#perf-panel button.perf-measure'), 'Measure time against T');
    await saveScreenshot(page.locator('section.perf'), { path: path.join(screenshots, 'perf-panel-en.png') });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('FLOP/s are given from rateFromFlops on (64 tokens, d_model 128), as the FLOPs over the time shown; screenshots EN and 中文 at 1440 and 375 px', async () => {
  for (const [lang, width] of [
    ['en', 1440],
    ['zh-CN', 1440],
    ['en', 375],
    ['zh-CN', 375],
  ]) {
    const { page, errors, close } = await harness.open(`#preset=journey&lang=${lang}`);
    try {
      await page.setViewportSize({ width, height: 900 });
      const panel = page.locator('section.perf');
      await panel.scrollIntoViewIfNeeded();
      // The worked example: 864 FLOP, no rate (the first computation; then, too small).
      await page.uncheck('#scale'); // (a second computation of the same size)
      await page.waitForFunction(() => /^864 FLOP\W/.test(document.querySelectorAll('#perf-panel .perf-facts dd')[2]?.textContent ?? ''));
      await page.waitForFunction(() => !/warming/.test(document.querySelectorAll('#perf-panel .perf-facts dd')[2]?.textContent ?? ''));
      await whenDrawn(page);
      const small = Object.values(await facts(page))[2];
      assert.equal(
        small,
        lang === 'en'
          ? '864 FLOP: too little for a rate — at this size the time is mostly the call itself (the settings in, the matrices out), not arithmetic. FLOP/s are given from 10 MFLOP.'
          : '864 FLOP：运算太少，不给出速率——这种规模下耗时主要花在调用本身（传入设置、取出矩阵），而不是运算上。从 10 MFLOP 起才给出 FLOP/s。',
      );
      await saveScreenshot(panel, { path: path.join(screenshots, `perf-panel-small-${lang}-${width}.png`), keep: true });
      if (lang === 'zh-CN') continue;
      // 64 tokens at d_model 128: 10 MFLOP, computed on the page, with its rate.
      const flopsText = formatFlops(forwardFlops(64, 64, 128));
      await page.fill('#d-model', '128');
      await retype(page, '#sentence', words(64));
      await page.waitForFunction((text) => document.querySelector('#perf-panel .perf-facts')?.textContent.includes(`${text},`), flopsText);
      await whenDrawn(page);
      const shown = await facts(page);
      const ms = Number(shown['Last computation'].match(/^(\d+\.\d\d) ms \(on the page\)$/)[1]);
      const [, flops, rate, unit] = shown.Arithmetic.match(/^(.+), (\d+(?:\.\d)?) ([MG])FLOP\/s$/);
      assert.equal(flops, flopsText);
      // The rate is the FLOPs over the (unrounded) time: within the rounding of both figures.
      const expected = forwardFlops(64, 64, 128) / (ms / 1000) / (unit === 'G' ? 1e9 : 1e6);
      assert.ok(Math.abs(Number(rate) - expected) <= 0.05 * expected + 0.05, `${rate} ${unit}FLOP/s against ${expected} in ${ms} ms`);
      await saveScreenshot(panel, { path: path.join(screenshots, `perf-panel-rate-${lang}-${width}.png`), keep: true });
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
});

test('a large input is computed in the worker with a progress bar; Cancel keeps the previous result', async () => {
  const { page, errors, close } = await harness.open();
  try {
    const before = await lessonRow(page, 'weights', 0, 5);
    // 1,000 tokens, d_model 64, 8 heads: far above the worker's threshold, and long enough to
    // catch the bar (several T × T matrices per head are computed and copied).
    await page.fill('#d-model', '64');
    await page.fill('#heads', '8');
    const arithmetic = formatFlops(forwardFlops(6, 6, 64));
    await page.waitForSelector('button[data-head-tab="7"]', { state: 'attached' }); // 8 heads computed
    await whenDrawn(page); // the lesson redraws in slices: all of them
    const small = await lessonRow(page, 'weights', 0, 5);
    await retype(page, '#sentence', words(1000));
    const progress = page.locator('#compute-progress');
    await progress.waitFor({ state: 'visible' });
    assert.match(await progress.locator('.progress-label').textContent(), /Computing 1000 tokens in the background/);
    await saveScreenshot(page.locator('#compute-progress'), { path: path.join(screenshots, 'perf-progress-en.png') });
    await progress.locator('button.progress-cancel').click();
    await progress.waitFor({ state: 'hidden' });
    assert.match(await page.textContent('#message'), /Computation cancelled: the previous result stays on screen\./);
    // The lesson still shows the 6 tokens of before, with their numbers.
    assert.deepEqual(await lessonRow(page, 'weights', 0, 5), small);
    assert.match((await facts(page)).Arithmetic, new RegExp(`^${arithmetic.replace('.', '\\.')}[,:]`)); // (a rate, or why there is none)

    // A smaller one over the threshold finishes in the worker and is said to have run there.
    await page.fill('#d-model', '6');
    await page.fill('#heads', '2');
    await retype(page, '#sentence', words(300));
    await page.waitForFunction(() => /in a background worker/.test(document.querySelector('#perf-panel .perf-facts')?.textContent ?? ''), null, {
      timeout: 60000,
    });
    await page.waitForSelector('#compute-progress', { state: 'hidden' });
    assert.equal(await page.isHidden('#message'), true);
    // (Its first six weights: past the printed corner the row has 48, the six tokens' had six.)
    assert.notDeepEqual((await lessonRow(page, 'weights', 0, 5)).slice(0, before.length), before);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a link computed in the worker and cancelled before anything was computed says that nothing is on screen', async () => {
  const { page, errors, close } = await openFresh(`#v=1&s=${words(1000).replace(/ /g, '+')}&d=64&h=8`);
  try {
    const progress = page.locator('#compute-progress');
    await progress.waitFor({ state: 'visible', timeout: 60000 });
    await progress.locator('button.progress-cancel').click();
    await progress.waitFor({ state: 'hidden' });
    const message = await page.textContent('#message');
    assert.match(message, /Computation cancelled: nothing has been computed yet\. Change the input to compute again\./);
    assert.doesNotMatch(message, /previous result/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a size the engine refuses (it does not fit in memory) is said with the largest that fits; the previous result stays', async () => {
  const { page, errors, close } = await harness.open();
  try {
    await page.fill('#d-model', '64');
    await page.fill('#heads', '64');
    await page.waitForSelector('button[data-head-tab="63"]', { state: 'attached' }); // 64 heads computed
    await whenDrawn(page);
    const small = await lessonRow(page, 'weights', 0, 5);
    await retype(page, '#sentence', words(1024));
    await page.waitForFunction(() => /does not fit|more than its limit/.test(document.querySelector('#message').textContent), null, {
      timeout: 120000,
    });
    const message = await page.textContent('#message');
    assert.match(
      message,
      /this needs about \d+ MiB of the engine's memory, more than its limit of \d+ MiB: with these settings at most \d+ tokens fit/,
    );
    assert.match(message, /The matrices below still show the last valid input\./);
    assert.deepEqual(await lessonRow(page, 'weights', 0, 5), small); // the 6 tokens of before
    await saveScreenshot(page.locator('#message'), { path: path.join(screenshots, 'perf-engine-refused-en.png') });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('typing into the embeddings box at 1 000 tokens × d_model 1 024 edits X where typed (a window of its rows)', async () => {
  const { page, errors, close } = await openFresh(`#v=1&s=${words(1000).replace(/ /g, '+')}&d=1024&h=1`);
  try {
    // Past the printed corner X is a canvas of its corner (render/policy.js): an entry of its first
    // row as its readout says it, the grid focused and the active entry moved there by the keys.
    const grid = page.locator('section.lesson-step:not(.parked) .cg-body[data-matrix="x"]').first();
    const corner = async (r, c) => {
      assert.equal(r, 0);
      await grid.focus();
      await page.keyboard.press('Home');
      for (let k = 0; k < c; k += 1) await page.keyboard.press('ArrowRight');
      const said = await grid.locator('.cg-readout').textContent();
      const [, row, col, value] = said.match(/^Row (\d+) \(w1\), column (\d+): (\S+)$/) ?? [];
      assert.deepEqual([row, col], [String(r + 1), String(c + 1)], said);
      return value;
    };
    await grid.waitFor({ state: 'attached', timeout: 300000 });
    await page.check('input[name="embeddings"][value="edit"]');
    await page.waitForSelector('#embeddings-editor:not([hidden])');
    // The box holds 16 rows of 1 024 numbers at a time, the window's place said under it.
    const where = () => page.textContent('.editor-window-where');
    assert.equal(await where(), 'Rows 1–16 of 1000 (the box holds at most 16384 numbers at a time)');
    const firstLine = async () => (await page.inputValue('#embeddings-text')).split('\n')[0];
    const lines = (await page.inputValue('#embeddings-text')).split('\n');
    assert.equal(lines.length, 16);
    assert.equal(lines[0].split(' ').length, 1024);
    await page.waitForSelector('#compute-progress', { state: 'hidden', timeout: 300000 });
    const [x00, x01] = [await corner(0, 0), await corner(0, 1)];
    // Replace the first number of the first row, as a reader types it.
    const typeFirstNumber = async (text) => {
      await page.click('#embeddings-text');
      await page.evaluate(() => {
        const box = document.querySelector('#embeddings-text');
        box.setSelectionRange(0, box.value.indexOf(' '));
      });
      await page.keyboard.type(text);
    };
    await typeFirstNumber('0.4321');
    await page.waitForSelector('#compute-progress', { state: 'hidden', timeout: 300000 });
    await whenDrawn(page);
    assert.equal(await corner(0, 0), '0.432', 'the edit reaches X');
    assert.notEqual(x00, '0.432');
    assert.equal(await corner(0, 1), x01); // the rest of the row as it was
    assert.equal(await page.isHidden('#message'), true);
    // The next 16 rows, labelled with their tokens: what is typed there is row 17 of X, and it
    // stays when the window moves back and forth.
    await page.click('.editor-window-move[data-move="1"]');
    assert.equal(await where(), 'Rows 17–32 of 1000 (the box holds at most 16384 numbers at a time)');
    assert.equal(await page.textContent('#row-labels div'), 'w17');
    await typeFirstNumber('-2');
    await page.waitForSelector('#compute-progress', { state: 'hidden', timeout: 300000 });
    await page.click('.editor-window-move[data-move="-1"]');
    assert.match(await firstLine(), /^0\.4321 /);
    await page.click('.editor-window-move[data-move="1"]');
    assert.match(await firstLine(), /^-2 /);
    // (a message of a half-typed number, "-", is cleared in the task after the next key's)
    await page.waitForSelector('#message', { state: 'hidden', timeout: 10000 });
    await saveScreenshot(page.locator('#embeddings-editor'), { path: path.join(screenshots, 'perf-editor-window-en.png') });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
