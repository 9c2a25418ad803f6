// A student who wants the marks without predicting anything, on every shipped exercise and on one
// a teacher built: changes τ, the mask and the weights, opens every view, shuffles, opens the gallery and every
// export, tries a second time. No asked value (nor an entry equal to it) may appear in the DOM's
// text, attributes, control values or the exports, and no wrong prediction may be marked right.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createAttention } from '../../web/src/engine/attention.js';
import { expectedNumber } from '../../web/src/exercise/answers.js';
import { matrixOf, readExercise } from '../../web/src/exercise/exercise-text.js';
import { readPinned } from '../../web/src/exercise/pinned-state.js';
import { galleryItems } from '../../web/src/share/gallery.js';
import { LIMITS } from '../../web/src/state/schema.js';
import { decodeHash } from '../../web/src/state/url.js';
import { toEngineConfig, validateDraft } from '../../web/src/state/validate.js';
import { baseUrl, dist, launchChromium, linkNow, serveStatic, openView, whenDrawn } from './harness.mjs';

let server;
let browser;
let engine;
before(async () => {
  server = await serveStatic(dist);
  browser = await launchChromium();
  engine = await createAttention();
});
after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

// A teacher's exercise made with the builder, on "The cat sat" (identity weights: Q = K = V = X
// and S is symmetric): s₂₁, a query entry, an output entry and which keys row 2's mask hides.
async function buildExercise(context) {
  const page = await context.newPage();
  await page.goto(`${baseUrl(server)}index.html#preset=cat&v=1&step=all`);
  await page.waitForSelector('#results td[data-matrix="scores"]');
  await whenDrawn(page);
  await openView(page, 'exercises');
  for (const [matrix, row, col, ask] of [
    ['scores', 1, 0, 'entry'],
    ['q', 1, 0, 'entry'],
    ['output', 2, 1, 'entry'],
    ['mask', 1, 0, 'zeros'],
  ]) {
    await page.click(`#results td[data-matrix="${matrix}"][data-row="${row}"][data-col="${col}"]`);
    await page.click(`#builder-ask-${ask}`);
  }
  const link = await page.inputValue('#builder-link');
  await page.close();
  const hash = link.slice(link.indexOf('#'));
  return { hash, ex: decodeHash(hash).state.exercise };
}

const EXERCISES = [
  ...galleryItems()
    .filter((item) => item.id.startsWith('exercise-'))
    .map((item) => ({ id: item.id, hash: item.hash, ex: item.state.exercise })),
  { id: 'built with the builder', build: buildExercise },
];

// The numbers the exercise asks, from its own state's run: its number questions' entries (0 and 1
// are the mask's constants: equal to them says nothing; a pattern asks which keys, not a value).
function askedValues(ex) {
  const { exercise } = readExercise(ex);
  const own = readPinned(exercise.state);
  const config = toEngineConfig(own.state);
  const result = engine.compute(config);
  const dots = engine.compute({ ...config, scale: false });
  const byQuestion = exercise.questions.map((q) => (q.kind === 'number' ? expectedNumber(q, result, dots) : Number.NaN));
  return { exercise, config, byQuestion, ...telling(byQuestion) };
}

// The values worth looking for, and as the page prints them.
function telling(values) {
  const kept = values.filter((v) => Number.isFinite(v) && Math.abs(v) >= 0.0005 && Math.abs(Math.abs(v) - 1) > 1e-6);
  return { values: kept, printed: [...new Set(kept.map((v) => v.toFixed(3)))] };
}

// The page's state now, computed here: what a printed entry of it is.
async function resultNow(page) {
  await linkNow(page); // (the address as the page writes it, now)
  const { draft } = decodeHash(await page.evaluate(() => location.hash));
  const checked = validateDraft(draft, LIMITS);
  const config = toEngineConfig(checked.state);
  return { result: engine.compute(config), dots: engine.compute({ ...config, scale: false }) };
}

// A hit in an entry of a matrix is a leak when that entry equals an asked value (to float32's
// precision), not when another number rounds the same; a hit anywhere else is a leak.
async function leaks(page, { values, printed }) {
  const hits = await leaksIn(page, printed);
  if (!hits.length) return [];
  const { result, dots } = await resultNow(page);
  return hits
    .filter(({ cell }) => {
      if (!cell) return true;
      const name = cell.name === 'dots' ? 'scores' : cell.name;
      const m = matrixOf(cell.name === 'dots' ? dots : result, { name, head: cell.head });
      if (!m || cell.row >= m.rows || cell.col >= m.cols) return true;
      const v = m.data[cell.row * m.cols + cell.col];
      return values.some((w) => Math.abs(v - w) <= 1e-6 * Math.max(1, Math.abs(w)));
    })
    .map((hit) => hit.text);
}

