// What the first load of the bare page costs, for one or more builds side by side (turns alternate
// between them): the requests and bytes until the page says it is drawn, the time to the first
// numbers on screen (the first screen's weight a₁₁), and the workers started. Figures, not a test.
//   node bench/browser/measure-first-load.mjs                                  (dist/, 5 turns)
//   DISTS=/tmp/dist-old,dist N=5 WIDTH=375 node bench/browser/measure-first-load.mjs
import { baseUrl, dist, launchChromium, serveStatic, whenDrawn } from '../../tests/browser/harness.mjs';

const dists = process.env.DISTS?.split(',') ?? [dist];
const turns = Number(process.env.N ?? 5);
const width = Number(process.env.WIDTH ?? 1440);
const servers = await Promise.all(dists.map((folder) => serveStatic(folder)));
const browser = await launchChromium();
const figures = dists.map(() => ({ numbers: [], drawn: [], requests: [], bytes: [], workers: [] }));

for (let turn = 0; turn < turns; turn += 1) {
  for (const [k, server] of servers.entries()) {
    const context = await browser.newContext({ viewport: { width, height: width < 600 ? 812 : 900 } });
    await context.addInitScript(() => {
      window.__numbers = null;
      new MutationObserver(() => {
        if (window.__numbers === null && document.querySelector('#overview td[data-matrix="weights"]')?.textContent.trim()) {
          window.__numbers = performance.now();
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    let bytes = 0;
    let requests = 0;
    let workers = 0;
    cdp.on('Network.loadingFinished', (event) => {
      bytes += event.encodedDataLength;
      requests += 1;
    });
    page.on('worker', () => (workers += 1));
    await page.goto(`${baseUrl(server)}index.html`);
    await whenDrawn(page);
    const { numbers, drawn } = await page.evaluate(() => ({ numbers: window.__numbers, drawn: performance.now() }));
    const f = figures[k];
    f.numbers.push(numbers);
    f.drawn.push(drawn);
    f.requests.push(requests);
    f.bytes.push(bytes);
    f.workers.push(workers);
    await context.close();
  }
}
await browser.close();
for (const server of servers) server.close();

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [k, folder] of dists.entries()) {
  const f = figures[k];
  console.log(
    `${folder} at ${width} px: first numbers ${Math.round(median(f.numbers))} ms, drawn ${Math.round(median(f.drawn))} ms (medians of ${turns}); ` +
      `${median(f.requests)} requests, ${(median(f.bytes) / 1024).toFixed(0)} KiB over the wire (served uncompressed), workers started: ${f.workers.join(', ')}`,
  );
}
