// The page in a real browser (Chromium through playwright-core): the course's worked example is
// reproduced from the DOM, typing recomputes, bad input keeps the last result, Chinese works.
// Needs the built site: `npm run build` (or the wasm build and `npx vite build`) writes dist/.
// Screenshots go to tests/browser/screenshots/ (not committed); look at them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, screenshotDrawn, serveStatic, openSettings, saveScreenshot } from './harness.mjs';
import { lessonRow } from './heads-harness.mjs';

import { COMPILE_HINT } from '../../tools/compile-hints.mjs';
import { parseCell } from '../../web/src/render/format.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(process.env.PLAYGROUND_DIST ?? path.resolve(here, '../../dist'));
const screenshots = path.join(here, 'screenshots');

let server;
let browser;
let base;

before(async () => {
  if (!existsSync(path.join(dist, 'index.html'))) {
    throw new Error('dist/index.html is missing: build the site first (`npm run build`, or `npm run build:wasm && npx vite build`).');
  }
  mkdirSync(screenshots, { recursive: true });
  server = await serveStatic(dist);
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

// A fresh page at 1280 px that records every page error and console error.
// `withoutSimd`: the page is told that WebAssembly SIMD is missing (as in Safari before 16.4).
async function open(hash = '', { withoutSimd = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  if (withoutSimd) {
    // Feature detection validates a tiny SIMD module; make every validation fail.
    await page.addInitScript(() => {
      WebAssembly.validate = () => false;
    });
  }
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  await page.goto(`${base}index.html${hash}`);
  await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="output"]', { state: 'attached' }); // (a link may open another view)
  await openSettings(page);
  return { page, errors, close: () => context.close() };
}

const cellSelector = (matrix, head, row) =>
  `section.lesson-step:not(.parked) td[data-matrix="${matrix}"]${head === null ? ':not([data-head])' : `[data-head="${head}"]`}[data-row="${row}"]`;

// Compares a printed row with the expected numbers to 3 decimals.
async function assertRow(page, matrix, head, row, expected) {
  const texts = await lessonRow(page, matrix, head, row);
  assert.deepEqual(
    texts.map((text) => parseCell(text).toFixed(3)),
    expected.map((value) => Number(value).toFixed(3)),
    `${matrix} head ${head} row ${row + 1}: ${texts.join(' ')}`,
  );
}

const count = (page, selector) => page.$$eval(selector, (nodes) => nodes.length);

// tools/compile-hints.mjs: the page's script asks V8 to compile it whole as it loads (the first
// time a reader does an interaction is then not slowed by compiling its code).
test("the page's entry script starts with V8's compile hint", () => {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entry = /<script\b[^>]*type="module"[^>]* src="\.\/(assets\/index-[^"]+\.js)"/.exec(html);
  assert.ok(entry, 'index.html loads its entry script from assets/');
  // async (its own task) and render-blocking (no frame before it filled in the texts): vite.config.js
  assert.match(entry[0], /\basync\b/);
  assert.match(entry[0], /\bblocking="render"/);
  assert.ok(readFileSync(path.join(dist, entry[1]), 'utf8').startsWith(COMPILE_HINT));
});