// Where the page shows one of `printed` (3 decimals) in text, an attribute (not a link: it holds
// the exercise's own text) or a control's value.
const leaksIn = (page, printed) =>
  page.evaluate((values) => {
    // (a printed entry: its matrix, head, row and column, as the matrix component marks them)
    const cellOf = (el) => {
      const td = el.closest('[data-matrix], [data-hv]');
      if (!td || td.dataset.row === undefined || td.dataset.col === undefined) return null;
      const head = td.dataset.head === undefined ? null : Number(td.dataset.head);
      // (the head split's tables are named by stage: 'split-context', 'mix-wo', 'detail-weights')
      const name = td.dataset.matrix ?? td.dataset.hv.replace(/^(split|mix|detail)-/, '');
      return { name, head, row: Number(td.dataset.row), col: Number(td.dataset.col) };
    };
    const hit = (text) => values.find((value) => new RegExp(`(^|[^\\d])-?${value.replace('-', '').replace('.', '\\.')}\\d*($|[^\\d])`).test(text));
    const found = [];
    const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let node = walker.currentNode; node; node = walker.nextNode()) {
      if (node.nodeType === 3) {
        const value = hit(node.data);
        const where = node.parentElement;
        const cell = cellOf(where);
        const named = cell ? `${cell.name}${cell.head === null ? '' : `/${cell.head + 1}`} ${cell.row},${cell.col}` : where.className;
        if (value && !where.closest('script, style'))
          found.push({ text: `${value} in “${node.data.slice(0, 40)}” (${named}) of #${where.closest('[id]')?.id}`, cell: cellOf(where) });
        continue;
      }
      for (const a of node.attributes)
        if (a.name !== 'href' && a.name !== 'src' && hit(a.value))
          found.push({ text: `${hit(a.value)} in ${a.name}="${a.value.slice(0, 60)}"`, cell: cellOf(node) });
      if ((node.tagName === 'INPUT' || node.tagName === 'TEXTAREA') && hit(node.value))
        found.push({ text: `${hit(node.value)} in the value of #${node.id}`, cell: null });
    }
    return found;
  }, printed);

async function downloads(page) {
  const texts = [];
  const grab = async (action, what = action) => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.click(`[data-export="${action}"]`)]).catch((error) => {
      throw new Error(`no ${what} export: ${error.message}`);
    });
    texts.push([what, readFileSync(await file.path(), 'utf8')]);
  };
  await page.click('[data-share-open="share-export"]');
  await grab('pytorch');
  await grab('numpy');
  // (the matrices the shipped questions ask from and those equal to them: Chromium stops a page's
  // downloads after a dozen or so)
  for (const id of ['x', 'q', 'scores.1', 'weights.1', 'output']) {
    await page.selectOption('#share-export-matrix', id);
    await whenDrawn(page);
    await grab('json', `${id} JSON`);
  }
  return texts;
}

// A number of an export that is an asked value as far as its digits say (3 or more decimals: the
// inputs' two-decimal numbers are not answers).
const exportLeaks = (texts, values) =>
  texts.flatMap(([what, text]) =>
    [...text.matchAll(/-?\d+\.(\d{3,})/g)]
      .filter(([number, decimals]) => values.some((v) => Math.abs(Number(number) - v) <= 0.5 * 10 ** -decimals.length + 1e-7))
      .map(([number]) => `${number} in the ${what} export`),
  );

