// The browser harness of the lesson's tests (lesson.test.mjs), built on harness.mjs: pages that
// record their errors and any request to another origin, and what a learner reads of a matrix
// whichever surface draws it (a table, or a canvas from 8 tokens on: render/policy.js).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { baseUrl, dist, launchChromium, linkNow, screenshots, serveStatic, whenDrawn } from './harness.mjs';
import { lessonRow } from './heads-harness.mjs';
import { parseCell } from '../../web/src/render/format.js';

export { screenshots };

// The steps shown (the others stay in the page, hidden: lesson.css, .parked).
export const SHOWN = '#results section.lesson-step:not(.parked)';

/** Starts the server and the browser → { open(hash, options), close(), foreignRequests }. */
export async function startLesson() {
  if (!existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`${dist}/index.html is missing: build the site first (\`npm run build\`, or \`npm run build:wasm && npx vite build\`).`);
  }
  mkdirSync(screenshots, { recursive: true });
  const server = await serveStatic(dist);
  const base = baseUrl(server);
  const browser = await launchChromium();
  // Anything fetched from another origin (a CDN, fonts) would be a failure of "offline".
  const foreignRequests = [];

  /** A fresh page at `hash` (width × height; init: a script run before the page's), once a
   *  matrix of a step shown is there → { page, errors, close }. */
  async function open(hash = '', { width = 1280, height = 900, init = null } = {}) {
    const context = await browser.newContext({ viewport: { width, height }, locale: 'en-US' });
    if (init) await context.addInitScript(init);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(base) && !request.url().startsWith('data:')) foreignRequests.push(request.url());
    });
    await page.goto(`${base}index.html${hash}`);
    await page.waitForSelector(`${SHOWN} [data-matrix]`);
    return { page, errors, close: () => context.close() };
  }

  async function close() {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
  return { open, close, foreignRequests };
}

/** A table cell of a step shown (head null: a matrix without heads). */
export const cell = (matrix, head, row, col) =>
  `${SHOWN} td[data-matrix="${matrix}"]${head === null ? ':not([data-head])' : `[data-head="${head}"]`}[data-row="${row}"][data-col="${col}"]`;

/** The grid of a matrix drawn on a canvas, in a step shown. */
export const grid = (matrix, head) => `${SHOWN} .cg-body[data-matrix="${matrix}"]${head === null ? ':not([data-head])' : `[data-head="${head}"]`}`;

/** A row of a matrix as numbers, as the page shows it once idle, in a table or on a canvas (its
 *  entries pointed at, each explained: heads-harness.mjs's lessonRow). */
export const numbers = async (page, matrix, head, row) => (await lessonRow(page, matrix, head, row)).map(parseCell);

export const fixed3 = (values) => values.map((v) => v.toFixed(3));
export const shownSteps = (page) => page.$$eval(SHOWN, (s) => s.map((n) => n.dataset.step));
export const explanation = (page) => page.innerText('#explain .explain-lines');
/** The number an explanation ends with (≈ 0.423). */
export const explainedValue = async (page) => (await explanation(page)).trim().split(/\s/).pop();
/** Two frames rendered: what a change or a scroll drew, and what the page did in the frame after;
 *  then the first report of an observer made now, which Chromium delivers after the reports of
 *  the page's own observers on those frames (the page learns where its figures are from them:
 *  render/window-sight.js). On a busy machine those could still be on their way after two frames. */
export const twoFrames = (page) =>
  page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await new Promise((resolve) => {
      const observer = new IntersectionObserver(() => {
        observer.disconnect();
        resolve();
      });
      observer.observe(document.body);
    });
  });

/** The point of entry (row, col) of a matrix on a canvas, its box scrolled sideways to put that
 *  column just right of the row labels (which stay in place over the canvas). */
export async function entryPoint(page, matrix, head, row, col) {
  const sel = grid(matrix, head);
  await page.locator(sel).scrollIntoViewIfNeeded();
  return page.$eval(
    sel,
    (g, [r, c]) => {
      const width = parseFloat(g.parentNode.style.getPropertyValue('--cw'));
      g.closest('.scroll').scrollLeft = c * width;
      const box = g.querySelector('canvas').getBoundingClientRect();
      return { x: box.left + (c + 0.5) * width, y: box.top + (r + 0.5) * 20 };
    },
    [row, col],
  );
}

/** entryPoint, once the page has stopped moving under it (figures above that were skipped off
 *  screen take their real size as they are scrolled past) and the entry is what is there. */
export async function steadyEntryPoint(page, matrix, head, row, col) {
  let [p, before] = [await entryPoint(page, matrix, head, row, col), null];
  for (let attempt = 0; attempt < 20 && JSON.stringify(p) !== JSON.stringify(before); attempt += 1) {
    await twoFrames(page);
    [before, p] = [p, await entryPoint(page, matrix, head, row, col)];
  }
  const there = await page.$eval(grid(matrix, head), (g, q) => g.contains(document.elementFromPoint(q.x, q.y)), p);
  assert.ok(there, `${matrix} (${row + 1}, ${col + 1}) is not under the pointer`);
  return p;
}

