// Browser benchmark (figures only): the time the induction default takes to reach 95 % accuracy,
// trained by our wasm build on one core (the page's main thread) in Debian's headless Chromium.
//   node bench/browser-training.mjs [--repeat N]
import { baseUrl, launchChromium, repo, serveStatic } from '../tests/browser/harness.mjs';

const repeatArg = process.argv.indexOf('--repeat');
const REPEAT = repeatArg > 0 ? Number(process.argv[repeatArg + 1]) : 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await serveStatic(repo);
const browser = await launchChromium();
const page = await browser.newPage();
await page.goto(`${baseUrl(server)}bench/browser-training.html`);
await page.waitForFunction(() => window.ready === true);
const runs = [];
for (let n = 0; n < REPEAT; ++n) {
  runs.push(await page.evaluate((options) => window.trainToAccuracy(options), { task: 'induction', accuracy: 0.95, every: 100, maxSteps: 20000 }));
}
console.log(`induction default to 95 % accuracy in Chromium ${browser.version()} (headless, main thread, one core), ${REPEAT} runs:`);
console.table(runs.map((r) => ({ build: r.build, steps: r.steps, accuracy: r.accuracy.toFixed(3), seconds: (r.ms / 1000).toFixed(2) })));
console.log(`median: ${(median(runs.map((r) => r.ms)) / 1000).toFixed(2)} s (target ≤ 20 s)`);
await browser.close();
server.close();
