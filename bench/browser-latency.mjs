// Browser benchmark (figures only): the time from an input change to the next painted frame, in
// Debian's Chromium driven by Playwright, for T = 8, 32 and 128 tokens. Run after a build:
//   npm run build && node bench/browser-latency.mjs [--repeat N]
//
// Playwright types the sentence into the page's input (a trusted input event, as a person's).
// In the page, a capture listener notes the event's timeStamp; after the page's handlers ran (the
// engine and the DOM update are synchronous), a requestAnimationFrame callback and a task posted
// from it mark the end of the frame that shows the result. Headless Chromium without a GPU, on a
// shared 2-core machine: read the medians, not single samples.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { baseUrl, dist, launchChromium, serveStatic } from '../tests/browser/harness.mjs';

const repeatArg = process.argv.indexOf('--repeat');
const REPEAT = repeatArg > 0 ? Number(process.argv[repeatArg + 1]) : 15;
const SIZES = [8, 32, 128];

if (!existsSync(path.join(dist, 'index.html'))) {
  console.error('dist/index.html is missing: run `npm run build` first.');
  process.exit(1);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const server = await serveStatic(dist);
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(`${baseUrl(server)}index.html`);
await page.waitForSelector('td[data-matrix="output"]');
await page.evaluate(() => {
  window.__latency = [];
  document.addEventListener(
    'input',
    (event) => {
      const start = event.timeStamp;
      requestAnimationFrame(() => setTimeout(() => window.__latency.push(performance.now() - start)));
    },
    { capture: true },
  );
});

console.log(`input change → next painted frame, median of ${REPEAT} (Chromium ${browser.version()}, headless)`);
const rows = [];
for (const T of SIZES) {
  const sentences = [0, 1].map((variant) => Array.from({ length: T }, (_, t) => `w${(t * 7 + variant) % 50}`).join(' '));
  await page.evaluate(() => {
    window.__latency = [];
  });
  for (let n = 0; n < REPEAT + 2; ++n) {
    await page.fill('#sentence', sentences[n % 2]);
    await page.waitForFunction((count) => window.__latency.length >= count, n + 1);
  }
  const samples = (await page.evaluate(() => window.__latency)).slice(2); // the first two warm up
  rows.push({ T, 'median ms': median(samples).toFixed(1), 'min ms': Math.min(...samples).toFixed(1), 'max ms': Math.max(...samples).toFixed(1) });
}
console.table(rows);
await browser.close();
server.close();
