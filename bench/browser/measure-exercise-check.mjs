// An exercise on a large page (T = 1 024, d_model = 64, 4 heads): the longest main-thread task while
// it opens, after a wrong Check, and after "Show the answer" (the page draws the revealed entries),
// and the engine runs the Check made on the page. A measurement that
// prints figures, not a test. After `npx vite build`:
//   node bench/browser/measure-exercise-check.mjs                  (ROUNDS=3)
//   COMPARE=/tmp/dist-old node bench/browser/measure-exercise-check.mjs   (another build beside it)
import { encodeHash, presetState } from '../../web/src/state/url.js';
import { baseUrl, dist, launchChromium, serveStatic, whenDrawn } from '../../tests/browser/harness.mjs';
import { observeFromTheStart } from './long-task-observer.mjs';

const rounds = Number(process.env.ROUNDS ?? 3);
const builds = [dist, ...(process.env.COMPARE ? [process.env.COMPARE] : [])];
const sentence = Array.from({ length: 1024 }, (_, i) => `w${i % 97}`).join(' ');
const state = { ...presetState('default'), sentence, dModel: 64, heads: 4 };
// (an `ex` without a state: older builds read it too, and it is about the state it opened with)
const exercise = JSON.stringify({ questions: [{ kind: 'number', cell: 'weights.1.2.1' }] });
const hash = encodeHash({ presetId: 'default', state: { ...state, exercise } });

const longest = (page) =>
  page.evaluate(() => {
    const ms = Math.max(0, ...window.__long.map((task) => task.ms));
    window.__long = [];
    return Math.round(ms);
  });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const browser = await launchChromium();
const figures = builds.map(() => ({ open: [], check: [], shown: [], runs: [] }));
for (let round = 0; round < rounds; round += 1) {
  for (const [k, root] of builds.entries()) {
    const server = await serveStatic(root);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await observeFromTheStart(context);
    const page = await context.newPage();
    await page.goto(`${baseUrl(server)}index.html${hash}`);
    await page.waitForSelector('#exercise .exercise-q', { timeout: 120000 });
    await whenDrawn(page);
    figures[k].open.push(await longest(page));
    const before = await page.evaluate(() => window.attentionPlayground.engineRuns().length);
    await page.fill('#exercise-q0', '0.3');
    await page.click('#exercise li[data-q="0"] .exercise-check');
    await page.waitForSelector('#exercise li[data-q="0"] .exercise-feedback:not(:empty)');
    await whenDrawn(page);
    figures[k].check.push(await longest(page));
    figures[k].runs.push(await page.evaluate((n) => window.attentionPlayground.engineRuns().length - n, before));
    await page.click('#exercise li[data-q="0"] .exercise-show');
    await page.waitForSelector('#exercise li[data-q="0"][data-state="shown"]');
    await whenDrawn(page);
    figures[k].shown.push(await longest(page));
    await context.close();
    await new Promise((resolve) => server.close(resolve));
  }
}
await browser.close();
for (const [k, root] of builds.entries()) {
  const f = figures[k];
  console.log(
    `${root}: longest task at open median ${median(f.open)} ms (${f.open.join(', ')}); after a wrong Check median ${median(f.check)} ms (${f.check.join(', ')}); after "Show the answer" median ${median(f.shown)} ms (${f.shown.join(', ')}); engine runs at Check ${f.runs.join(', ')}`,
  );
}
