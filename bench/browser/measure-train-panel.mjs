// Long tasks on the page while the Train panel trains (the worker trains; the page draws the
// curve, the predictions and every head's map a few times a second): a measurement that prints
// figures, not a test. After `npx vite build`:
//   node bench/browser/measure-train-panel.mjs            (every task; or TASKS=induction,text)
// For each task, from the panel's default model: Train is pressed, the page is watched for
// SECONDS, Pause is pressed; every PerformanceObserver 'longtask' entry (main-thread task over
// 50 ms) in between is listed. Headless Chromium without a GPU on a shared machine: upper bounds.
import os from 'node:os';
import { baseUrl, dist, launchChromium, serveStatic } from '../../tests/browser/harness.mjs';
import { observeFromTheStart, start } from './long-task-observer.mjs';

const TASKS = (process.env.TASKS ?? 'previous,induction,reverse,sort,text').split(',');
const SECONDS = Number(process.env.SECONDS ?? 6);

const server = await serveStatic(dist);
const browser = await launchChromium();
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${os.cpus().length} CPUs; ${SECONDS} s of training per task`,
);
console.log('task       steps  reports  maps  tasks>50ms  longest (ms)');
try {
  for (const task of TASKS) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await observeFromTheStart(context);
    const page = await context.newPage();
    await page.goto(`${baseUrl(server)}index.html`);
    await page.waitForSelector('#engine-status[data-build]', { timeout: 60000 });
    await page.locator('#train').scrollIntoViewIfNeeded();
    await page.waitForSelector('#train-maps canvas', { timeout: 60000 });
    if (task !== 'induction') {
      await page.selectOption('#train-task', task);
      await page.waitForFunction(
        (t) =>
          document.querySelector('#train-sequence').value !== '' &&
          document.querySelector('#train-status').textContent.startsWith('Step 0') &&
          document.querySelector('#train-task').value === t,
        task,
      );
      await page.waitForTimeout(500);
    }
    // Reports drawn: every 'state' the panel draws rewrites the status line.
    await page.evaluate(() => {
      window.__reports = 0;
      new MutationObserver(() => (window.__reports += 1)).observe(document.querySelector('#train-status'), {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    await start(page);
    await page.click('#train-run');
    await page.waitForTimeout(SECONDS * 1000);
    await page.click('#train-run');
    const figures = await page.evaluate(() => ({
      long: window.__long.filter((l) => l.start >= window.__t0).map((l) => Math.round(l.ms)),
      reports: window.__reports,
      maps: document.querySelectorAll('#train-maps canvas').length,
      step: (document.querySelector('#train-status').textContent.match(/Step (\d+)/) ?? [0, '?'])[1],
    }));
    console.log(
      `${task.padEnd(10)} ${String(figures.step).padStart(5)}  ${String(figures.reports).padStart(7)}  ${String(figures.maps).padStart(4)}  ${String(figures.long.length).padStart(10)}  ${figures.long.length ? Math.max(...figures.long) : '-'}`,
    );
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
