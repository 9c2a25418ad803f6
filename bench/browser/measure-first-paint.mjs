// When the page is first drawn, beside when its texts are filled in (the page's HTML holds none:
// main.js writes them from web/src/i18n/). A first paint before the texts is a frame of an empty
// page. Figures, not a test; builds side by side, turns alternating:
//   DISTS=/tmp/dist-a,/tmp/dist-b N=5 node bench/browser/measure-first-paint.mjs     (dist/ alone by default)
import { baseUrl, dist, launchChromium, serveStatic } from '../../tests/browser/harness.mjs';

const dists = process.env.DISTS?.split(',') ?? [dist];
const turns = Number(process.env.N ?? 3);
const servers = await Promise.all(dists.map((folder) => serveStatic(folder)));
const browser = await launchChromium();
for (let turn = 0; turn < turns; turn += 1) {
  for (const [k, server] of servers.entries()) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(() => {
      window.__filled = null;
      new MutationObserver(() => {
        if (window.__filled === null && document.querySelector('h1')?.textContent.trim()) window.__filled = performance.now();
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const page = await context.newPage();
    await page.goto(`${baseUrl(server)}index.html`);
    await page.waitForFunction(() => window.__filled !== null && performance.getEntriesByType('paint').length > 0);
    const { paint, filled } = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-paint')[0]?.startTime,
      filled: window.__filled,
    }));
    const verdict = paint < filled ? 'drawn EMPTY first' : 'drawn filled';
    console.log(`${dists[k]}: first paint ${paint.toFixed(0)} ms, texts filled ${filled.toFixed(0)} ms: ${verdict}`);
    await context.close();
  }
}
await browser.close();
for (const server of servers) server.close();
