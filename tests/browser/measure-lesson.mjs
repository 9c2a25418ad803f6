// How long the lesson's interactions take to reach the screen for T = 32: a measurement that
// prints figures, not a test. Run it on a quiet machine, after `npx vite build`:
//   node tests/browser/measure-lesson.mjs
//
// Each interaction is done REPEAT times inside the page, with the Performance API:
//   handlers  performance.now() around dispatching the event: every handler of the page runs
//             synchronously (validation, the engine, the DOM updates);
//   + layout  after reading a layout property, which forces the style and layout the change
//             needs (what the browser does before painting the next frame);
//   frame     until a task posted from the next requestAnimationFrame callback runs: the frame
//             that shows the change has been produced (paint included, roughly);
//   lesson    the lesson's own share of the handlers: its User Timing measure 'lesson:render'
//             (web/src/lesson/index.js), i.e. the extra engine runs and redrawing the lesson,
//             without validation, the main engine run and the other views of the page.
// The events are the ones a reader's input fires (click, input, change, keydown, mouseover),
// dispatched by script so that Playwright's own work (scrolling, actionability checks) is not
// counted. Headless Chromium without a GPU paints in software: real browsers paint faster.
import { chromium } from 'playwright-core';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(process.env.PLAYGROUND_DIST ?? path.resolve(here, '../../dist'));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.woff2': 'font/woff2' };
const REPEAT = Number(process.env.REPEAT ?? 21);

