// How long the page's main-thread tasks are when it opens the largest hostile links
// (hostile-links.mjs: 2 MB of garbage, 2 MB of valid-looking fields, compression bombs in every
// compressible field, huge token lists). Figures, not a test. After `npx vite build`:
//   node bench/browser/measure-hostile-links.mjs          (ONLY='garbage,16 KB' for some of them)
// Each link is opened in a fresh page with a 'longtask' observer installed before the page's
// scripts; figures from navigation until the page has been quiet for 1.5 s, then one character
// is typed into the sentence (the page must still answer). Headless Chromium without a GPU, on
// a shared machine: read the figures as upper bounds. TRACE=1: what each task over 50 ms of the
// opening was made of (long-task-trace.mjs; read names from `npx vite build --minify false`).
// Beside each, "bare" is the same link on a page with no script at all: what Chromium itself
// costs to open an address that long, a floor under the page's figure.
import os from 'node:os';
import { baseUrl, dist, launchChromium, serveStatic } from '../../tests/browser/harness.mjs';
import { hostileLinks } from '../../tests/browser/hostile-links.mjs';
import { describe, observeFromTheStart, settle, start } from './long-task-observer.mjs';
import { startTrace } from './long-task-trace.mjs';

const server = await serveStatic(dist);
const browser = await launchChromium();
const address = `${baseUrl(server)}index.html`;
const only = process.env.ONLY?.split(',');
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${os.cpus().length} CPUs`,
);

// First the page without a link: what its own start costs, beside which to read the others.
for (const [name, link] of Object.entries({ 'no link (the page as it starts)': '', ...hostileLinks(address) })) {
  if (only && !only.some((word) => name.includes(word))) continue;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await observeFromTheStart(context);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const stop = process.env.TRACE ? await startTrace(page) : null;
  const t0 = Date.now();
  await page.goto(`${address}${link}`, { timeout: 120000 });
  await page.waitForSelector('#results [data-matrix], #results canvas, #message:not([hidden])', { state: 'attached', timeout: 120000 });
  const opened = await settle(page);
  const trace = stop ? await stop() : [];
  const notice = await page.evaluate(() => {
    const items = [...document.querySelectorAll('#share-notice li')].map((li) => li.textContent);
    const message = document.querySelector('#message');
    return { count: items.length, first: items[0] ?? '', message: message.hidden ? '' : message.textContent };
  });
  console.log(`\n${name} (${link.length} characters): page loaded and quiet in ${Date.now() - t0} ms`);
  console.log(`  open   ${describe(opened)}`);
  if (trace.length) console.log(trace.join('\n'));
  console.log(`  says   ${notice.count} item(s): ${notice.first.slice(0, 110)}${notice.message ? ` | ${notice.message.slice(0, 80)}` : ''}`);
  await start(page);
  await page.focus('#sentence');
  await page.keyboard.press('End');
  await page.keyboard.type('z');
  console.log(`  type   ${describe(await settle(page))}`);
  if (errors.length) console.log('  page errors:', errors.slice(0, 3));
  await context.close();
  console.log(`  bare   ${describe(await openBare(link))}`);
}

async function openBare(link) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await observeFromTheStart(context);
  await context.route(`${baseUrl(server)}bare.html`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><meta charset="utf-8"><p>bare</p>' }),
  );
  const page = await context.newPage();
  await page.goto(`${baseUrl(server)}bare.html${link}`, { timeout: 120000 });
  const opened = await settle(page);
  await context.close();
  return opened;
}
await browser.close();
server.close();