test('#preset=journey reproduces the worked example of the course', async () => {
  const { page, errors, close } = await open('#preset=journey');
  try {
    // Scores row 1 (before the mask), weights rows 2 and 6, context rows 2 and 6.
    await assertRow(page, 'scores', 0, 0, [0.577, 0.551, 0.544, 0.274, 0.264, 0.364]);
    await assertRow(page, 'weights', 0, 1, [0.423, 0.577, 0, 0, 0, 0]);
    await assertRow(page, 'weights', 0, 5, [0.151, 0.197, 0.194, 0.153, 0.124, 0.181]);
    await assertRow(page, 'context', 0, 1, [0.499, 0.566, 0.757]);
    await assertRow(page, 'context', 0, 5, [0.422, 0.623, 0.551]);
    // Row 1's output equals its input (identity weights, it only sees itself).
    await assertRow(page, 'context', 0, 0, [0.43, 0.15, 0.89]);
    await assertRow(page, 'x', null, 0, [0.43, 0.15, 0.89]);

    // The masked scores: the first row keeps its own score, the rest is −∞ and looks masked.
    assert.deepEqual(await lessonRow(page, 'masked', 0, 0), ['0.577', '−∞', '−∞', '−∞', '−∞', '−∞']);
    const above = await page.$$eval('section.lesson-step:not(.parked) td[data-matrix="masked"][data-head="0"]', (cells) =>
      cells
        .filter((cell) => Number(cell.dataset.col) > Number(cell.dataset.row))
        .map((cell) => ({ text: cell.textContent, masked: cell.classList.contains('masked') })),
    );
    assert.equal(above.length, 15);
    for (const cell of above) assert.deepEqual(cell, { text: '−∞', masked: true });
    const below = await page.$$eval('section.lesson-step:not(.parked) td[data-matrix="masked"][data-head="0"]', (cells) =>
      cells.filter((cell) => Number(cell.dataset.col) <= Number(cell.dataset.row)).map((cell) => cell.textContent),
    );
    assert.ok(
      below.every((text) => /^−?\d+\.\d{3}$/.test(text)),
      below.join(' '),
    );

    // Every matrix is labelled with the tokens and carries its cells.
    assert.equal(await count(page, 'section.lesson-step:not(.parked) td[data-matrix="weights"][data-head="0"]'), 36);
    assert.equal(await count(page, 'section.lesson-step:not(.parked) td[data-matrix="output"]'), 18);
    const rowLabels = await page.$$eval('figure[data-matrix-figure="x"] tbody th', (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(rowLabels, ['Your', 'journey', 'starts', 'with', 'one', 'step']);

    // Which SIMD path ran is on the page.
    const engine = await page.textContent('#engine-status');
    assert.match(engine, /WebAssembly/);
    assert.match(engine, /simd128|scalar/);

    await screenshotDrawn(page, path.join(screenshots, 'journey-en.png'), null, { keep: true });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// The preset's note stays where it is once something is changed, saying so (main.js): hiding it
// moved the whole page below it. Back to the preset, it reads as loaded again.
test("a preset's note says when the example was changed, and nothing below it moves", async () => {
  const { page, errors, close } = await open('#preset=journey');
  try {
    const seen = () =>
      page.$eval('#preset-note', (note) =>
        [...note.children]
          .filter((c) => getComputedStyle(c).visibility === 'visible')
          .map((c) => c.textContent)
          .join(''),
      );
    const lessonTop = () => page.$eval('#lesson', (el) => el.getBoundingClientRect().top + window.scrollY);
    const note = 'The six-token example of the course: W_Q = W_K = W_V = W_O = I₃, so Q = K = V = X, and the scores are divided by √3.';
    assert.equal(await seen(), note);
    const top = await lessonTop();
    await page.check('input[name="lesson-mask"][value="none"]');
    await page.waitForFunction(() => !location.hash.startsWith('#preset=journey') || location.hash.includes('&'));
    assert.equal(await seen(), `Changed since it was loaded. As loaded: ${note}`);
    assert.equal(await lessonTop(), top);
    await page.check('input[name="lesson-mask"][value="causal"]');
    await page.waitForFunction((text) => document.querySelector('#preset-note > :not(.off)')?.textContent === text, note);
    assert.equal(await lessonTop(), top);
    // Looking elsewhere changes no number: another step and a selected cell leave the note as loaded.
    await page.click('button.step-chip[data-step="softmax"]');
    await page.click('td[data-matrix="weights"][data-row="1"][data-col="0"]');
    await page.waitForFunction(() => location.hash.includes('cell='));
    assert.equal(await seen(), note);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('typing a new sentence recomputes with the new number of tokens', async () => {
  const { page, errors, close } = await open('#preset=journey');
  try {
    await page.click('#sentence');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('The cat sat', { delay: 15 });
    await page.waitForFunction(
      () => document.querySelectorAll('section.lesson-step:not(.parked) td[data-matrix="weights"][data-head="0"]').length === 9,
    );
    assert.equal(await count(page, 'section.lesson-step:not(.parked) td[data-matrix="x"]'), 9); // 3 tokens × d_model 3
    assert.equal(await count(page, cellSelector('weights', 0, 3)), 0);
    const labels = await page.$$eval('figure[data-matrix-figure="output"] tbody th', (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(labels, ['The', 'cat', 'sat']);

    // A wider model with two heads: heads appear as separate per-head matrices.
    await page.fill('#d-model', '4');
    await page.click('#head-choices button[data-heads="2"]');
    await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="weights"][data-head="1"]');
    assert.equal(await count(page, 'section.lesson-step:not(.parked) td[data-matrix="context"][data-head="1"]'), 6); // 3 × d_k 2
    assert.equal(await count(page, 'section.lesson-step:not(.parked) td[data-matrix="output"]'), 12);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// What the message box follows: the part of the form with the sentence, the row of a control,
// the embeddings, or the form.
const messageFollows = (page) =>
  page.$eval('#message', (m) => {
    const before = m.previousElementSibling;
    if (before?.id === 'controls') return 'the form';
    if (before?.querySelector('#sentence')) return 'the sentence';
    if (before?.querySelector('#embeddings-text')) return 'the embeddings';
    if (before?.querySelector('#heads')) return 'the row of heads';
    return `${before?.tagName}.${before?.className}`;
  });

test('bad input shows a message and keeps the last result', async () => {
  const { page, errors, close } = await open('#preset=journey');
  try {
    const before = await lessonRow(page, 'weights', 0, 5);

    // 2 heads do not divide d_model = 3.
    await page.fill('#heads', '2');
    await page.waitForSelector('#message:not([hidden])');
    assert.match(await page.textContent('#message'), /2 heads do not divide d_model = 3/);
    assert.equal(await page.getAttribute('#heads', 'aria-invalid'), 'true');
    assert.equal(await page.getAttribute('#heads', 'aria-describedby'), 'message');
    // The message stands right under the row of the invalid control, in sight.
    assert.equal(await messageFollows(page), 'the row of heads');
    assert.deepEqual(await lessonRow(page, 'weights', 0, 5), before);
    await page.fill('#heads', '1');
    await page.waitForSelector('#message', { state: 'hidden' });

    // An empty sentence.
    await page.fill('#sentence', '   ');
    await page.waitForSelector('#message:not([hidden])');
    assert.match(await page.textContent('#message'), /at least one token/);
    assert.deepEqual(await lessonRow(page, 'weights', 0, 5), before);
    // More tokens than the engine takes.
    await page.fill('#sentence', 'a '.repeat(1025));
    await page.waitForSelector('#message:not([hidden])');
    assert.match(await page.textContent('#message'), /Too many tokens: 1025\. The engine takes at most 1024\./);
    // Under the sentence and within the window (below the form it was at 985 px of 900).
    assert.equal(await messageFollows(page), 'the sentence');
    assert.ok((await page.$eval('#message', (m) => m.getBoundingClientRect().bottom)) < 900);
    assert.equal(await page.getAttribute('#heads', 'aria-describedby'), null);
    assert.deepEqual(await lessonRow(page, 'weights', 0, 5), before);

    await page.fill('#sentence', 'Your journey starts with one step');
    await page.waitForSelector('#message', { state: 'hidden' });

    // A number that is not one, in the embeddings editor.
    const text = await page.inputValue('#embeddings-text');
    await page.fill('#embeddings-text', text.replace('0.87', 'abc'));
    await page.waitForSelector('#message:not([hidden])');
    assert.match(await page.textContent('#message'), /row 2, entry 2: “abc” is not a finite number/);
    assert.equal(await messageFollows(page), 'the embeddings');
    await page.fill('#embeddings-text', text.replace('0.87', 'NaN'));
    assert.match(await page.textContent('#message'), /“NaN” is not a finite number/);
    assert.deepEqual(await lessonRow(page, 'weights', 0, 5), before);

    // User text is text, never HTML.
    await page.fill('#embeddings-text', text);
    await page.fill('#sentence', '<img src=x onerror="window.hacked=1"> <b>bold</b>');
    // Four tokens: <img, src=x, onerror="window.hacked=1">, <b>bold</b>.
    await page.waitForFunction(() => document.querySelectorAll('section.lesson-step:not(.parked) td[data-matrix="output"]').length === 12);
    const labels = await page.$$eval('figure[data-matrix-figure="x"] tbody th', (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(labels, ['<img', 'src=x', 'onerror="window.hacked=1">', '<b>bold</b>']);
    assert.equal(await count(page, '#results img, #results b, #token-chips b'), 0);
    assert.equal(await page.evaluate(() => window.hacked), undefined);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// A sentence put into the box at once (one input event, as a paste does).
const paste = (page, text) =>
  page.evaluate((value) => {
    const box = document.querySelector('#sentence');
    box.value = value;
    box.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
const chipTexts = (page) => page.$$eval('#token-chips .chip', (chips) => chips.map((chip) => chip.textContent));
const words = (n) => Array.from({ length: n }, (_, i) => `w${i + 1}`);

test('a very long sentence shows its first 32 tokens as chips and how many are left', async () => {
  const { page, errors, close } = await open('#preset=journey');
  try {
    // 2,000 tokens: refused by the engine, and 32 chips and one "… +1968 more" (it was 200 chips).
    await paste(page, words(2000).join(' '));
    await page.waitForSelector('#message:not([hidden])');
    assert.match(await page.textContent('#message'), /Too many tokens: 2000\./);
    const chips = await chipTexts(page);
    assert.equal(chips.length, 33);
    assert.deepEqual(chips.slice(0, 32), words(32));
    assert.equal(chips[32], '… +1968 more');
    assert.equal(await count(page, '#token-chips .chip.more'), 1);
    assert.match(await page.textContent('#token-count'), /T = 2000/);
    // The last chip shows inside the chips' box (two lines high) without scrolling it.
    const [box, last] = await page.$$eval('.tokens, #token-chips .chip.more', (nodes) => nodes.map((n) => n.getBoundingClientRect().bottom));
    assert.ok(last <= box, `the "more" chip ends at ${last}, below the box (${box})`);
    await saveScreenshot(page, { path: path.join(screenshots, 'long-sentence-en.png') });
    await page.click('button[data-lang="zh-CN"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert.equal((await chipTexts(page))[32], '… 另有 1968 个');
    await saveScreenshot(page, { path: path.join(screenshots, 'long-sentence-zh-CN.png') });
    await page.click('button[data-lang="en"]');

    // One past the cap and at it. The chips follow the sentence before it is validated, so these
    // are checked while 2 heads (of d_model = 3) keep the lesson from computing: each sentence is
    // then only chips, not a new result drawn in slices (lesson/view.js).
    await page.fill('#heads', '2');
    await page.waitForSelector('#message:not([hidden])');
    await paste(page, words(33).join(' '));
    assert.deepEqual(await chipTexts(page), [...words(32), '… +1 more']);
    await paste(page, words(32).join(' '));
    assert.deepEqual(await chipTexts(page), words(32));
    assert.match(await page.textContent('#message'), /2 heads do not divide d_model = 3/);

    // A short sentence shows every token, and no "more" chip.
    await paste(page, 'The cat sat');
    await page.fill('#heads', '1');
    await page.waitForFunction(
      () => document.querySelectorAll('section.lesson-step:not(.parked) td[data-matrix="weights"][data-head="0"]').length === 9,
    );
    assert.deepEqual(await chipTexts(page), ['The', 'cat', 'sat']);
    assert.equal(await count(page, '#token-chips .chip.more'), 0);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('hand-edited embeddings start from the per-token vectors and follow the sentence', async () => {
  const { page, errors, close } = await open();
  try {
    const xRow = () => lessonRow(page, 'x', null, 1);
    const before = await xRow();
    await page.check('input[name="embeddings"][value="edit"]');
    await page.waitForSelector('#embeddings-editor:not([hidden])');
    const lines = (await page.inputValue('#embeddings-text')).split('\n');
    assert.equal(lines.length, 6);
    assert.equal(lines[1].split(' ').length, 6);
    assert.deepEqual(await xRow(), before); // the same vectors, now as numbers to edit
    assert.equal(await page.isHidden('#message'), true);

    // Change one number: X changes there and nowhere else.
    const edited = lines.map((line, i) => (i === 1 ? line.replace(/^\S+/, '2.5') : line)).join('\n');
    await page.fill('#embeddings-text', edited);
    await page.waitForFunction(
      () => document.querySelector('section.lesson-step:not(.parked) td[data-matrix="x"][data-row="1"][data-col="0"]').textContent === '2.500',
    );
    assert.deepEqual((await xRow()).slice(1), before.slice(1));

    // Delete the first word: "journey" keeps its edited row, now in row 0.
    await page.fill('#sentence', 'journey starts with one step');
    await page.waitForFunction(() => document.querySelectorAll('section.lesson-step:not(.parked) td[data-matrix="x"]').length === 30);
    assert.equal(await page.textContent('section.lesson-step:not(.parked) td[data-matrix="x"][data-row="0"][data-col="0"]'), '2.500');
    assert.equal((await page.inputValue('#embeddings-text')).split('\n').length, 5);
    await page.waitForFunction(() => /x=2\.5,/.test(location.hash)); // written once typing pauses
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the default page shows multi-head attention with random weights', async () => {
  const { page, errors, close } = await open();
  try {
    // Every per-head step shows one article per head (the softmax step as an example).
    assert.equal(await count(page, 'section[data-step="softmax"] article.head'), 2);
    assert.equal(await count(page, 'section.lesson-step:not(.parked) td[data-matrix="x"]'), 36); // 6 tokens × d_model 6
    assert.equal(await count(page, 'section.lesson-step:not(.parked) td[data-matrix="scores"][data-head="1"]'), 36);
    await screenshotDrawn(page, path.join(screenshots, 'default-en.png'), null, { keep: true });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('without WebAssembly SIMD the scalar build runs and the page says so', async () => {
  const { page, errors, close } = await open('#preset=journey', { withoutSimd: true });
  try {
    assert.match(await page.textContent('#engine-status'), /lacks WebAssembly SIMD/);
    assert.equal(await page.getAttribute('#engine-status', 'data-build'), 'scalar');
    await assertRow(page, 'weights', 0, 5, [0.151, 0.197, 0.194, 0.153, 0.124, 0.181]);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the page switches to Chinese', async () => {
  const { page, errors, close } = await open('#preset=journey');
  try {
    await page.click('button[data-lang="zh-CN"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert.equal(await page.textContent('h1'), '注意力机制演练场');
    assert.match(await page.textContent('#engine-status'), /计算引擎/);
    assert.match(await page.textContent('#results'), /注意力权重/);
    assert.match(page.url(), /lang=zh-CN/);
    // The numbers stay.
    await assertRow(page, 'weights', 0, 1, [0.423, 0.577, 0, 0, 0, 0]);
    // Messages are translated too.
    await page.fill('#heads', '2');
    await page.waitForSelector('#message:not([hidden])');
    assert.match(await page.textContent('#message'), /个头不能整除/);
    await page.fill('#heads', '1');
    await page.waitForSelector('#message', { state: 'hidden' });
    // Without a CJK font the screenshot would show boxes (Debian: fonts-noto-cjk).
    assert.ok(await page.evaluate(() => document.fonts.check('16px "Noto Sans CJK SC"', '注意力')), 'no CJK font: install fonts-noto-cjk');
    await screenshotDrawn(page, path.join(screenshots, 'journey-zh-CN.png'));
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('on a phone and in a narrow frame the page does not scroll sideways', async () => {
  const { page, errors, close } = await open('#preset=journey');
  try {
    // Every part drawn as if on screen (the panels under the lesson are skipped while off
    // screen, and a skipped part cannot stick out): then nothing may be wider than the window;
    // wide tables and formulas scroll inside their own boxes.
    await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
    for (const [width, height] of [
      [390, 844],
      [768, 1024],
    ]) {
      await page.setViewportSize({ width, height });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const wide = await page.evaluate(() => {
        const out = [];
        for (const el of document.querySelectorAll('main *')) {
          const r = el.getBoundingClientRect();
          const parent = el.parentElement.getBoundingClientRect();
          if (r.width > 0 && r.right > innerWidth + 1 && parent.right <= innerWidth + 1 && !el.closest('.katex-mathml')) {
            out.push(`${el.tagName.toLowerCase()}.${String(el.className.baseVal ?? el.className).split(' ')[0]}`);
          }
        }
        return { scrollWidth: document.documentElement.scrollWidth, sticking: out };
      });
      assert.ok(
        wide.scrollWidth <= width,
        `${width} px: the page is ${wide.scrollWidth} px wide; sticking out of their boxes: ${wide.sticking.join(', ')}`,
      );
      if (width === 390) await saveScreenshot(page, { path: path.join(screenshots, 'phone-390-en.png') });
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the small texts say what is shown: the masked key’s fill, the rate, the link field in Chinese, the embed’s hide list', async () => {
  const { page, errors, close } = await open('#preset=journey&v=1&fill=0');
  try {
    // M and the masked scores both say what a masked entry holds (read as text: the steps off
    // screen are not laid out).
    const keys = () =>
      page.$$eval('figure[data-matrix-figure="mask"] .masked-key, figure[data-matrix-figure="masked"] .masked-key', (all) =>
        all.map((key) => (key.hidden ? '' : key.textContent)),
      );
    assert.deepEqual(await keys(), ['masked (0)', 'masked (0)']);
    const rate = await page.$eval('#perf-panel .perf-facts', (facts) => facts.innerText);
    // (a computation this small is mostly the call itself: its count, and why no rate)
    assert.match(rate, /\d+ FLOP \(no rate: [^)]+\)/);
    assert.doesNotMatch(rate, /0\.000/);
    await page.click('[data-share-open="share-embed"]');
    const offered = await page.$$eval('#share-embed .share-hide label', (labels) => labels.map((label) => label.textContent.trim()));
    assert.ok(offered.includes('performance panel') && offered.includes('head split'), offered.join(', '));
    for (const raw of ['source', 'sourcePadding', 'crossCausal', 'split', 'perf']) assert.ok(!offered.includes(raw), `raw name ${raw}`);
    await page.click('button[data-lang="zh-CN"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert.equal(await page.getAttribute('#share-link', 'aria-label'), '本页的链接');
    assert.deepEqual(await keys(), ['被遮住（0）', '被遮住（0）']);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the token-to-token view says why it draws no line when naive softmax overflowed', async () => {
  // Scores of 400 (X = 20·I, no ÷√d_k): e^400 overflows float32, and ∞/∞ is NaN.
  const overflowing = '#v=1&s=a+b&d=2&h=1&mask=none&scale=0&w=identity&x=20,0;0,20&view=heads';
  const { page, errors, close } = await open(`${overflowing}&naive=1`);
  try {
    await page.locator('#token-view').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => {
      const note = document.querySelector('#token-view p.tv-nan');
      return note && !note.hidden && /NaN/.test(note.textContent);
    });
    await page.goto(`${base}index.html${overflowing}`);
    await page.locator('#token-view').scrollIntoViewIfNeeded();
    await page.waitForSelector('#token-view .tv-stage');
    await page.waitForFunction(() => document.querySelector('#token-view p.tv-nan')?.hidden === true);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('heads that do not divide d_model leave the key/value choices of the result shown', async () => {
  const { page, errors, close } = await open('#v=1&d=6&h=2');
  try {
    const choices = () => page.$$eval('#kv-choices button', (buttons) => buttons.map((b) => b.textContent));
    assert.deepEqual(await choices(), ['1', '2']);
    await page.fill('#heads', '4');
    await page.waitForSelector('#message:not(:empty)');
    assert.deepEqual(await choices(), ['1', '2']);
    await page.fill('#heads', '3');
    await page.waitForFunction(() => [...document.querySelectorAll('#kv-choices button')].map((b) => b.textContent).join() === '1,3');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('an example or the mask workbench link brings what it names into view, under the stepper', async () => {
  const { page, errors, close } = await open();
  try {
    // Where `selector`'s first element stands: in the window, and not under the sticky stepper.
    const inView = (selector) =>
      page.$eval(selector, (el) => {
        const box = el.getBoundingClientRect();
        const stepper = document.querySelector('#stepper').getBoundingClientRect();
        return box.top >= stepper.bottom - 1 && box.top < innerHeight;
      });
    await page.click('#mask-summary button');
    await page.waitForSelector('section.lesson-step[data-step="mask"]:not(.parked) #mask-workbench');
    await page.waitForFunction(() => document.querySelector('#mask-workbench').getBoundingClientRect().top < innerHeight);
    assert.ok(await inView('#mask-workbench'), 'the workbench in view');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.click('[data-share-open="share-gallery"]');
    await page.click('a[data-gallery="self-test-2"]');
    // The answer of question 2: the weights of row 2, selected in the example.
    await page.waitForFunction(
      () =>
        location.hash.includes('selftest') &&
        document.querySelector('section.lesson-step[data-step="softmax"]:not(.parked) figure[data-matrix-figure="weights"]'),
    );
    await page.waitForFunction(() => {
      const box = document.querySelector('section.lesson-step:not(.parked) figure[data-matrix-figure="weights"]').getBoundingClientRect();
      return box.top >= 0 && box.top < innerHeight;
    });
    assert.ok(await inView('section.lesson-step:not(.parked) figure[data-matrix-figure="weights"]'), 'the weights in view');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
