// Long tasks while typing into each box of the page at the documented limits: figures, not a
// test. After `npx vite build`:
//   node bench/browser/measure-typing.mjs            (T=1000 D=1024 by default; ONLY=textarea,…)
// The page is opened with T tokens and d_model D, with X edited as numbers ("Edit as numbers"),
// and once the result is on screen, for each box in turn, characters are typed with
// page.keyboard.type (DELAY_MS between keys, 80 by default, as a quick typist), then the page is
// left until it has been quiet for 1.5 s. A 'longtask' observer lists every main-thread task over
// 50 ms: "typing" from the first key to 300 ms after the last, "after" until the worker has
// computed the last change and the page has drawn it and been quiet. Headless Chromium without a GPU, on a shared machine: read them as upper bounds.
// TRACE=1 explains each task over 50 ms from the first key until quiet (long-task-trace.mjs;
// build with `npx vite build --minify false` to read the functions' names).
import os from 'node:os';
import { baseUrl, dist, launchChromium, openSettings, serveStatic } from '../../tests/browser/harness.mjs';
import { describe, observeFromTheStart, settle, start } from './long-task-observer.mjs';
import { startTrace } from './long-task-trace.mjs';

const T = Number(process.env.T ?? 1000);
const D = Number(process.env.D ?? 1024);
const DELAY_MS = Number(process.env.DELAY_MS ?? 80);
const only = process.env.ONLY?.split(',');

const server = await serveStatic(dist);
const browser = await launchChromium();
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${os.cpus().length} CPUs; T = ${T}, d_model = ${D}`,
);

const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
await observeFromTheStart(context);
const page = await context.newPage();
const errors = [];
page.on('pageerror', (error) => errors.push(error.message));
const sentence = Array.from({ length: T }, (_, i) => `w${i + 1}`).join('+');
await page.goto(`${baseUrl(server)}index.html#v=1&s=${sentence}&d=${D}&h=1`);
const shape = (rows, cols) =>
  page.waitForFunction(
    ([r, c]) => [...document.querySelectorAll('#results figure.matrix .shape')].some((s) => s.textContent === `${r} × ${c}`),
    [rows, cols],
    { timeout: 300000 },
  );
await shape(T, D);
await openSettings(page);
await page.check('input[name="embeddings"][value="edit"]');
await page.waitForSelector('#embeddings-editor:not([hidden])');
await settle(page);

// Types `text` into the box `selector` after `prepare` (e.g. placing the caret), and reports.
async function measure(label, selector, prepare, text) {
  if (only && !only.some((word) => label.includes(word))) return;
  if (selector) await page.focus(selector);
  await prepare();
  await page.waitForTimeout(300);
  await start(page);
  const stop = process.env.TRACE ? await startTrace(page) : null;
  await page.keyboard.type(text, { delay: DELAY_MS });
  await page.waitForTimeout(300);
  const typing = await settle(page, { quietMs: 0, maxMs: 0 });
  // (the worker's computation of the last change, then its result drawn)
  await computed();
  const after = await settle(page);
  const trace = stop ? await stop() : [];
  console.log(`\n${label}: typed ${JSON.stringify(text)}`);
  console.log(`  typing ${describe(typing)}`);
  console.log(`  after  ${describe(after)}`);
  if (trace.length) console.log(trace.join('\n'));
}

const selectAll = () => page.keyboard.press('Control+A');
// Until the worker has computed the last change.
const computed = () => page.waitForFunction(() => document.querySelector('#compute-progress').hidden, null, { timeout: 300000, polling: 100 });

// The first number of the first line of the embeddings box, replaced by what is typed.
await measure(
  'embeddings textarea',
  '#embeddings-text',
  async () => {
    await page.evaluate(() => {
      const box = document.querySelector('#embeddings-text');
      box.setSelectionRange(0, box.value.indexOf(' '));
    });
  },
  '0.4321',
);
await measure('sentence', '#sentence', () => page.keyboard.press('End'), ' hello');
await measure('d_model', '#d-model', selectAll, '512');
await measure('d_model back', '#d-model', selectAll, String(D));
await measure('heads', '#heads', selectAll, '16');
// An entry of X in the lesson (its printed corner past T = 48, else a canvas): typing opens its
// editor, Enter commits.
await measure(
  'matrix cell of X',
  null,
  async () => {
    const cell = 'section.lesson-step:not(.parked) td[data-matrix="x"][data-row="0"][data-col="0"]';
    if (await page.$(cell)) return page.click(cell);
    return page.evaluate(() => {
      const grid = document.querySelector('#results section.lesson-step:not(.parked) .cg-body[data-matrix="x"]');
      grid.scrollIntoView({ block: 'center' });
      grid.focus();
    });
  },
  '0.75\n',
);

// The other boxes a reader types into, each found as a reader would (its step, its panel).
const focusBox = async (selector) => {
  await page.locator(selector).scrollIntoViewIfNeeded();
  await page.focus(selector);
};
await measure('seed', null, async () => (await focusBox('#seed'), selectAll()), '7');
await measure(
  'softmax lab, τ',
  null,
  async () => {
    await page.click('button[data-step="softmax"]');
    await focusBox('#lesson-tau');
    await selectAll();
  },
  '0.5',
);
// A mask kind chosen in the workbench (and computed), then its box.
const maskBox = (kind, selector) => async () => {
  await page.click('button[data-step="mask"]');
  await page.check(`input[name="lesson-mask"][value="${kind}"]`);
  await computed();
  await focusBox(selector);
  await selectAll();
};
await measure('mask workbench, window', null, maskBox('window', '#lesson-window'), '12');
await measure('mask workbench, prefix', null, maskBox('prefix', '#lesson-prefix'), '8');
await measure(
  'exercise builder, title',
  null,
  async () => {
    if (!(await page.$eval('#exercise-builder', (details) => details.open))) await page.click('#exercise-builder > summary');
    await focusBox('#builder-title-en');
  },
  'Weights of one row',
);
await measure('train panel, learning rate', null, async () => (await focusBox('#train-lr'), selectAll()), '0.003');
await measure('train panel, sequence', null, () => focusBox('#train-sequence'), ' 3 1 4 1 5');
await measure(
  'cross-attention, source sentence',
  null,
  async () => {
    await page.check('#cross-mode');
    await computed();
    await focusBox('#source-sentence');
    await page.keyboard.press('End');
  },
  ' and more',
);

const x = await page.evaluate(() => document.querySelector('#embeddings-text').value.split('\n')[0].split(' ').slice(0, 3).join(' '));
console.log(`\nthe box's first row starts: ${x}`);
if (errors.length) console.log('page errors:', errors.slice(0, 3));
await browser.close();
server.close();
