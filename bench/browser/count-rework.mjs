// Work the lesson redoes for nothing on a change: a figures-only diagnostic, not a test (these were
// checks of lesson.test.mjs; a learner sees none of it, only the time it takes). Prints, per case:
//   measures — figures' places asked of the layout (getBoundingClientRect on a view's element)
//              per change of the mask kind, after a step was shown again (T = 32): the observer
//              knows them, and each ask forced a layout in the middle of the change (was 0);
//   sections — steps' sections taken out of the page or put back during three mask changes, every
//              step seen once first (the neighbours stay parked: was none);
//   highlights — data-hl attributes written by ÷√d_k off and on with a weight selected (the marks
//              stay where they are: was 0);
//   panel    — children of the explanation panel taken out or put back as the pointer moves from
//              an entry to the panel and to another entry (was 0; the fonts' warm-up holder aside).
//   PLAYGROUND_DIST=/tmp/dist-x node bench/browser/count-rework.mjs
import { baseUrl, dist, launchChromium, serveStatic } from '../../tests/browser/harness.mjs';

const server = await serveStatic(dist);
const browser = await launchChromium();
const base = `${baseUrl(server)}index.html`;
const tokens = Array.from({ length: 32 }, (_, i) => `t${i + 1}`).join('+');
const frames = (page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)))));
const idle = (page) => page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2000 })));

async function open(hash, init = null) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  await page.goto(base + hash);
  await page.waitForSelector('#results section:not(.parked) [data-matrix]');
  return { page, close: () => context.close() };
}

// measures
{
  const countMeasures = () => {
    const measure = Element.prototype.getBoundingClientRect;
    window.figureMeasures = 0;
    Element.prototype.getBoundingClientRect = function counted() {
      if (this.lessonView) window.figureMeasures += 1;
      return measure.call(this);
    };
  };
  const { page, close } = await open(`#v=1&s=${tokens}&d=8&h=2&step=mask`, countMeasures);
  for (const step of ['softmax', 'mask']) {
    await page.click(`button[data-step="${step}"]`);
    await frames(page);
  }
  const counts = [];
  for (const kind of ['none', 'prefix', 'causal', 'window']) {
    const before = await page.evaluate(() => window.figureMeasures);
    await page.locator(`#mask-workbench .wb-kind input[value="${kind}"]`).check();
    await frames(page);
    counts.push(`${kind} ${(await page.evaluate(() => window.figureMeasures)) - before}`);
  }
  console.log(`measures (per mask kind; the first may measure views not reported yet): ${counts.join(', ')}`);
  await close();
}

// sections
{
  const { page, close } = await open(`#v=1&s=${tokens}&d=8&h=2&step=mask`);
  for (const step of ['x', 'qkv', 'dots', 'scale', 'softmax', 'context', 'concat', 'output', 'mask']) {
    await page.click(`button[data-step="${step}"]`);
    await idle(page);
  }
  await page.evaluate(() => {
    window.sectionMoves = [];
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.removedNodes) window.sectionMoves.push(`-${node.dataset?.step}`);
        for (const node of record.addedNodes) window.sectionMoves.push(`+${node.dataset?.step}`);
      }
    }).observe(document.querySelector('#results section.lesson-step').parentNode, { childList: true });
  });
  for (const kind of ['none', 'window', 'causal']) {
    await page.locator(`#mask-workbench .wb-kind input[value="${kind}"]`).check();
    await idle(page);
  }
  const parked = await page.$$eval('#results section.lesson-step.parked', (all) => all.map((s) => s.dataset.step));
  console.log(`sections moved: [${await page.evaluate(() => window.sectionMoves.join(' '))}]; parked: ${parked.join(' ')}`);
  await close();
}

// highlights and panel
{
  const { page, close } = await open('#preset=journey');
  const td = (name, row, col) => `section.lesson-step:not(.parked) td[data-matrix="${name}"][data-head="0"][data-row="${row}"][data-col="${col}"]`;
  await page.click(td('weights', 1, 0));
  await page.click('#lesson-scale');
  await page.evaluate(() => {
    window.hlWrites = 0;
    new MutationObserver((list) => (window.hlWrites += list.length)).observe(document.body, { subtree: true, attributeFilter: ['data-hl'] });
  });
  await page.click('#lesson-scale');
  await page.click('#lesson-scale');
  await frames(page);
  console.log(`highlights written by ÷√d_k off and on: ${await page.evaluate(() => window.hlWrites)}`);
  await page.hover(td('weights', 1, 0));
  await page.evaluate(() => {
    window.panelMoves = [];
    const part = (node) => !node.classList?.contains('explain-warmup');
    new MutationObserver((records) => {
      for (const r of records) {
        const n = [...r.removedNodes].filter(part).length + [...r.addedNodes].filter(part).length;
        if (n) window.panelMoves.push(n);
      }
    }).observe(document.querySelector('#explain'), { childList: true });
  });
  await page.hover('#explain h2');
  await page.hover(td('weights', 2, 1));
  console.log(`explanation panel children moved: ${(await page.evaluate(() => window.panelMoves)).reduce((a, b) => a + b, 0)}`);
  await close();
}

await browser.close();
server.close();
