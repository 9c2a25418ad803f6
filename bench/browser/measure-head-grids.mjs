// How long the head views take to redraw their grids (the head split: Q, K, V per head, the
// concatenation, W_O), for one or more builds side by side: figures, not a test. Each turn opens
// the page with 32 tokens, d_model 16 and 4 heads, scrolls the head views into the window, then
// changes the seed REPEAT times; every User Timing measure 'view:split' (render/draw-pass.js) is kept.
//   DISTS=/tmp/dist-a,/tmp/dist-b N=5 REPEAT=10 node bench/browser/measure-head-grids.mjs
import os from 'node:os';
import { baseUrl, dist, launchChromium, serveStatic, whenDrawn } from '../../tests/browser/harness.mjs';

const dists = process.env.DISTS?.split(',') ?? [dist];
const turns = Number(process.env.N ?? 5);
const repeat = Number(process.env.REPEAT ?? 10);
const sentence = Array.from({ length: 32 }, (_, k) => `w${k}`).join(' ');
const hash = `#s=${encodeURIComponent(sentence)}&d=16&h=4`;
const servers = await Promise.all(dists.map((folder) => serveStatic(folder)));
const browser = await launchChromium();
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${os.cpus().length} CPUs; ${turns} turns of ${repeat} changes`,
);
const samples = dists.map(() => ({ first: [], update: [] }));
for (let turn = 0; turn < turns; turn += 1) {
  for (const [k, server] of servers.entries()) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(() => {
      window.gridMeasures = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (entry.name === 'view:split') window.gridMeasures.push(entry.duration);
      }).observe({ type: 'measure' });
    });
    await page.goto(`${baseUrl(server)}index.html${hash}`);
    await page.waitForSelector('[data-hv]', { timeout: 60000 });
    await page.locator('#head-views').scrollIntoViewIfNeeded();
    await whenDrawn(page);
    await page.click('#settings > summary'); // (the seed is among the settings)
    const before = await page.evaluate(() => window.gridMeasures.length);
    for (let r = 0; r < repeat; r += 1) {
      await page.fill('#seed', String(100 + r));
      await whenDrawn(page);
    }
    const measures = await page.evaluate(() => window.gridMeasures);
    samples[k].first.push(...measures.slice(0, before));
    samples[k].update.push(...measures.slice(before));
    await page.close();
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
for (const [k, folder] of dists.entries()) {
  const { first, update } = samples[k];
  console.log(
    `${folder}: first drawing median ${median(first).toFixed(1)} ms (${first.length}); each change median ${median(update).toFixed(1)} ms (${update.length} draws)`,
  );
}
await browser.close();
for (const server of servers) server.close();
