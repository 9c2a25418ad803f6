// How tall each step of the worked example is when embedded (docs/embedding.md): a measurement
// that prints figures, not a test. After `npx vite build`:
//   node bench/browser/measure-embed-heights.mjs            (width 800; WIDTH=… to change it)
// For each step, `#preset=journey&embed=1&step=<step>&prose_hide=1`, then with `inputs_hide=1`
// too, in headless Chromium (harness.mjs): the page's height in CSS pixels once it is idle, what
// an iframe of the course page would be told (the embed's `resize` message).
import { baseUrl, dist, launchChromium, serveStatic, whenDrawn } from '../../tests/browser/harness.mjs';

const STEPS = ['x', 'qkv', 'dots', 'scale', 'mask', 'softmax', 'context', 'concat', 'output'];
const width = Number(process.env.WIDTH ?? 800);
const server = await serveStatic(dist);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  console.log(`step\tprose_hide\t+ inputs_hide   (px, ${width} px wide)`);
  for (const step of STEPS) {
    const heights = [];
    for (const extra of ['', '&inputs_hide=1']) {
      await page.goto('about:blank');
      await page.goto(`${baseUrl(server)}index.html#preset=journey&embed=1&step=${step}&prose_hide=1${extra}`);
      await page.waitForSelector('#results figure [data-matrix]', { state: 'attached' }); // (an input hidden by inputs_hide is first)
      await whenDrawn(page);
      heights.push(await page.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height)));
    }
    console.log(`${step}\t${heights.join('\t')}`);
  }
} finally {
  await browser.close();
  server.close();
}
