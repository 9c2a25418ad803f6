// Today's attention in a real browser, used as a reader would: step through FlashAttention's
// tiles and read m, ℓ and the final difference, also in cross-attention with padded source
// tokens (their tiles skipped and said why), and its memory table on a phone; step the KV cache
// and read each model's cache at its context; switch to RoPE, read a turned pair (positions from
// 1, m = n − 1), click to d_k = 8 and read the shift demonstration; turn ALiBi on and read a bias entry. What the page prints is checked digit
// for digit against the engine run in Node on the same state (formatCell), and the engine's
// values against the float64 reference (tests/js/reference64.mjs) to 1e-5 relative. Links round
// trip; screenshots (EN and 中文, 1440 and 375 px) land in tests/browser/screenshots/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';

import { createAttention, kvCacheBytesPerToken, MODEL_SHAPES } from '../../web/src/engine/attention.js';
import { kvCacheAtContext } from '../../web/src/engine/memory-figures.js';
import { formatCell } from '../../web/src/render/format.js';
import { engineConfigOf } from '../../web/src/share/engine-config.js';
import { MODEL_IDS } from '../../web/src/state/schema.js';
import { decodeHash } from '../../web/src/state/url.js';
import { forward64 } from '../js/reference64.mjs';
import { hvRow, lessonRow, panelShot, retype, screenshots, startBrowser } from './heads-harness.mjs';
import { linkNow, openView, whenDrawn } from './harness.mjs';

let harness;
let engine;
before(async () => {
  harness = await startBrowser({ view: 'modern' });
  engine = await createAttention();
});
after(async () => {
  await harness?.close();
});

const shot = (name) => path.join(screenshots, name);
const close5 = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b)), `${what}: ${a} against ${b}`);
const configOf = (hash) => engineConfigOf(decodeHash(hash).state);

// The panel brought into view as a reader scrolls to it.
async function toPanel(page, id) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  await page.waitForSelector(`#${id}:not(.hv-undrawn) h2`);
}
const where = (page, name) => page.textContent(`[data-step-buttons="${name}"] .md-where`);