for (const entry of EXERCISES) {
  test(`a student gets nothing for free: ${entry.id}`, async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', acceptDownloads: true });
    const { hash, ex } = entry.build ? await entry.build(context) : entry;
    const asked = askedValues(ex);
    const { exercise } = asked;
    assert.equal(exercise.questions.length, entry.build ? 4 : exercise.questions.length);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(`${baseUrl(server)}index.html${hash}`);
      await page.waitForSelector('#exercise .exercise-q');
      await whenDrawn(page);
      const scan = async (move) => assert.deepEqual(await leaks(page, asked), [], `after ${move}`);
      await scan('opening');
      if (exercise.questions.some((q) => q.kind === 'pattern' && q.row.name === 'mask')) {
        // Which keys the mask hides: neither its kind, its summary nor its workbench says it.
        assert.equal(await page.isVisible('#mask-workbench .wb-secret'), true);
        assert.equal(await page.locator('input[name="lesson-mask"]:checked').count(), 0);
        assert.equal(await page.locator('#mask-workbench .wb-notes li').count(), 0);
        assert.match(await page.textContent('#mask-summary'), /waits until/);
      }
      await page.click('[data-share-open="share-gallery"]');
      await whenDrawn(page);
      await scan('opening the gallery');
      assert.deepEqual(exportLeaks(await downloads(page), asked.values), [], 'the exports');

      // Explore: τ, the mask, the weights. The questions stay about the exercise's own state.
      for (const [move, act] of [
        ['τ = 100', () => page.fill('#lesson-tau', '100')],
        ['no mask', () => page.check('input[name="lesson-mask"][value="none"]')],
        ['other weights', () => page.fill('#seed', '7')],
      ]) {
        if (move === 'τ = 100' && !(await page.isVisible('#lesson-tau'))) continue;
        if (move === 'no mask' && !(await page.isVisible('input[name="lesson-mask"][value="none"]'))) continue;
        if (move === 'other weights') {
          await page.click('#settings > summary');
          await page.check('input[name="weights"][value="random"]');
        }
        await act();
        await whenDrawn(page);
        await page.waitForSelector('.exercise-exploring-box:not([hidden])');
        await scan(move);
      }
      await page.click('.exercise-back');
      await whenDrawn(page);
      assert.equal(await page.isHidden('.exercise-exploring-box'), true, 'back at the exercise');
      await scan('coming back');
      // Every view, as a student who looks everywhere would; the shuffle in the heads view.
      for (const view of ['heads', 'modern', 'train', 'exercises', 'perf']) {
        await openView(page, view);
        await scan(`opening the ${view} view`);
        if (view === 'heads' && (await page.isVisible('#positions-view button[data-pe="shuffle"]'))) {
          await page.click('#positions-view button[data-pe="shuffle"]');
          await whenDrawn(page);
          await scan('shuffling');
        }
      }
      await openView(page, 'attention');

      // Wrong predictions: never marked right, a choice gets no second try.
      for (const [index, q] of exercise.questions.entries()) {
        const item = page.locator(`#exercise li[data-q="${index}"]`);
        if (q.kind === 'number') {
          await item.locator('input').fill('12345');
          await item.locator('.exercise-check').click();
          await page.waitForSelector(`#exercise li[data-q="${index}"] .exercise-feedback:not(:empty)`);
          await scan(`a wrong answer to question ${index + 1}`);
        } else if (q.kind === 'choice') {
          const wrong = q.options.findIndex((_, k) => k !== q.answer);
          await item.locator(`input[value="${wrong}"]`).check();
          await item.locator('.exercise-check').click();
          await page.waitForSelector(`#exercise li[data-q="${index}"][data-state="wrong"]`);
          assert.equal(await item.locator('.exercise-check').isDisabled(), true, 'no second try');
        }
      }
      // "Show the answer" ends a question, not right, and its working gives no other one away.
      const open = new Set(exercise.questions.flatMap((q, index) => (q.kind === 'number' ? [index] : [])));
      for (const index of [...open]) {
        await page.click(`#exercise li[data-q="${index}"] .exercise-show`);
        await page.waitForSelector(`#exercise li[data-q="${index}"][data-state="shown"]`);
        await whenDrawn(page);
        open.delete(index);
        const still = telling(asked.byQuestion.filter((_, k) => open.has(k)));
        assert.deepEqual(await leaks(page, still), [], `after showing question ${index + 1}`);
      }
      assert.match(await page.innerText('#exercise .exercise-score'), /· 0 right/);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('a link whose state was edited checks against the exercise’s own state', async () => {
  const worked = EXERCISES.find((e) => e.id === 'exercise-worked');
  const { config } = askedValues(worked.ex);
  const edited = engine.compute({ ...config, temperature: 0.5 }); // (the page as the edited link computes it)
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  try {
    await page.goto(`${baseUrl(server)}index.html${worked.hash.replace('v=1', 'v=1&tau=0.5')}`);
    await page.waitForSelector('#exercise .exercise-q');
    await whenDrawn(page);
    assert.equal(await page.isVisible('.exercise-exploring-box'), true, 'the page says it is not the exercise’s state');
    // a₂₁ of the edited page is not the exercise's: typed, it is wrong.
    const a21 = edited.perHead[0].weights.data[1 * edited.T + 0];
    await page.fill('#exercise-q1', a21.toFixed(3));
    await page.press('#exercise-q1', 'Enter');
    await page.waitForSelector('#exercise li[data-q="1"] .exercise-feedback:not(:empty)');
    assert.equal(await page.getAttribute('#exercise li[data-q="1"]', 'data-state'), 'open');
  } finally {
    await context.close();
  }
});
