// A 'longtask' PerformanceObserver in the page, for the figures-only measurements
// (measure-hostile-links.mjs, measure-typing.mjs): every main-thread task over 50 ms from start()
// until the page has been quiet for a while.

/** Installs the observer before the page's own scripts run (a page opened later). */
export const observeFromTheStart = (context) =>
  context.addInitScript(() => {
    window.__long = [];
    window.__t0 = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push({ start: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });

/** Forgets the tasks seen so far: what follows is one interaction. */
export const start = (page) =>
  page.evaluate(() => {
    window.__long = [];
    window.__t0 = performance.now();
  });

/** Waits until no task has run for `quietMs` (frames keep coming), at most `maxMs` after start();
 *  → { long: [{ at, ms }], max, total, quietAt } (ms since start()). */
export async function settle(page, { quietMs = 1500, maxMs = 120000 } = {}) {
  await page.evaluate(
    ([quiet, max]) =>
      new Promise((resolve) => {
        let last = performance.now();
        let previous = last;
        const frame = () => {
          const now = performance.now();
          if (now - previous > 100) last = now; // a long gap between frames: something ran
          previous = now;
          const end = Math.max(0, ...window.__long.map((l) => l.start + l.ms));
          if (end > last) last = end;
          if (now - last >= quiet || now - window.__t0 > max) resolve();
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    [quietMs, maxMs],
  );
  return page.evaluate((quiet) => {
    const long = window.__long
      .filter((l) => l.start + l.ms >= window.__t0)
      .map((l) => ({ at: Math.round(l.start - window.__t0), ms: Math.round(l.ms) }));
    return {
      long,
      max: Math.max(0, ...long.map((l) => l.ms)),
      total: long.reduce((sum, l) => sum + l.ms, 0),
      quietAt: Math.round(performance.now() - window.__t0 - quiet),
    };
  }, quietMs);
}

/** One line of figures. */
export const describe = ({ long, max, quietAt }) =>
  `max task ${String(max).padStart(5)} ms; ${String(long.length).padStart(3)} task(s) over 50 ms; quiet after ${String(quietAt).padStart(6)} ms` +
  (long.length
    ? `  [${long
        .slice(0, 8)
        .map((l) => l.ms)
        .join(', ')}${long.length > 8 ? ', …' : ''}]`
    : '');