test('FlashAttention: stepping through the worked example’s 2 × 2 tiles, m and ℓ are the engine’s and the float64 ones; the last tile matches the lesson', async () => {
  const { page, errors, close } = await harness.open('#preset=journey');
  try {
    await toPanel(page, 'flash-view');
    assert.match(await where(page, 'flash'), /Tile 1 of 9 .*3 skipped/);
    const trace = engine.flashTrace(configOf('#preset=journey'), { blockRows: 2, blockKeys: 2 });
    const tiles = trace.perHead[0].tiles;
    // Float64: z of the worked example, and each row's m and ℓ over the keys seen so far.
    const ref = forward64(engine.compute(configOf('#preset=journey'))).perHead[0].masked;
    const running = (r, keys) => {
      const seen = ref[r].slice(0, keys);
      const m = Math.max(...seen);
      return { m, l: seen.reduce((s, z) => s + (z === -Infinity ? 0 : Math.exp(z - m)), 0) };
    };

    // Next by a click, then by the keyboard (→ on the focused button): tile 2 is skipped.
    await page.click('[data-step-buttons="flash"] button[data-move="next"]');
    await page.waitForSelector('#flash-view [data-flash-skipped]');
    assert.match(await where(page, 'flash'), /Tile 2 of 9/);
    await page.focus('[data-step-buttons="flash"] button[data-move="next"]');
    for (let n = 0; n < 3; n += 1) await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => /Tile 5 of 9/.test(document.querySelector('[data-step-buttons="flash"] .md-where').textContent));
    const tile = tiles[4];
    assert.deepEqual([tile.row0, tile.key0, tile.skipped], [2, 2, false]);
    for (let r = 0; r < 2; r += 1) {
      const [mOld, mNew, rescale, sum] = await hvRow(page, 'flash-stats', null, r);
      assert.equal(mNew, formatCell(tile.max[r]));
      assert.equal(sum, formatCell(tile.sum[r]));
      assert.equal(rescale, formatCell(tile.rescale[r]));
      assert.equal(mOld, formatCell(tiles[3].max[r]));
      const { m, l } = running(2 + r, 4);
      close5(tile.max[r], m, `m of row ${3 + r}`);
      close5(tile.sum[r], l, `ℓ of row ${3 + r}`);
      close5(tile.rescale[r], Math.exp(tiles[3].max[r] - tile.max[r]), `rescale of row ${3 + r}`);
    }
    // The tile is outlined in the T × T logits.
    assert.equal(
      await page.$$eval('#flash-view td[data-hv="flash-logits"][data-hl]', (cells) => cells.map((c) => `${c.dataset.row}${c.dataset.col}`).join()),
      '22,23,32,33',
    );

    // End: the last tile, and the output against the lesson's.
    await page.keyboard.press('End');
    await page.waitForSelector('#flash-view [data-flash-final]');
    const final = Number(await page.getAttribute('#flash-view [data-flash-final]', 'data-flash-final'));
    assert.ok(final <= 1e-5, `largest difference ${final}`);
    assert.match(await page.textContent('#flash-view [data-flash-final]'), /output equals the ordinary path’s/);
    // Memory figures: T = 6 and 8 192, from the engine's memory figures.
    assert.equal(await page.textContent('#flash-view tr[data-memory="scoresBytes"] td:last-child'), '256 MB');

    // Br = 3: two blocks of rows by three tiles of keys, back at the first tile.
    await page.selectOption('#flash-br', '3');
    await page.waitForFunction(() => /Tile 1 of 6/.test(document.querySelector('[data-step-buttons="flash"] .md-where').textContent));
    await page.waitForFunction(() => location.hash.includes('br=3'));
    await panelShot(page, '#flash-view', shot('modern-flash-en.png'), { keep: true });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('FlashAttention in cross-attention: target × source tiles, labelled by their tokens; tiles of padding skipped, hatched and said why', async () => {
  const { page, errors, close } = await harness.open('');
  try {
    // As a reader: cross-attention on, a source of five words typed, its 3rd and 4th tokens clicked as padding.
    await page.check('#cross-mode');
    await retype(page, '#source-sentence', 'die Katze schläft sehr gut');
    await page.waitForSelector('#source-chips button[data-pad="4"]');
    await page.click('#source-chips button[data-pad="2"]');
    await page.click('#source-chips button[data-pad="3"]');
    await whenDrawn(page);
    await toPanel(page, 'flash-view');
    const target = ['Your', 'journey', 'starts', 'with', 'one', 'step'];
    const source = ['die', 'Katze', 'schläft', 'sehr', 'gut'];
    const grid = '#flash-view [data-hv-figure="flash-logits"]';
    await page.waitForFunction((sel) => document.querySelector(sel)?.querySelector('.shape')?.textContent === '6 × 5', grid);
    assert.match(await page.textContent(`${grid} figcaption`), /target tokens ask \(rows\), source tokens answer \(columns\)/);
    assert.deepEqual(await page.$$eval(`${grid} tbody th`, (ths) => ths.map((th) => th.textContent)), target);
    assert.deepEqual(await page.$$eval(`${grid} thead th[scope="col"]`, (ths) => ths.map((th) => th.textContent)), source);

    // Br = Bc = 2: three blocks of queries × keys 1–2, 3–4 (both padding: skipped) and 5.
    await linkNow(page);
    const config = engineConfigOf(decodeHash(await page.evaluate(() => location.hash)).state);
    assert.deepEqual(config.source.tokens, source);
    const trace = engine.flashTrace(config, { blockRows: 2, blockKeys: 2 });
    const tiles = trace.perHead[0].tiles;
    assert.deepEqual(tiles.map((t) => (t.skipped ? 'x' : '.')).join(''), '.x..x..x.');
    assert.match(await where(page, 'flash'), /Tile 1 of 9 \(head 1; 3 skipped by the mask\)/);
    assert.deepEqual(await page.$$eval('#flash-skips li', (items) => items.map((li) => [li.dataset.flashSkipReason, li.textContent])), [
      ['padding', '3 tiles skipped by padding — every key of the tile is a padding token'],
    ]);
    assert.equal(await page.getAttribute(grid, 'aria-describedby'), 'flash-key flash-skips');
    // Every cell of a skipped tile says so; a computed one prints the engine's logit.
    const titles = await page.$$eval(`${grid} td[data-col="2"], ${grid} td[data-col="3"]`, (cells) => [...new Set(cells.map((c) => c.title))]);
    assert.deepEqual(titles, ['skipped, never computed: padding — every key of the tile is a padding token']);
    assert.equal(await page.getAttribute(`${grid} td[data-row="5"][data-col="4"]`, 'title'), formatCell(tiles[8].logits.data[1]));

    // Tile 2 (queries 1–2, keys 3–4) is skipped, and says why; tile 3's logits are labelled by the source token.
    await page.click('[data-step-buttons="flash"] button[data-move="next"]');
    await page.waitForSelector('#flash-view [data-flash-skipped="padding"]');
    assert.match(await page.textContent('#flash-view h3'), /Tile 2: queries 1–2, keys 3–4/);
    assert.match(await page.textContent('#flash-view [data-flash-skipped]'), /^Skipped by padding — every key of the tile is a padding token\./);
    await panelShot(page, '#flash-view', shot('modern-flash-cross-en.png'), { keep: true });
    await page.click('[data-step-buttons="flash"] button[data-move="next"]');
    await page.waitForSelector('#flash-view [data-hv-figure="flash-tile"]');
    assert.deepEqual(await page.$$eval('#flash-view [data-hv-figure="flash-tile"] thead th[scope="col"]', (ths) => ths.map((th) => th.textContent)), [
      'gut',
    ]);
    assert.deepEqual(await hvRow(page, 'flash-tile', null, 1), [formatCell(tiles[2].logits.data[1])]);

    // The last tile: the same output as the lesson's, and T × T_s in the memory figures.
    await page.focus('[data-step-buttons="flash"] button[data-move="next"]');
    await page.keyboard.press('End');
    await page.waitForSelector('#flash-view [data-flash-final]');
    assert.ok(Number(await page.getAttribute('#flash-view [data-flash-final]', 'data-flash-final')) <= 1e-5);
    assert.match(await page.textContent('#flash-view tr[data-memory="scoresBytes"] th'), /T × T_s scores/);
    assert.match(await page.textContent('#flash-view .md-memory thead'), /T = 6, T_s = 5/);
    // A source past the trace's limit: said so, the memory figures alone.
    await retype(page, '#source-sentence', Array.from({ length: 70 }, (_, n) => `w${n}`).join(' '));
    await whenDrawn(page);
    assert.match(await page.textContent('#flash-view [data-flash-limit]'), /for a source of T_s ≤ 64; this source has T_s = 70/);
    assert.match(await page.textContent('#flash-view .md-memory thead'), /T = 6, T_s = 70/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('KV cache: step 4 of the worked example holds four cached rows, its row is the full causal row, the counter is the engine’s', async () => {
  const hash = '#preset=journey';
  const { page, errors, close } = await harness.open(hash);
  try {
    await toPanel(page, 'kv-view');
    const run = engine.decode(configOf(hash));
    const full = forward64(engine.compute(configOf(hash))).perHead[0].weights;
    for (let n = 0; n < 3; n += 1) await page.click('[data-step-buttons="kv"] button[data-move="next"]');
    await page.waitForFunction(() => /Step 4 of 6/.test(document.querySelector('[data-step-buttons="kv"] .md-where').textContent));
    assert.equal(await page.$$eval('#kv-view td[data-hv="kv-k"][data-col="0"]', (cells) => cells.length), 4);
    const shown = await hvRow(page, 'kv-row', null, 0);
    const engineRow = Array.from(run.perHead[0].weights.data.subarray(3 * 6, 3 * 6 + 4));
    assert.deepEqual(shown, engineRow.map(formatCell));
    engineRow.forEach((w, j) => close5(w, full[3][j], `a_4${j + 1}`));
    assert.ok(Number(await page.getAttribute('[data-kv-difference]', 'data-kv-difference')) <= 1e-5);
    const cached = run.multiplyAdds.cached.slice(0, 4).reduce((a, b) => a + b, 0);
    const uncached = run.multiplyAdds.uncached.slice(0, 4).reduce((a, b) => a + b, 0);
    assert.equal(Number(await page.getAttribute('[data-kv-cached]', 'data-kv-cached')), cached);
    assert.equal(Number(await page.getAttribute('[data-kv-cached]', 'data-kv-uncached')), uncached);
    assert.ok(cached < uncached);
    // A multi-query model: one key/value head of 64, 16-bit.
    await page.selectOption('#kv-model', 'falcon-7b');
    await page.waitForFunction(() => document.querySelector('[data-kv-model-bytes]')?.textContent.includes('Falcon'));
    assert.equal(
      Number(await page.getAttribute('[data-kv-model-bytes]', 'data-kv-model-bytes')),
      kvCacheBytesPerToken({ kvHeads: 1, dK: 64, bytesPerValue: 2 }),
    );
    assert.match(await page.textContent('#kv-view'), /huggingface\.co\/tiiuae\/falcon-7b/);
    await page.waitForFunction(() => location.hash.includes('model=falcon-7b') && location.hash.includes('kvt=4'));
    await panelShot(page, '#kv-view', shot('modern-kv-en.png'));
    // Each model's whole cache stops at its own context length: GPT-2 small's at 1 024 tokens.
    const context = '#kv-view [data-kv-context]';
    for (const [n, shape] of MODEL_SHAPES.entries()) {
      await page.selectOption('#kv-model', MODEL_IDS[n]);
      await page.waitForFunction(([sel, name]) => document.querySelector(sel)?.textContent.startsWith(name), [context, shape.name]);
      const full = kvCacheAtContext(shape);
      assert.deepEqual(await page.$eval(context, (p) => [p.dataset.kvContext, p.dataset.kvContextTokens, p.dataset.kvContextBytes].map(Number)), [
        shape.context,
        full.tokens,
        full.bytes,
      ]);
      assert.ok(full.tokens <= shape.context);
      const said = await page.textContent(context);
      assert.ok(said.includes(`${shape.context.toLocaleString('en')} tokens`), said);
      assert.doesNotMatch(await page.textContent('#kv-view .md-memory'), /8 192 tokens/);
    }
    await page.selectOption('#kv-model', 'gpt-2-small');
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.startsWith('GPT-2'), context);
    assert.equal(
      await page.textContent(context),
      'GPT-2 small takes at most 1,024 tokens (its context length): with every one of them cached, 36 MB over all layers.',
    );
    await page.selectOption('#kv-model', 'mistral-7b');
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.startsWith('Mistral'), context);
    assert.equal(
      await page.textContent(context),
      'Mistral 7B takes up to 32,768 tokens, but each layer sees only the latest 4,096 (its sliding window): a rolling cache of 4,096 tokens, 512 MB, is all it keeps however long the text.',
    );
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

const ropeAngleLine = (n, p, angle) =>
  `position ${n}, m = ${n} − 1 = ${n - 1}: angle m·θ${p} = ${n - 1}·θ${p} = ${angle.toFixed(4)} rad (${((angle * 180) / Math.PI).toFixed(1)}°)`;
const angleLabels = (page) =>
  page.$$eval('#rope-view [data-hv-figure="rope-angles"] thead th[scope="col"]', (ths) => ths.map((th) => th.textContent));

test('RoPE: positions count from 1 (m = n − 1) and every number is the engine’s; d_k = 3 is said to turn one pair, and one click shows four; a shift of every position changes no score (sinusoidal: it does)', async () => {
  const { page, errors, close } = await harness.open('');
  try {
    await page.check('input[name="positional"][value="rope"]');
    await page.waitForFunction(() => location.hash.includes('pos=rope'));
    await toPanel(page, 'rope-view');
    await page.waitForSelector('#rope-view [data-rope-shift]');
    let config = configOf(await page.evaluate(() => location.hash));
    assert.equal(config.positional, 'rope');
    let result = engine.compute(config);
    // Token 3 ("starts") stands at position 3: the engine's m = 2, and pair 1 turns by 2·θ₁ = 2 rad.
    const angle = result.ropeAngles.data[2];
    close5(angle, 2, 'angle');
    assert.equal(await page.textContent('[data-rope-angle]'), ropeAngleLine(3, '₁', angle));
    const before = (await page.getAttribute('[data-rope-before]', 'data-rope-before')).split(',').map(Number);
    const after = (await page.getAttribute('[data-rope-after]', 'data-rope-after')).split(',').map(Number);
    assert.deepEqual(before, [result.q.data[2 * 6], result.q.data[2 * 6 + 1]]);
    assert.deepEqual(after, [result.perHead[0].q.data[2 * 3], result.perHead[0].q.data[2 * 3 + 1]]);
    close5(after[0], before[0] * Math.cos(2) - before[1] * Math.sin(2), 'turned x');
    close5(after[1], before[0] * Math.sin(2) + before[1] * Math.cos(2), 'turned y');
    // The angles, pairs counted from 1; the token at position 1 is not turned.
    assert.deepEqual(await angleLabels(page), ['θ₁']);
    assert.deepEqual(await hvRow(page, 'rope-angles', null, 0), [formatCell(result.ropeAngles.data[0])]);
    assert.equal(result.ropeAngles.data[0], 0);
    // d_k = 3: odd, and a single pair, so a single speed: said so, with the click to four pairs.
    assert.equal(await page.getAttribute('[data-rope-odd]', 'data-rope-odd'), '1');
    assert.match(await page.textContent('[data-rope-odd]'), /odd.*left unrotated/);
    assert.equal(await page.getAttribute('[data-rope-few]', 'data-rope-few'), '1');
    assert.match(await page.textContent('[data-rope-few]'), /^d_k = 3 has 1 pair of dimensions to turn, so a single speed of turning\./);
    assert.equal(await page.textContent('#rope-view [data-rope-demo]'), 'Use d_model = 16 (2 heads of d_k = 8)');
    // The shift: positions 1001, 1002, … instead of 1, 2, …
    assert.match(await page.textContent('#rope-view'), /positions 1001, 1002, … instead of 1, 2, …/);
    const rope = Number(await page.getAttribute('[data-rope-shift]', 'data-rope-shift'));
    const sinusoidal = Number(await page.getAttribute('[data-sin-shift]', 'data-sin-shift'));
    assert.ok(rope < 1e-5, `RoPE changed a score by ${rope}`);
    assert.ok(sinusoidal > 1e-2, `sinusoidal changed the scores by only ${sinusoidal}`);
    // The float64 reference agrees: shifted, the RoPE scores stay.
    const shifted = forward64(result, { rope: true, positionOffset: 1000 }).perHead;
    result.perHead.forEach((head, h) => head.scores.data.forEach((s, n) => close5(s, shifted[h].scores[Math.floor(n / 6)][n % 6], 'shifted score')));
    await panelShot(page, '#rope-view', shot('modern-rope-en.png'));

    // One click: d_model = 16, two heads of d_k = 8, four pairs each turning at its own speed.
    await page.click('#rope-view [data-rope-demo]');
    await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('d') === '16');
    await whenDrawn(page);
    assert.equal(await page.inputValue('#d-model'), '16');
    assert.equal(await page.$('#rope-view [data-rope-few]'), null);
    assert.deepEqual(await angleLabels(page), ['θ₁', 'θ₂', 'θ₃', 'θ₄']);
    await page.selectOption('#rope-pair', '2');
    await page.selectOption('#rope-token', '4');
    await page.waitForFunction(() => location.hash.includes('rtok=4') && location.hash.includes('rpair=2'));
    await whenDrawn(page);
    config = configOf(await page.evaluate(() => location.hash));
    result = engine.compute(config);
    assert.deepEqual([result.dK, result.ropeAngles.cols], [8, 4]);
    // Token 4 ("with"), pair 2: m = 3, angle 3·θ₂ = 3 · 10000^(−2/8) = 0.3 rad.
    const angle2 = result.ropeAngles.data[3 * 4 + 1];
    close5(angle2, 0.3, 'angle of pair 2 at position 4');
    assert.equal(await page.textContent('[data-rope-angle]'), ropeAngleLine(4, '₂', angle2));
    assert.deepEqual((await page.getAttribute('[data-rope-before]', 'data-rope-before')).split(',').map(Number), [
      result.q.data[3 * 16 + 2],
      result.q.data[3 * 16 + 3],
    ]);
    assert.deepEqual((await page.getAttribute('[data-rope-after]', 'data-rope-after')).split(',').map(Number), [
      result.perHead[0].q.data[3 * 8 + 2],
      result.perHead[0].q.data[3 * 8 + 3],
    ]);
    // At position 2 (m = 1) each pair has turned by its θ_p: every pair slower than the one before.
    const speeds = await hvRow(page, 'rope-angles', null, 1);
    assert.deepEqual(speeds, Array.from(result.ropeAngles.data.subarray(4, 8)).map(formatCell));
    const thetas = Array.from(result.ropeAngles.data.subarray(4, 8));
    thetas.forEach((theta, p) => close5(theta, 10000 ** (-(2 * p) / 8), `θ${p + 1}`));
    assert.ok(thetas.every((theta, p) => p === 0 || theta < thetas[p - 1]));
    assert.ok(Number(await page.getAttribute('[data-rope-shift]', 'data-rope-shift')) < 1e-5);
    await panelShot(page, '#rope-view', shot('modern-rope-d8-en.png'), { keep: true });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('ALiBi: the checkbox by the mask adds −m_h·|i − j|; a bias entry and the slopes are the engine’s, the weights follow', async () => {
  const { page, errors, close } = await harness.open('');
  try {
    const before = await lessonRow(page, 'weights', 0, 4);
    await page.check('#alibi');
    await page.waitForFunction(() => location.hash.includes('alibi=1'));
    await page.waitForSelector('section.lesson-step:not(.parked) [data-matrix="bias"]', { state: 'attached' });
    const result = engine.compute(configOf(await page.evaluate(() => location.hash)));
    assert.deepEqual(Array.from(result.alibiSlopes), [2 ** -4, 2 ** -8]);
    const bias = await lessonRow(page, 'bias', 0, 4);
    const engineRow = Array.from(result.perHead[0].bias.data.subarray(4 * 6, 5 * 6));
    assert.deepEqual(bias, engineRow.map(formatCell));
    engineRow.forEach((b, j) => close5(b, -(2 ** -4) * Math.abs(4 - j), `b_5${j + 1}`));
    assert.match(await page.textContent('section.lesson-step[data-step="mask"] .caption'), /m₁ = 0\.0625, m₂ = 0\.003906/);
    const weights = await lessonRow(page, 'weights', 0, 4);
    assert.notDeepEqual(weights, before);
    // (the masked key 6 prints as 0)
    assert.deepEqual(weights.slice(0, 5), Array.from(result.perHead[0].weights.data.subarray(24, 29)).map(formatCell));
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('links: every new field round-trips, an old link opens as before, RoPE with cross-attention is refused with a message', async () => {
  const hash = '#preset=journey&v=1&pos=rope&alibi=1&br=3&bc=2&tile=4&kvt=5&model=mistral-7b&rtok=4&rpair=1';
  const { page, errors, close } = await harness.open(hash);
  try {
    await toPanel(page, 'flash-view');
    assert.match(await where(page, 'flash'), /Tile 4 of 6/);
    assert.equal(await page.inputValue('#flash-bc'), '2');
    await toPanel(page, 'kv-view');
    assert.match(await where(page, 'kv'), /Step 5 of 6/);
    assert.equal(await page.inputValue('#kv-model'), 'mistral-7b');
    await toPanel(page, 'rope-view');
    assert.equal(await page.inputValue('#rope-token'), '4');
    assert.ok(await page.isChecked('#alibi'));
    // A change rewrites the address with every field kept.
    await page.click('[data-step-buttons="flash"] button[data-move="next"]');
    await page.waitForFunction(() => location.hash.includes('tile=5'));
    const state = decodeHash(await page.evaluate(() => location.hash)).state;
    assert.deepEqual(
      [
        state.positional,
        state.alibi,
        state.flashRows,
        state.flashKeys,
        state.flashTile,
        state.kvStep,
        state.kvModel,
        state.ropeToken,
        state.ropePair,
      ],
      ['rope', true, 3, 2, 5, 5, 'mistral-7b', 4, 1],
    );
    // Cross-attention with RoPE: refused, saying why; the result stays.
    await page.check('.xa-controls input[type="checkbox"]');
    await page.waitForSelector('#message:not([hidden])');
    assert.match(await page.textContent('#message'), /RoPE and ALiBi measure distances within one sentence/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
  // A link made before these fields existed: none of them on.
  const old = await harness.open('#preset=journey&v=1&mask=none&lang=zh-CN');
  try {
    assert.ok(!(await old.page.isChecked('#alibi')));
    assert.ok(await old.page.isChecked('input[name="positional"][value="none"]'));
    assert.doesNotMatch(await old.page.evaluate(() => location.hash), /alibi|pos=|tile|kvt|model/);
    assert.deepEqual(old.errors, []);
  } finally {
    await old.close();
  }
  // The panels hidden from the link, the rest of the page as it was.
  const hidden = await harness.open('#flashView_hide=1&kvView_hide=1&ropeView_hide=1');
  try {
    for (const id of ['flash-view', 'kv-view', 'rope-view'])
      assert.equal(await hidden.page.$eval(`#${id}`, (el) => getComputedStyle(el).display), 'none', id);
    await openView(hidden.page, 'heads');
    assert.ok(await hidden.page.isVisible('#head-split'));
    assert.deepEqual(hidden.errors, []);
  } finally {
    await hidden.close();
  }
});

test('a heavy config: the panels wait for a click instead of running the engine again on every change', async () => {
  const hash = '#d=1024&h=4&pos=rope'; // 6 tokens: one run is light, the shift's four are not
  const { page, errors, close } = await harness.open(hash);
  try {
    await toPanel(page, 'rope-view');
    await page.waitForSelector('#rope-view [data-modern-compute]');
    assert.equal(await page.$('#rope-view [data-rope-shift]'), null);
    await page.click('#rope-view [data-modern-compute]');
    await page.waitForSelector('#rope-view [data-rope-shift]');
    assert.ok(Number(await page.getAttribute('[data-rope-shift]', 'data-rope-shift')) < 1e-4);
    // The trace is one run: drawn without asking.
    await toPanel(page, 'flash-view');
    await page.waitForSelector('#flash-view [data-step-buttons="flash"]');
    assert.equal(await page.$('#flash-view [data-modern-compute]'), null);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('tiny tiles count as work: 1 × 1 tiles of 64 tokens and 24 heads wait for a click, and no trace is made before it', async () => {
  const sentence = Array.from({ length: 64 }, (_, t) => `w${t}`).join('+');
  const { page, errors, close } = await harness.open(`#s=${sentence}&d=24&h=24&br=1&bc=1`, {
    ready: 'section.lesson-step:not(.parked) [data-matrix="output"]',
  });
  try {
    await toPanel(page, 'flash-view');
    await page.waitForSelector('#flash-view [data-modern-compute]');
    await whenDrawn(page);
    assert.equal(await page.$('#flash-view [data-step-buttons="flash"]'), null);
    // The gate itself rather than the length of tasks (which moves with the machine's load): the
    // engine made no trace of these tiles.
    assert.deepEqual(
      (await page.evaluate(() => window.attentionPlayground.engineRuns())).filter((key) => key.startsWith('trace|')),
      [],
    );
    // Asked for, the engine says why it cannot (98 304 tiles), and the tile can be changed there.
    await page.click('#flash-view [data-modern-compute]');
    await page.waitForSelector('#flash-br');
    assert.match(await page.textContent('#flash-view'), /the trace would record 98304 tiles \(24 heads of 64 × 64\)/);
    // Larger tiles are light again: the trace is drawn without asking.
    await page.selectOption('#flash-br', '16');
    await page.selectOption('#flash-bc', '16');
    await page.waitForSelector('#flash-view [data-step-buttons="flash"]');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// Each column name of the FlashAttention panel's memory table, with the lines its text takes.
const columnNameLines = (page) =>
  page.$$eval('#flash-view .md-table th[scope="col"]', (ths) =>
    ths.map((th) => {
      const range = document.createRange();
      range.selectNodeContents(th);
      return [th.textContent, new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size];
    }),
  );

test('the memory table at 375 px with a reader’s text at twice the size: names on one line, the table scrolls in its box, which shows it and takes the arrow keys', async () => {
  const { page, errors, close } = await harness.open('#preset=journey');
  try {
    await page.setViewportSize({ width: 375, height: 900 });
    await page.addStyleTag({ content: 'html { font-size: 200%; }' });
    await toPanel(page, 'flash-view');
    const box = page.locator('#flash-view .md-scroll');
    await box.scrollIntoViewIfNeeded();
    assert.ok(await box.evaluate((el) => el.scrollWidth > el.clientWidth), 'the table is wider than its box');
    assert.deepEqual(
      (await columnNameLines(page)).map(([, lines]) => lines),
      [1, 1, 1],
    );
    // Focusable once it overflows (the box's observer says so), named after the table's title.
    await page.waitForSelector('#flash-view .md-scroll[tabindex="0"]');
    assert.equal(await box.getAttribute('aria-label'), 'What each way keeps in memory (one layer)');
    // The sign: shadows at the sides, uncovered where more of the table is hidden.
    assert.match(await box.evaluate((el) => getComputedStyle(el).backgroundImage), /radial-gradient.*radial-gradient/);
    await panelShot(page, '#flash-view .md-memory', shot('modern-flash-memory-scroll-en-375.png'), { keep: true });
    await box.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('#flash-view .md-scroll').scrollLeft > 0);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('screenshots: the three panels and the mask step with ALiBi, in English and Chinese, at 1440 and 375 px; nothing wider than the window at 375', async () => {
  for (const [lang, width] of [
    ['en', 1440],
    ['zh-CN', 1440],
    ['en', 375],
    ['zh-CN', 375],
  ]) {
    const { page, errors, close } = await harness.open(`#preset=journey&lang=${lang}&pos=rope&alibi=1&tile=5&kvt=4&rtok=4&model=gpt-2-small`);
    try {
      await page.setViewportSize({ width, height: 900 });
      for (const id of ['flash-view', 'kv-view', 'rope-view']) {
        await toPanel(page, id);
        await panelShot(page, `#${id}`, shot(`modern-${id.replace('-view', '')}-${lang}-${width}.png`), { keep: id !== 'flash-view' });
        // A wide matrix scrolls in its own box: the panel is no wider than the window.
        const overflow = await page.$eval(`#${id}`, (el) => el.scrollWidth - el.clientWidth);
        assert.ok(overflow <= 0, `${id} at ${width} px overflows by ${overflow} px`);
      }
      // The memory table's column names ("T = 8192") each on one line.
      assert.deepEqual(await columnNameLines(page), [
        [lang === 'en' ? 'kept' : '保存的内容', 1],
        ['T = 6', 1],
        ['T = 8192', 1],
      ]);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `the page scrolls sideways at ${width} px`);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
});
