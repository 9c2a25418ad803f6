// The head views in a real browser: the head split (columns coloured by head, slicing, the maps,
// concatenation, W_O), shared key/value heads, the token-to-token view, cross-attention,
// positional encoding with the shuffle experiment, and tokenization of Chinese. Screenshots go
// to tests/browser/screenshots/ (look at them). Numbers are checked against the lesson's own
// tables: both come from the same engine result, so they must agree digit for digit.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';

import { parseCell } from '../../web/src/render/format.js';
import { count, hvRow, jumpTo, lessonRow, panelShot, retype, screenshots, startBrowser } from './heads-harness.mjs';
import { openView } from './harness.mjs';

let harness;
before(async () => {
  harness = await startBrowser({ view: 'heads' });
});
after(async () => {
  await harness?.close();
});

const shot = (name) => path.join(screenshots, name);

// Tableau10's first colours, the identity of heads 1 and 2.
const HEAD1 = 'rgb(78, 121, 167)';
const HEAD2 = 'rgb(242, 142, 44)';

test('the head split colours Q by head, slices it, and the slices, maps and concat match the lesson', async () => {
  const { page, errors, close } = await harness.open();
  try {
    // Default page: d_model 6, 2 heads of d_k 3.
    assert.equal(await count(page, '#head-split [data-hs-block="q"]'), 2);
    assert.equal((await hvRow(page, 'split-q', 1, 0)).length, 3);
    // Head 2's slice of Q is columns 4–6 of the lesson's Q.
    const q = await lessonRow(page, 'q', null, 0);
    assert.deepEqual(await hvRow(page, 'split-q', 0, 0), q.slice(0, 3));
    assert.deepEqual(await hvRow(page, 'split-q', 1, 0), q.slice(3, 6));
    // The column bands carry the head colours; the maps' frames too; weights are not in them.
    const bands = await page.$$eval('#head-split [data-hs-block="q"] tr.band td:nth-child(2)', (cells) =>
      cells.map((cell) => getComputedStyle(cell).backgroundColor),
    );
    assert.deepEqual(bands, [HEAD1, HEAD2]);
    const frames = await page.$$eval('#head-split .hs-map', (maps) => maps.map((m) => getComputedStyle(m).borderTopColor));
    assert.deepEqual(frames, [HEAD1, HEAD2]);
    const fills = await page.$$eval('td[data-hv="detail-weights"]', (cells) => cells.map((c) => getComputedStyle(c).backgroundColor));
    assert.ok(!fills.includes(HEAD1) && !fills.includes(HEAD2));

    // The concatenation is the lesson's concat, head by head.
    const concat = await lessonRow(page, 'concat', null, 5);
    assert.deepEqual([...(await hvRow(page, 'split-context', 0, 5)), ...(await hvRow(page, 'split-context', 1, 5))], concat);
    assert.deepEqual(await hvRow(page, 'mix-output', null, 5), await lessonRow(page, 'output', null, 5));

    // Pick head 2 in the maps: the detail, the token view and the lesson follow. (The panels are
    // reached by their links, as a reader does: a button scrolled to by Playwright could move as
    // the parts around it, skipped off screen, took their real sizes.)
    await jumpTo(page, 'head-split');
    await page.click('#head-split .hs-map[data-head="1"]');
    await page.waitForSelector('#head-split .hs-detail[data-head="1"]');
    assert.equal(await page.getAttribute('#token-view', 'data-head'), '1');
    assert.deepEqual(await hvRow(page, 'detail-weights', 1, 4), await lessonRow(page, 'weights', 1, 4));

    await panelShot(page, '#head-split', shot('heads-split-en.png'), { keep: true });

    // Any divisor of d_model, 1 and d_model included, updates the split in place.
    for (const [heads, dK] of [
      [3, 2],
      [1, 6],
      [6, 1],
    ]) {
      await page.click(`#head-split button[data-hs-heads="${heads}"]`);
      await page.waitForFunction((n) => document.querySelectorAll('#head-split [data-hs-block="q"]').length === n, heads);
      assert.equal(await page.inputValue('#heads'), String(heads));
      assert.equal((await hvRow(page, 'split-q', 0, 0)).length, dK);
      assert.equal(await count(page, '#head-split .hs-map'), heads);
      assert.deepEqual((await hvRow(page, 'split-q', heads - 1, 2)).join(), (await lessonRow(page, 'q', null, 2)).slice(6 - dK).join());
    }

    // New numbers in the same layout (another seed): the split's tables are refilled in place
    // (grid.js keeps them) and still agree with the lesson, digit for digit.
    const table = await page.$('#head-split td[data-hv="mix-output"][data-row="2"][data-col="0"]');
    const oldOutput = (await hvRow(page, 'mix-output', null, 2)).join();
    await retype(page, '#seed', '7');
    await page.waitForFunction(
      (old) => [...document.querySelectorAll('#head-split td[data-hv="mix-output"][data-row="2"]')].map((td) => td.textContent).join() !== old,
      oldOutput,
    );
    assert.deepEqual(await hvRow(page, 'mix-output', null, 2), await lessonRow(page, 'output', null, 2));
    assert.deepEqual((await hvRow(page, 'split-q', 5, 3)).join(), (await lessonRow(page, 'q', null, 3)).slice(5).join());
    assert.deepEqual(await hvRow(page, 'split-context', 4, 1), (await lessonRow(page, 'concat', null, 1)).slice(4, 5));
    assert.ok(await table.evaluate((td) => td.isConnected), 'the output table was rebuilt, not refilled');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the stages step from joined columns to slices, maps, concatenation and W_O', async () => {
  const { page, errors, close } = await harness.open();
  try {
    await jumpTo(page, 'head-split');
    await page.click('#head-split button[data-hs-stage="columns"]');
    await page.waitForSelector('#head-split[data-stage="columns"] .hs-qkv.joined');
    assert.equal(await count(page, '#head-split .hs-maps'), 0);
    // The blocks touch: no gap between head 1's last column and head 2's first.
    const gapJoined = await page.$eval('#head-split [data-hs-matrix="q"] .hs-blocks', (el) => getComputedStyle(el).columnGap);
    assert.equal(gapJoined, '0px');
    await panelShot(page, '#head-split', shot('heads-stage-columns-en.png'));

    // "Slice" animates the blocks apart.
    await page.click('#head-split button[data-hs-stage="slice"]');
    await page.waitForSelector('#head-split[data-stage="slice"] .hs-qkv.sliced');
    await page.waitForFunction(() => getComputedStyle(document.querySelector('#head-split [data-hs-matrix="q"] .hs-blocks')).columnGap === '18px'); // (the end of its transition)
    const gapSliced = await page.$eval('#head-split [data-hs-matrix="q"] .hs-blocks', (el) => getComputedStyle(el).columnGap);
    assert.equal(gapSliced, '18px');

    await page.click('#head-split button[data-hs-stage="maps"]');
    await page.waitForSelector('#head-split[data-stage="maps"] .hs-maps');
    assert.equal(await count(page, '#head-split .hs-qkv'), 0);
    await page.click('#head-split button[data-hs-stage="concat"]');
    await page.waitForSelector('#head-split[data-stage="concat"] .hs-concat.joined');
    await page.click('#head-split button[data-hs-stage="mix"]');
    await page.waitForSelector('#head-split[data-stage="mix"] .hs-mix');
    assert.equal(await count(page, '#head-split td[data-hv="mix-wo"]'), 36);

    // Play runs through the stages by itself.
    await page.click('#head-split button[data-hs-play]');
    await page.waitForSelector('#head-split[data-stage="columns"]');
    await page.waitForSelector('#head-split[data-stage="slice"]', { timeout: 5000 });
    await page.click('#head-split button[data-hs-play]'); // stop
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('grouped- and multi-query attention: fewer key/value heads, shared, and drawn so', async () => {
  const { page, errors, close } = await harness.open();
  try {
    await page.fill('#d-model', '8');
    await page.click('#head-choices button[data-heads="4"]');
    await page.waitForFunction(() => document.querySelectorAll('#head-split [data-hs-block="q"]').length === 4);

    // Grouped-query: 2 key/value heads, each read by 2 query heads.
    await page.click('#kv-choices button[data-kv="2"]');
    await page.waitForFunction(() => document.querySelectorAll('#head-split [data-hs-block="k"]').length === 2);
    assert.match(await page.textContent('#kv-kind'), /grouped-query: 2 K\/V heads, each shared by 2 query heads/);
    const links = await page.$$eval('#head-split .hs-sharing line', (lines) => lines.map((l) => `${l.dataset.q}→${l.dataset.kv}`));
    assert.deepEqual(links, ['0→0', '1→0', '2→1', '3→1']);
    assert.equal((await hvRow(page, 'split-k', 1, 0)).length, 2); // K is T × (2 · d_k)
    // The drawing says what the engine did: heads 1 and 2 read the same K, heads 2 and 3 do not.
    assert.deepEqual(await lessonRow(page, 'k', 0, 3), await lessonRow(page, 'k', 1, 3));
    assert.notDeepEqual(await lessonRow(page, 'k', 1, 3), await lessonRow(page, 'k', 2, 3));
    assert.deepEqual(await lessonRow(page, 'k', 2, 3), await hvRow(page, 'split-k', 1, 3));
    await panelShot(page, '#head-split', shot('heads-gqa-en.png'));

    // Multi-query: one key/value head for all.
    await page.click('#head-split button[data-hs-kv="1"]');
    await page.waitForFunction(() => document.querySelectorAll('#head-split [data-hs-block="k"]').length === 1);
    assert.match(await page.textContent('#kv-kind'), /multi-query/);
    assert.deepEqual(await lessonRow(page, 'k', 0, 2), await lessonRow(page, 'k', 3, 2));

    // Changing the query heads keeps the key/value heads a divisor of them.
    await page.click('#head-choices button[data-heads="2"]');
    await page.waitForFunction(() => document.querySelectorAll('#head-split [data-hs-block="q"]').length === 2);
    assert.equal(await count(page, '#head-split [data-hs-block="k"]'), 1);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// A new result redraws the head split's parts (in idle time after the change); its title, caption
// and toolbar stay in the page: a button there keeps the keyboard focus, and one pressed while the
// panel is redrawn is still in the page when released (a new toolbar lost that click). A toolbar
// that says something new is new, and its button takes over the focus.
test('the head split keeps its toolbar and its parts in the page while a new result redraws their numbers', async () => {
  const { page, errors, close } = await harness.open();
  try {
    const kv = '#head-split button[data-hs-kv="1"]';
    await page.focus(kv);
    const detail = () => page.textContent('#head-split .hs-detail table');
    const before = await detail();
    // Marked with a property, not an attribute: an attribute would make it differ from a new one.
    await page.evaluate((selector) => {
      document.querySelector(selector).mark = 'before';
      document.querySelector('#head-split .hs-maps').mark = 'before';
      document.querySelector('#head-split .hs-map canvas').mark = 'before';
      // A new temperature, from a script: a click or a drag would move the focus.
      const tau = document.querySelector('#lesson-tau-range');
      tau.value = '-0.5';
      tau.dispatchEvent(new Event('input', { bubbles: true }));
    }, kv);
    const mark = (selector) => page.evaluate((s) => document.querySelector(s)?.mark ?? null, selector);
    // The small maps are new canvases; the part around them, the same as before, stays in the page
    // (re-attached, the whole panel was laid out and painted again), with the new numbers.
    await page.waitForFunction(() => document.querySelector('#head-split .hs-map canvas')?.mark === undefined);
    assert.equal(await mark('#head-split .hs-maps'), 'before');
    assert.notEqual(await detail(), before);
    assert.equal(await mark(kv), 'before');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.hsKv), '1');
    // A change of what the toolbar says gives a new one (the key/value heads pressed), and the
    // focus moves to the same button in it.
    await page.keyboard.press('Enter');
    await page.waitForFunction((selector) => document.querySelector(selector)?.getAttribute('aria-pressed') === 'true', kv);
    assert.equal(await mark(kv), null);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.hsKv), '1');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the links above the lesson land on their panels, though the panels were off screen and not laid out', async () => {
  const { page, errors, close } = await harness.open();
  try {
    await retype(page, '#sentence', 'The animal did not cross the street because it was too tired');
    await page.waitForFunction(() => document.querySelectorAll('#token-view text[data-tv-q]').length === 12);
    // Each panel ends at the top of the window, or, when the page
    // cannot scroll that far, scrolled to the end with the panel's top in the upper part of the window.
    for (const id of ['token-view', 'positions-view', 'head-split', 'token-view']) {
      await page.evaluate(() => window.scrollTo(0, 0));
      const { top, view, below } = await jumpTo(page, id);
      assert.ok(top >= 0 && (top <= 60 || (below <= 1 && top < view)), `#${id} after its link: top ${top} px, ${below} px left below`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the token view draws a line per weight, highlights on hover and works for 64 tokens', async () => {
  const { page, errors, close } = await harness.open();
  try {
    await retype(page, '#sentence', 'The animal did not cross the street because it was too tired');
    await page.waitForFunction(() => document.querySelectorAll('#token-view text[data-tv-q]').length === 12);
    assert.equal(await page.$eval('#token-view .tv-lines', (g) => g.getAttribute('stroke')), '#4e79a7');

    // Hover a query token: only its lines stay (drawn over the dimmed canvas), and its weights
    // are printed; they sum to 1. Causal: query 8 has lines to keys 0…8 only, thicker for larger weights.
    // Reached as a reader does, by its link: scrolled to by Playwright instead, the panel moved
    // away from under the pointer as the head split above it took its real size.
    await jumpTo(page, 'token-view');
    // Every line is painted on a canvas under the tokens: the strip between the two columns (read
    // on screen: off screen the panel's layout is skipped, content-visibility: auto).
    const [canvas, svg] = await page.$$eval('#token-view .tv-canvas, #token-view .tv-svg', (ns) => ns.map((n) => n.getBoundingClientRect().toJSON()));
    assert.ok(canvas.height === svg.height && canvas.left > svg.left && canvas.right < svg.right);
    await page.hover('#token-view text[data-tv-q="8"]');
    await page.waitForSelector('#token-view[data-focus="q8"]');
    const lines = await page.$$eval('#token-view line.on', (ls) =>
      ls.map((l) => ({ q: +l.dataset.q, k: +l.dataset.k, w: +l.dataset.w, width: +l.getAttribute('stroke-width') })),
    );
    assert.ok(lines.length > 1 && lines.every((l) => l.q === 8 && l.k <= 8));
    const sorted = [...lines].sort((a, b) => a.w - b.w);
    assert.ok(sorted.every((l, i) => i === 0 || l.width >= sorted[i - 1].width));
    const printed = await page.$$eval('#token-view [data-tv-w^="k"]', (ts) => ts.map((t) => t.textContent));
    const sum = printed.reduce((s, text) => s + parseCell(text), 0);
    assert.ok(Math.abs(sum - 1) < 0.01, `weights of row 9 sum to ${sum}`);
    assert.deepEqual(
      printed.map((text) => parseCell(text).toFixed(3)),
      (await lessonRow(page, 'weights', 0, 8)).map((text) => parseCell(text).toFixed(3)),
    );
    await panelShot(page, '#token-view', shot('tokens-hover-en.png'));

    // New weights over the same tokens (τ, from a script: the pointer stays on q8, pointed at
    // again after the screenshot): the tokens stay in the page, the lines are drawn again, and the
    // printed weights are the new ones.
    await page.hover('#token-view text[data-tv-q="8"]');
    await page.waitForSelector('#token-view[data-focus="q8"]');
    const linesDrawn = () => page.$eval('#token-view .tv-canvas', (c) => c.getContext('2d').getImageData(0, 0, c.width, c.height).data.join(','));
    const drawnBefore = await linesDrawn();
    const k0 = await page.textContent('#token-view [data-tv-w="k0"]');
    await page.evaluate(() => {
      document.querySelector('#token-view .tv-svg').mark = 'before';
      const tau = document.querySelector('#lesson-tau-range');
      tau.value = '-0.5';
      tau.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForFunction((old) => !['', old].includes(document.querySelector('#token-view [data-tv-w="k0"]').textContent), k0);
    assert.equal(await page.$eval('#token-view .tv-svg', (svg) => svg.mark), 'before');
    assert.equal(await page.getAttribute('#token-view', 'data-focus'), 'q8');
    const reprinted = await page.$$eval('#token-view [data-tv-w^="k"]', (ts) => ts.map((t) => t.textContent));
    assert.deepEqual(
      reprinted.map((text) => parseCell(text).toFixed(3)),
      (await lessonRow(page, 'weights', 0, 8)).map((text) => parseCell(text).toFixed(3)),
    );
    assert.notEqual(await linesDrawn(), drawnBefore);

    // Padding a token (its chip in the mask workbench) strikes its key through in the same
    // tokens, and unpadding it takes the stroke away: the panel is not built again for it.
    const struck = () => page.$$eval('#token-view text[data-tv-k].padded', (ts) => ts.map((t) => Number(t.dataset.tvK)));
    assert.deepEqual(await struck(), []);
    const padInTheLesson = async () => {
      await openView(page, 'attention'); // (the workbench is in the lesson's view)
      await page.click('#mask-workbench button[data-pad="11"]');
      await openView(page, 'heads');
    };
    await padInTheLesson();
    await page.waitForFunction(() => document.querySelector('#token-view text[data-tv-k="11"]').classList.contains('padded'));
    assert.deepEqual(await struck(), [11]);
    assert.equal(await page.$eval('#token-view .tv-svg', (svg) => svg.mark), 'before');
    await padInTheLesson();
    await page.waitForFunction(() => !document.querySelector('#token-view text[data-tv-k="11"]').classList.contains('padded'));
    assert.equal(await page.$eval('#token-view .tv-svg', (svg) => svg.mark), 'before');

    // 64 tokens: every token drawn, no cut note; 65: a note, 64 drawn.
    const words = (n) => Array.from({ length: n }, (_, i) => `w${i + 1}`).join(' ');
    await retype(page, '#sentence', words(64));
    await page.waitForFunction(() => document.querySelectorAll('#token-view text[data-tv-q]').length === 64);
    assert.equal(await count(page, '#token-view text[data-tv-k]'), 64);
    assert.equal(await count(page, '#token-view .hv-cut'), 0);
    // Keyboard focus works like pointing (and survives the screenshot's scrolling).
    await page.focus('#token-view text[data-tv-k="10"]');
    await page.waitForSelector('#token-view[data-focus="k10"]');
    const into = await page.$$eval('#token-view line.on', (ls) => ls.map((l) => +l.dataset.k));
    assert.ok(into.length > 0 && into.every((k) => k === 10));
    await panelShot(page, '#token-view', shot('tokens-64-en.png'));
    // Past 12 keys the split's detail map is painted; pointing at a cell prints its tokens and
    // weight (causal: the first query puts all its weight on the first key, none on the next).
    const detail = page.locator('#head-split [data-hv-figure="detail-weights"] canvas');
    await detail.scrollIntoViewIfNeeded();
    // One pixel per entry, shown as 12-pixel cells.
    assert.equal(await detail.evaluate((c) => `${c.width}×${c.height} as ${c.clientWidth}×${c.clientHeight}`), '64×64 as 768×768');
    // A new τ keeps the figure on screen and gives it the new canvas, whose pointer reads the new
    // weights (w2 → w1, as in the lesson).
    await page.evaluate(() => {
      document.querySelector('#head-split .hv-cells').mark = 'before';
      document.querySelector('#head-split .hv-cells canvas').mark = 'before';
      const tau = document.querySelector('#lesson-tau-range');
      tau.value = '-0.3'; // (−0.5 above)
      tau.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForFunction(() => document.querySelector('#head-split .hv-cells canvas').mark === undefined);
    assert.equal(await page.$eval('#head-split .hv-cells', (figure) => figure.mark), 'before');
    await detail.hover({ position: { x: 5, y: 17 } });
    const [a21] = await lessonRow(page, 'weights', 0, 1);
    assert.match(
      await page.textContent('#head-split .hv-cells .canvas-readout'),
      new RegExp(`^w2 → w1: ${parseCell(a21).toFixed(3).replace('.', '\\.')}$`),
    );
    await detail.hover({ position: { x: 5, y: 5 } });
    assert.equal(await page.textContent('#head-split .hv-cells .canvas-readout'), 'w1 → w1: 1.000');
    await detail.hover({ position: { x: 17, y: 5 } });
    assert.equal(await page.textContent('#head-split .hv-cells .canvas-readout'), 'w1 → w2: 0');
    await retype(page, '#sentence', words(65));
    await page.waitForSelector('#token-view .hv-cut');
    assert.equal(await count(page, '#token-view text[data-tv-q]'), 64);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('cross-attention: target × source maps, padding on the source, causal only when asked', async () => {
  const { page, errors, close } = await harness.open();
  try {
    await page.check('#cross-mode');
    await retype(page, '#source-sentence', 'Le chat est assis');
    await page.waitForSelector('#cross-view:not([hidden]) td[data-hv="cross-weights"]');
    await page.waitForFunction(() => document.querySelectorAll('#cross-view td[data-hv="cross-weights"][data-row="0"]').length === 4);
    // 6 target tokens × 4 source tokens, in the lesson too; the source tokens label the columns.
    assert.equal(await count(page, '#cross-view td[data-hv="cross-weights"]'), 24);
    assert.equal(await count(page, 'section.lesson-step:not(.parked) td[data-matrix="weights"][data-head="0"][data-row="0"]'), 4);
    const columns = await page.$$eval('#cross-view [data-hv-figure="cross-weights"] thead tr.cols th[scope="col"]', (ths) =>
      ths.map((th) => th.textContent),
    );
    assert.deepEqual(columns, ['Le', 'chat', 'est', 'assis']);
    const text = await page.textContent('#cross-view');
    assert.match(text, /T × T_s = 6 × 4/);
    assert.match(text, /Q = X_target · W_Q/);
    assert.match(text, /K = X_source · W_K/);
    assert.match(text, /Causal: off/);
    // Not causal unless asked: the first target token sees every source token.
    const first = (await hvRow(page, 'cross-weights', 0, 0)).map(parseCell);
    assert.ok(
      first.every((w) => w > 0),
      first.join(' '),
    );
    assert.deepEqual(await hvRow(page, 'cross-weights', 0, 5), await lessonRow(page, 'weights', 0, 5));

    // Padding: "est" is masked as a key for every target token. The matrices stay in the page
    // with new numbers (marked with a property: an attribute would make them differ from new
    // ones); the lines above them, which say something new, are new.
    await page.evaluate(() => {
      document.querySelector('#cross-view .xa-matrices').mark = 'before';
      document.querySelector('#cross-view .xa-lines').mark = 'before';
    });
    await page.click('#source-chips button[data-pad="2"]');
    await page.waitForFunction(() => document.querySelector('#source-chips button[data-pad="2"]').getAttribute('aria-pressed') === 'true');
    await page.waitForFunction(() => document.querySelector('td[data-hv="cross-weights"][data-row="3"][data-col="2"]').textContent === '0');
    for (let r = 0; r < 6; r += 1) assert.equal(parseCell((await hvRow(page, 'cross-weights', 0, r))[2]), 0);
    assert.match(await page.textContent('#cross-view'), /source tokens est are masked/);
    assert.deepEqual(await page.evaluate(() => ['.xa-matrices', '.xa-lines'].map((s) => document.querySelector(`#cross-view ${s}`).mark ?? null)), [
      'before',
      null,
    ]);
    assert.deepEqual(await hvRow(page, 'cross-weights', 0, 5), await lessonRow(page, 'weights', 0, 5));

    // Causal when asked: target position i sees source positions ≤ i.
    await page.check('#cross-causal');
    await page.waitForFunction(() => document.querySelector('td[data-hv="cross-weights"][data-row="0"][data-col="1"]').textContent === '0');
    assert.deepEqual((await hvRow(page, 'cross-weights', 0, 0)).map(parseCell), [1, 0, 0, 0]);
    await page.uncheck('#cross-causal');
    await page.waitForFunction(() => document.querySelector('td[data-hv="cross-weights"][data-row="0"][data-col="1"]').textContent !== '0');

    // The token view draws target → source.
    assert.equal(await count(page, '#token-view text[data-tv-k]'), 4);
    assert.equal(await page.$eval('#token-view text[data-tv-k="1"]', (t) => t.firstChild.textContent), 'chat');
    await panelShot(page, '#cross-view', shot('cross-en.png'));
    await panelShot(page, '#token-view', shot('cross-tokens-en.png'));

    // An empty source: a message, the last result stays.
    const before = await hvRow(page, 'cross-weights', 0, 5);
    await retype(page, '#source-sentence', '');
    await page.waitForSelector('#message:not([hidden])');
    assert.match(await page.textContent('#message'), /Cross-attention needs a source sentence/);
    assert.equal(await page.getAttribute('#source-sentence', 'aria-invalid'), 'true');
    assert.deepEqual(await hvRow(page, 'cross-weights', 0, 5), before);

    // Tokens are text, never HTML, in every view.
    await retype(page, '#source-sentence', '<img src=x onerror="window.hacked=1"> <b>b</b>');
    await page.waitForFunction(() => document.querySelectorAll('#cross-view td[data-hv="cross-weights"][data-row="0"]').length === 4);
    assert.equal(await count(page, '#head-views img, #head-views b, #structure-controls img, #structure-controls b'), 0);
    assert.equal(await page.evaluate(() => window.hacked), undefined);

    // Back to self-attention.
    await retype(page, '#source-sentence', 'Le chat');
    await page.uncheck('#cross-mode');
    await page.waitForSelector('#cross-view', { state: 'hidden' });
    assert.equal(await count(page, 'section.lesson-step:not(.parked) td[data-matrix="weights"][data-head="0"][data-row="0"]'), 6);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('Chinese is tokenized into words or characters, and past the limit nothing is lost', async () => {
  const { page, errors, close } = await harness.open();
  try {
    await retype(page, '#sentence', '我爱自然语言处理');
    await page.waitForFunction(() => document.querySelectorAll('#token-chips .chip').length === 1);
    await page.check('input[name="tokenization"][value="word"]');
    await page.waitForFunction(() => document.querySelectorAll('#token-chips .chip').length === 5);
    const chips = await page.$$eval('#token-chips .chip', (cs) => cs.map((c) => c.textContent));
    assert.deepEqual(chips, ['我', '爱', '自然', '语言', '处理']);
    await page.waitForFunction(() => document.querySelectorAll('section.lesson-step:not(.parked) td[data-matrix="output"]').length === 5 * 6);
    // The head views off screen draw after the lesson's frame (web/src/heads/view-scheduler.js).
    await page.waitForFunction(() => document.querySelectorAll('#token-view text[data-tv-q]').length === 5);
    const labels = await page.$$eval('#token-view text[data-tv-q]', (ts) => ts.map((t) => t.firstChild.textContent));
    assert.deepEqual(labels, chips);
    assert.match(await page.textContent('#token-count'), /words.*T = 5/);

    await page.check('input[name="tokenization"][value="char"]');
    await page.waitForFunction(() => document.querySelectorAll('#token-chips .chip').length === 8);
    assert.deepEqual(await page.$$eval('#token-chips .chip', (cs) => cs.map((c) => c.textContent)), [...'我爱自然语言处理']);
    await page.check('input[name="tokenization"][value="word"]');
    await page.waitForFunction(() => document.querySelectorAll('#token-chips .chip').length === 5);

    // In Chinese, with a CJK font (without one the screenshot shows boxes).
    await page.click('button[data-lang="zh-CN"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await page.waitForFunction(() => /多头注意力/.test(document.querySelector('#head-split h2')?.textContent ?? ''));
    assert.match(await page.textContent('#token-count'), /按词切分/);
    assert.ok(await page.evaluate(() => document.fonts.check('16px "Noto Sans CJK SC"', '注意力')), 'no CJK font: install fonts-noto-cjk');
    await panelShot(page, '#controls', shot('tokenize-zh-CN.png'));
    await panelShot(page, '#token-view', shot('tokens-zh-CN.png'));
    await panelShot(page, '#head-split', shot('heads-split-zh-CN.png'));
    await page.click('button[data-lang="en"]');

    // Past the engine's limit: a clear message, the last result and the typed text stay.
    await page.check('input[name="tokenization"][value="char"]');
    // Eight tokens: the lesson's matrices with a row per token are drawn on canvases (matrix-view.js).
    await page.waitForFunction(() => document.querySelector('#results figure[data-matrix-figure="output"] .shape')?.textContent === '8 × 6');
    const before = await lessonRow(page, 'weights', 0, 4);
    const long = '我爱自然语言处理'.repeat(130); // 1040 characters
    await retype(page, '#sentence', long);
    await page.waitForSelector('#message:not([hidden])');
    assert.match(await page.textContent('#message'), /Too many tokens: 1040\. The engine takes at most 1024\./);
    assert.deepEqual(await lessonRow(page, 'weights', 0, 4), before);
    assert.equal(await page.inputValue('#sentence'), long);
    // Words instead of characters: back under the limit, computed.
    await page.check('input[name="tokenization"][value="word"]');
    await page.waitForSelector('#message', { state: 'hidden' });
    const T = Number(/T = (\d+)/.exec(await page.textContent('#token-count'))[1]);
    assert.ok(T > 500 && T <= 1024, `T = ${T}`);
    assert.notDeepEqual(await lessonRow(page, 'weights', 0, 4), before);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('sinusoidal positions are a matrix of their own, and shuffling shows what they change', async () => {
  const { page, errors, close } = await harness.open();
  try {
    await page.check('input[name="positional"][value="sinusoidal"]');
    await page.waitForSelector('#positions-view td[data-hv="pos-p"]');
    // P(0, 2i) = sin 0 = 0 and P(0, 2i+1) = cos 0 = 1; X = E + P cell by cell.
    assert.deepEqual(await hvRow(page, 'pos-p', null, 0), ['0.000', '1.000', '0.000', '1.000', '0.000', '1.000']);
    const [e, p, x] = await Promise.all(['pos-e', 'pos-p', 'pos-x'].map((name) => hvRow(page, name, null, 3)));
    x.forEach((text, c) => assert.ok(Math.abs(parseCell(text) - parseCell(e[c]) - parseCell(p[c])) <= 0.0015, `X[3][${c}]`));
    assert.deepEqual(x, await lessonRow(page, 'x', null, 3));

    await jumpTo(page, 'positions-view');
    await page.click('#positions-view button[data-pe="shuffle"]');
    await page.waitForSelector('#positions-view [data-pe-summary]');
    assert.equal(await page.getAttribute('#positions-view [data-pe-summary="none"]', 'class'), 'same');
    assert.equal(await page.getAttribute('#positions-view [data-pe-summary="sinusoidal"]', 'class'), 'changed');
    const verdicts = await page.$$eval('#positions-view .pe-table tbody tr', (rows) =>
      rows.map((r) => [...r.querySelectorAll('td[data-pe-same]')].map((td) => td.dataset.peSame).join('')),
    );
    assert.equal(verdicts.length, 6);
    assert.ok(
      verdicts.every((v) => v[0] === '1'),
      verdicts.join(' '),
    ); // without positions: equal
    assert.ok(
      verdicts.some((v) => v[1] === '0'),
      verdicts.join(' '),
    ); // with positions: changed
    // The rows of the shuffled output are the typed output's rows, moved with their tokens.
    const typedTokens = await page.$$eval('[data-hv-figure="shuffle-none-typed"] tbody th', (ths) => ths.map((th) => th.textContent));
    const shuffledTokens = await page.$$eval('[data-hv-figure="shuffle-none-shuffled"] tbody th', (ths) => ths.map((th) => th.textContent));
    assert.notDeepEqual(shuffledTokens, typedTokens);
    const p0 = shuffledTokens.indexOf(typedTokens[0]);
    assert.deepEqual(await hvRow(page, 'shuffle-none-shuffled', null, p0), await hvRow(page, 'shuffle-none-typed', null, 0));
    await panelShot(page, '#positions-view', shot('positions-en.png'));

    // τ changes the outputs, not E, P or X: the comparison is built again with the new outputs,
    // and the three matrices and their formula stay in the page as they were.
    const typedRow = await hvRow(page, 'shuffle-none-typed', null, 0);
    await page.evaluate(() => {
      document.querySelector('#positions-view .pe-matrices').mark = 'kept';
      const tau = document.querySelector('#lesson-tau-range');
      tau.value = '-0.5';
      tau.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForFunction((old) => {
      const cells = document.querySelectorAll('td[data-hv="shuffle-none-typed"][data-row="0"]');
      return cells.length > 0 && [...cells].map((td) => td.textContent).join() !== old.join();
    }, typedRow);
    assert.equal(await page.$eval('#positions-view .pe-matrices', (node) => node.mark), 'kept');
    assert.deepEqual(await hvRow(page, 'pos-x', null, 3), await lessonRow(page, 'x', null, 3));

    await page.click('#positions-view button[data-pe="typed"]');
    await page.waitForFunction(() => !document.querySelector('#positions-view [data-pe-summary]'));
    await page.check('input[name="positional"][value="none"]');
    await page.waitForFunction(() => !document.querySelector('#positions-view td[data-hv="pos-p"]'));
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
