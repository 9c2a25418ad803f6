// The page's views, as a reader meets them: one tab per view in the header, the address naming the
// view, old links opening where their fields point, the random first screen saying so with a way
// to attention that means something, and the Train worker starting only when its view opens.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { baseUrl, dist, launchChromium, linkNow, openView, saveScreenshot, screenshots, serveStatic, whenDrawn } from './harness.mjs';

let server;
let browser;
before(async () => {
  server = await serveStatic(dist);
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

async function open(hash, { width = 1440, height = 900, locale = 'en-US' } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, locale });
  await context.addInitScript(() => {
    window.trainWorkers = 0;
    const PageWorker = window.Worker;
    window.Worker = class extends PageWorker {
      constructor(url, options) {
        if (/train-worker/.test(String(url))) window.trainWorkers += 1;
        super(url, options);
      }
    };
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && errors.push(`console: ${message.text()}`));
  await page.goto(`${baseUrl(server)}index.html${hash}`);
  await whenDrawn(page);
  return { page, errors, close: () => context.close() };
}

const currentView = (page) => page.getAttribute('#views [aria-current="page"]', 'data-view');
const visible = (page, selectors) => Promise.all(selectors.map((selector) => page.isVisible(selector)));
const PANELS = ['#lesson', '#head-split', '#flash-view', '#train', '#exercise-builder', '#performance'];

test('a tab per view: each shows its own panels, starts at its top, and is named in the address', async () => {
  const { page, errors, close } = await open('');
  try {
    assert.equal(await currentView(page), 'attention');
    assert.deepEqual(await visible(page, PANELS), [true, false, false, false, false, false]);
    assert.equal(await page.evaluate(() => window.trainWorkers), 0, 'no Train worker before its view opens');
    const expected = {
      heads: [false, true, false, false, false, false],
      modern: [false, false, true, false, false, false],
      train: [false, false, false, true, false, false],
      exercises: [true, false, false, false, true, false], // (the builder asks about the lesson below it)
      perf: [false, false, false, false, false, true],
    };
    for (const [view, shown] of Object.entries(expected)) {
      await page.evaluate(() => window.scrollTo(0, 400));
      await openView(page, view);
      assert.equal(await currentView(page), view);
      assert.deepEqual(await visible(page, PANELS), shown, view);
      assert.equal(await page.evaluate(() => scrollY), 0, `${view}: starts at its top`);
      await linkNow(page);
      assert.match(await page.evaluate(() => location.hash), new RegExp(`view=${view}`), view);
      // Not interacting, the page keeps its height (nothing drawn later pushes the reader's place).
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await whenDrawn(page);
      assert.equal(await page.evaluate(() => document.documentElement.scrollHeight), height, `${view}: the height holds`);
    }
    assert.equal(await page.evaluate(() => window.trainWorkers), 1, 'the Train view started its worker');
    assert.match(await page.textContent('#engine-status'), /WebAssembly SIMD/, 'the engine line is in the Speed view');
    // The address reopens the view.
    await openView(page, 'heads');
    await linkNow(page);
    const hash = await page.evaluate(() => location.hash);
    const again = await open(hash);
    assert.equal(await currentView(again.page), 'heads');
    await again.close();
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('an old link opens where its fields point, and the Train panel opens a head in the lesson', async () => {
  for (const [hash, view] of [
    ['#preset=journey', 'attention'],
    ['#v=1&split=maps', 'heads'],
    ['#preset=journey&v=1&tile=4', 'modern'],
    ['#train=previous_ckpt_s40', 'train'],
    ['#v=1&train=previous_ckpt_s40&view=attention', 'attention'],
  ]) {
    const { page, errors, close } = await open(hash);
    try {
      assert.equal(await currentView(page), view, hash);
      assert.deepEqual(errors, [], hash);
    } finally {
      await close();
    }
  }
});

test('random weights say that their pattern means nothing, and one click opens the course’s example', async () => {
  for (const [locale, text] of [
    ['en-US', /Random weights \(seed 0\): this pattern means nothing/],
    ['zh-CN', /随机权重（种子 0）：这个图案没有含义/],
  ]) {
    const { page, errors, close } = await open(locale === 'zh-CN' ? '#lang=zh-CN' : '', { width: 375, height: 812, locale });
    try {
      assert.match(await page.textContent('#overview .overview-random'), text);
      assert.ok(await page.isVisible('#overview .overview-random a[data-gallery="trained-previous"]'));
      await saveScreenshot(page, { path: path.join(screenshots, `views-first-screen-375-${locale}.png`) });
      await page.click('#overview .overview-random a[data-gallery="journey"]');
      await page.waitForFunction(
        () => document.querySelector('#overview td[data-matrix="weights"][data-row="1"][data-col="0"]')?.textContent === '0.423',
      );
      await whenDrawn(page);
      assert.equal(await page.isVisible('#overview .overview-random'), false, 'identity weights: no note');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
});

test('an embed shows the one view its link names, without the header', async () => {
  const { page, errors, close } = await open('#embed=1&view=heads');
  try {
    assert.equal(await page.isVisible('header.top'), false);
    assert.deepEqual(await visible(page, PANELS), [false, true, false, false, false, false]);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