const server = http.createServer(async (request, response) => {
  const file = path.join(dist, decodeURIComponent(new URL(request.url, 'http://x').pathname));
  try {
    const body = await readFile(file);
    response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    response.end(body);
  } catch {
    response.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/index.html`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

// In the page: run `act(i)` REPEAT times, each after the previous frame is out; `prep(i)` runs
// before each and is not measured (what a real pointer does first, e.g. focus on mousedown).
async function measure(page, label, act, prep = '') {
  const samples = await page.evaluate(
    async ({ source, prepSource, repeat }) => {
      const act = new Function('i', source); // the interaction, as the body of a function
      const prepare = new Function('i', prepSource);
      const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      const out = [];
      let lesson = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntriesByName('lesson:render')) lesson += entry.duration;
      }).observe({ type: 'measure' });
      await frame();
      for (let i = 0; i < repeat; i += 1) {
        prepare(i);
        await frame();
        lesson = 0;
        const t0 = performance.now();
        act(i);
        const t1 = performance.now();
        void document.documentElement.getBoundingClientRect().height; // style + layout
        const t2 = performance.now();
        await frame();
        const t3 = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 0)); // let the observer report
        out.push({ handlers: t1 - t0, layout: t2 - t0, frame: t3 - t0, lesson });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return out;
    },
    { source: act, prepSource: prep, repeat: REPEAT },
  );
  const stat = (key) => {
    const values = samples.map((s) => s[key]).sort((a, b) => a - b);
    return `${values[Math.floor(values.length / 2)].toFixed(1)} / ${values[Math.floor(values.length * 0.9)].toFixed(1)}`;
  };
  console.log(`${label.padEnd(58)} ${stat('lesson').padStart(12)} ${stat('handlers').padStart(13)} ${stat('layout').padStart(13)} ${stat('frame').padStart(13)}`);
}

// Small helpers the interactions use in the page.
const HELPERS = `
  const $ = (s) => document.querySelector(s);
  const fire = (node, type, init = {}) => node.dispatchEvent(new (type.startsWith('key') ? KeyboardEvent : type.startsWith('mouse') || type === 'click' ? MouseEvent : Event)(type, { bubbles: true, cancelable: true, ...init }));
`;

const tokens = Array.from({ length: 32 }, (_, i) => `t${i + 1}`).join('+');
const INTERACTIONS = [
  ['hover a weight: explanation + highlights', `fire($('td[data-matrix="weights"][data-head="0"][data-row="' + (4 + i % 20) + '"][data-col="2"]'), 'mouseover');`],
  ['select a weight (focus): state, URL, lab row', `$('td[data-matrix="weights"][data-head="' + (i % 2) + '"][data-row="' + (3 + i % 25) + '"][data-col="1"]').focus();`],
  ['temperature slider: recompute', `const r = $('#lesson-tau-range'); r.value = String(-0.6 + 0.05 * i); fire(r, 'input');`],
  ['naive softmax on/off: recompute + stable run', `const b = $('#lesson-naive'); b.checked = !b.checked; fire(b, 'change');`],
  ['toggle a cell of M (custom mask): recompute', `fire($('td[data-matrix="mask"][data-row="' + (2 + i % 28) + '"][data-col="' + (3 + i % 28) + '"]'), 'click');`,
    `$('td[data-matrix="mask"][data-row="' + (2 + i % 28) + '"][data-col="' + (3 + i % 28) + '"]').focus();`],
  ['fill −∞ / −1e9 / 0: recompute', `const f = $('input[name="lesson-fill"][value="' + ['-1e9', '0', '-inf'][i % 3] + '"]'); f.checked = true; fire(f, 'change');`],
  ['edit a cell of W_Q, Enter: recompute', `fire($('td[data-matrix="wq"][data-row="' + (i % 8) + '"][data-col="0"] input'), 'keydown', { key: 'Enter' });`,
    `const td = $('td[data-matrix="wq"][data-row="' + (i % 8) + '"][data-col="0"]'); td.focus(); fire(td, 'keydown', { key: 'Enter' }); td.querySelector('input').value = String((i % 9) / 10);`],
  ['edit a cell of X, Enter: recompute (via the form)', `fire($('td[data-matrix="x"][data-row="' + (i % 30) + '"][data-col="1"] input'), 'keydown', { key: 'Enter' });`,
    `const td = $('td[data-matrix="x"][data-row="' + (i % 30) + '"][data-col="1"]'); td.focus(); fire(td, 'keydown', { key: 'Enter' }); td.querySelector('input').value = String((i % 9) / 10);`],
];
const STEPPER = ['stepper: next / previous', `fire($(i % 2 ? '#step-prev' : '#step-next'), 'click');`];

const pages = [
  ['T = 32, d_model = 8, 2 heads, one step at a time', `#v=1&s=${tokens}&d=8&h=2&step=softmax`, true],
  ['T = 32, d_model = 8, 2 heads, all steps', `#v=1&s=${tokens}&d=8&h=2`, false],
  ['T = 32, d_model = 16, 4 heads, all steps', `#v=1&s=${tokens}&d=16&h=4`, false],
];

console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs; ${REPEAT} runs each`);
for (const [title, hash, single] of pages) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}${hash}`);
  await page.waitForSelector('#results td[data-matrix]');
  console.log(`\n${title}`);
  console.log(`${'interaction (ms: median / 90th percentile)'.padEnd(58)} ${'lesson'.padStart(12)} ${'handlers'.padStart(13)} ${'+ layout'.padStart(13)} ${'frame'.padStart(13)}`);
  for (const [label, act, prep = ''] of single ? [STEPPER, ...INTERACTIONS] : INTERACTIONS) {
    // One step at a time: show the step the interaction works on.
    if (single) {
      const step = /lesson-tau|lesson-naive|weights/.test(act) ? 'softmax' : /mask|fill/.test(act) ? 'mask' : /wq/.test(act) ? 'qkv' : /"x"/.test(act) ? 'x' : 'softmax';
      await page.click(`button[data-step="${step}"]`);
    }
    const cells = await page.$$eval('#results td[data-matrix]', (n) => n.length);
    await measure(page, `${label} [${cells} cells]`, HELPERS + act, HELPERS + prep);
  }
  await context.close();
}
await browser.close();
server.close();