/** What a canvas grid's readout says of its active entry: "Row 5 (w5), column 4: 0.123". */
export const readout = (page, matrix, head) => page.textContent(`${grid(matrix, head)} .cg-readout`);

/**
 * What the learner sees of every matrix of the steps shown and of the softmax lab: a table's
 * printed texts and looks, a canvas's pixels. Each figure is scrolled to first, as a learner does,
 * and read once the page is idle (canvases far from the window are drawn as they come near).
 * `only(name)`: the matrices read. → [[matrix, head, what it shows]]
 */
export async function pictures(page, only = () => true) {
  await whenDrawn(page);
  const out = [];
  const figures = await page.$$(`${SHOWN} figure[data-matrix-figure], #softmax-lab`);
  for (const figure of figures) {
    // (the lab is in the softmax step: hidden with it)
    const [name, head, seen] = await figure.evaluate((f) => [f.dataset.matrixFigure ?? 'lab', f.dataset.head ?? null, f.checkVisibility()]);
    if (!seen || !only(name)) continue;
    // (a canvas far from the window is drawn as it comes near: scrolled to first)
    if (await figure.evaluate((f) => [...f.querySelectorAll('canvas')].some((c) => c.checkVisibility()))) {
      await figure.scrollIntoViewIfNeeded();
      await whenDrawn(page);
    }
    out.push([
      name,
      head,
      await figure.evaluate((f) =>
        [
          ...[...f.querySelectorAll('td')].filter((td) => td.checkVisibility()).map((td) => `${td.textContent}|${td.className}`),
          ...[...f.querySelectorAll('canvas')].filter((c) => c.checkVisibility()).map((c) => c.toDataURL()),
        ].join(' '),
      ),
    ]);
  }
  return out;
}

/**
 * Opens the page's own link afresh (once the address has caught up with the page) and asserts
 * that it shows what `page` shows (pictures, `only`), and logs no error there. `open`: the
 * harness's.
 */
export async function assertLooksLikeFreshPage(open, page, only = () => true, message = '') {
  await whenDrawn(page);
  await linkNow(page); // (the page writes the address in idle time after a change: now)
  const url = page.url();
  const fresh = await open(url.slice(url.indexOf('#')), { width: page.viewportSize().width, height: page.viewportSize().height });
  try {
    const here = await pictures(page, only);
    assert.ok(here.length > 0, 'no matrix to compare');
    const there = await pictures(fresh.page, only);
    assert.deepEqual(
      here.map(([n, h]) => `${n} ${h}`),
      there.map(([n, h]) => `${n} ${h}`),
      message,
    );
    here.forEach(([name, head, shown], k) =>
      assert.ok(shown === there[k][2], `${message} ${name} (head ${head}) differs from a fresh page of ${url}`),
    );
    assert.deepEqual(fresh.errors, []);
  } finally {
    await fresh.close();
  }
}

/**
 * What reaches past its step's box in the steps shown: every element outside a scroll box (or a
 * clip) of its own, and a focus ring of 4 px around what takes focus (each step clips what would
 * reach past it: lesson.css, paint containment). Lays every figure out: call it last.
 * → up to 5 'step: tag.class'
 */
export const pastTheirStep = (page) =>
  page.evaluate(() => {
    const sections = [...document.querySelectorAll('#results section.lesson-step:not(.parked)')];
    // Every step and figure laid out, as once scrolled through (view.js's 'first-layout').
    for (const node of document.querySelectorAll('#results section.lesson-step, #results figure.matrix')) node.classList.add('first-layout');
    const outside = [];
    for (const section of sections) {
      const box = section.getBoundingClientRect();
      for (const el of section.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        let inScroller = false;
        for (let a = el.parentElement; a && a !== section; a = a.parentElement) {
          const style = getComputedStyle(a);
          if (style.overflowX !== 'visible' || style.overflowY !== 'visible') inScroller = true;
        }
        if (inScroller) continue;
        const ring = el.tabIndex >= 0 || /^(BUTTON|INPUT|SELECT|A)$/.test(el.tagName) ? 4 : 0;
        if (
          r.left - ring < box.left - 0.5 ||
          r.right + ring > box.right + 0.5 ||
          r.top - ring < box.top - 0.5 ||
          r.bottom + ring > box.bottom + 0.5
        ) {
          outside.push(`${section.dataset.step}: ${el.tagName.toLowerCase()}.${String(el.className).replace(/ /g, '.')}`);
        }
      }
    }
    return outside.slice(0, 5);
  });
