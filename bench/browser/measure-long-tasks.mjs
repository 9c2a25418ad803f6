// Long tasks on the page for large inputs (issue 6: "never blocks the main thread for more than
// 50 ms"): a measurement that prints figures, not a test. After `npx vite build`:
//   node bench/browser/measure-long-tasks.mjs            (T = 512, 1024 and 2000; or T=256,512 …)
//
// For each T, in headless Chromium (harness.mjs), from the page at its small default input:
//   paste     the sentence of T tokens is put into the sentence box at once (one input event,
//             like a paste), until the result is drawn and every deferred view has drawn;
//   type      then one more character is typed at the end (tokenize, validate, compute again);
//   step      the lesson's "next step" button is clicked (a large result redrawn). From the
//             first step ("all") the page gets shorter and the head views under the lesson come
//             on screen: the first time, what is in view of them gets its first style and layout
//             in the frame after the click's. (Before each part of the head split was skipped
//             on its own, heads.css, that was the whole panel, about 800 elements: a task near
//             50 ms at any T. TRACE=1 TRACE_MS=20 shows such a task as UpdateLifecycle.)
// Every PerformanceObserver 'longtask' entry (main-thread task > 50 ms) from the input until the
// page is quiet (no task for QUIET_MS after the result is on screen) is listed with its duration.
// Headless Chromium without a GPU, on a shared machine: read the figures as upper bounds.
// TRACE=1 also prints what each long task was made of (long-task-trace.mjs; the tracing itself
// slows the page a little).
import os from 'node:os';
import { baseUrl, launchChromium, serveStatic, dist } from '../../tests/browser/harness.mjs';
import { startTrace } from './long-task-trace.mjs';

const SIZES = (process.env.T ?? '512,1024,2000').split(',').map(Number);
const QUIET_MS = 1500;

const server = await serveStatic(dist);
const browser = await launchChromium();
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${os.cpus().length} CPUs`,
);

// In the page: start collecting long tasks (returns nothing; read with `collected()`).
const START = () => {
  window.__long = [];
  window.__observer?.disconnect();
  window.__observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push({ start: e.startTime, ms: e.duration });
  });
  window.__observer.observe({ type: 'longtask' });
  window.__t0 = performance.now();
};

// Waits until the lesson shows a result of T rows (or the page says why it cannot: e.g. more
// tokens than the engine takes), then until the page has been quiet a while.
async function settle(page, T) {
  if (T !== null)
    await page.waitForFunction(
      (n) =>
        [...document.querySelectorAll('#results figure.matrix .shape')].some((s) => s.textContent.startsWith(`${n} ×`)) ||
        !document.querySelector('#message')?.hidden,
      T,
      { timeout: 120000 },
    );
  const shownAt = await page.evaluate(() => performance.now() - window.__t0);
  // Quiet: no long task and no pending frame work for QUIET_MS.
  await page.evaluate(
    (quiet) =>
      new Promise((resolve) => {
        let last = performance.now();
        const tick = () => {
          const now = performance.now();
          if (now - last > 100) last = now; // a long gap between frames: something ran
          if (now - last >= quiet || now - window.__t0 > 60000) resolve();
          else setTimeout(tick, 20);
        };
        const frames = () =>
          requestAnimationFrame((t) => {
            frames();
          });
        frames();
        // Count the latest long task as activity.
        const poll = setInterval(() => {
          const end = Math.max(0, ...window.__long.map((l) => l.start + l.ms));
          if (end > last) last = end;
        }, 20);
        setTimeout(tick, 20);
        setTimeout(() => clearInterval(poll), 61000);
      }),
    QUIET_MS,
  );
  const long = await page.evaluate(() => window.__long.map((l) => ({ at: Math.round(l.start - window.__t0), ms: Math.round(l.ms) })));
  return { shownAt, long };
}

// Runs one interaction (act) and reports it: settle() waits for `rows` rows (null: any).
async function measure(page, label, rows, act) {
  await page.evaluate(START);
  const stop = process.env.TRACE ? await startTrace(page) : null;
  await act();
  const settled = await settle(page, rows);
  await report(page, label, settled);
  if (stop) console.log((await stop()).join('\n'));
}

async function report(page, label, { shownAt, long }) {
  const max = Math.max(0, ...long.map((l) => l.ms));
  const message = await page.evaluate(() => (document.querySelector('#message')?.hidden ? '' : document.querySelector('#message').textContent));
  if (message) console.log(`${label.padEnd(34)} message: ${message.slice(0, 90)}`);
  console.log(
    `${label.padEnd(34)} ${message ? 'message' : 'result'} on screen after ${shownAt.toFixed(0).padStart(5)} ms; max long task ${String(max).padStart(4)} ms; ${long.length} long task(s)${long.length ? ': ' + long.map((l) => `${l.ms} ms @${l.at}`).join(', ') : ''}`,
  );
}

for (const T of SIZES) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${baseUrl(server)}index.html`);
  await page.waitForSelector('#results td[data-matrix]');
  await page.waitForTimeout(1000);
  const sentence = Array.from({ length: T }, (_, i) => `w${i + 1}`).join(' ');
  console.log(`\nT = ${T}`);

  await measure(page, 'paste the sentence', T, () =>
    page.evaluate((text) => {
      const box = document.querySelector('#sentence');
      box.value = text;
      box.dispatchEvent(new Event('input', { bubbles: true }));
    }, sentence),
  );

  await page.focus('#sentence');
  await page.evaluate(() => {
    const box = document.querySelector('#sentence');
    box.setSelectionRange(box.value.length, box.value.length);
  });
  await measure(page, 'type " x" at the end', T + 1, () => page.keyboard.type(' x'));
  await measure(page, 'next step', null, () => page.evaluate(() => document.querySelector('#step-next')?.click()));
  if (errors.length) console.log('page errors:', errors);
  await page.close();
}
await browser.close();
server.close();
