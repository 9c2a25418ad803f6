// The browser harness of the head-view tests (heads.test.mjs): a static server for the built
// site and a Chromium page that records errors. Like page.test.mjs: needs dist/ (`npm run build`,
// or `npx vite build` after the wasm build); PLAYGROUND_DIST=<folder> tests another build.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, screenshotDrawn, serveStatic, openSettings, openView, whenDrawn } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const dist = path.resolve(process.env.PLAYGROUND_DIST ?? path.join(here, '../../dist'));
export const screenshots = path.join(here, 'screenshots');

/** Starts the server and the browser; returns { open(hash), close() }. */
/** view: the view each page opens in (by its tab, once the lesson is drawn) when its link names none. */
export async function startBrowser({ view = 'attention' } = {}) {
  if (!existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`${dist}/index.html is missing: build the site first (\`npm run build\`, or \`npm run build:wasm && npx vite build\`).`);
  }
  mkdirSync(screenshots, { recursive: true });
  const server = await serveStatic(dist);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launchChromium();

  // A fresh page at 1280 px that records every page error and console error. `ready`: what shows
  // the lesson is drawn (a table's output cell; from 8 tokens on the lesson draws canvases).
  async function open(hash = '', { locale = 'en-US', ready = 'section.lesson-step:not(.parked) td[data-matrix="output"]' } = {}) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
      if (message.type() === 'warning' && /head view|shuffle run|companion/.test(message.text())) errors.push(`console: ${message.text()}`);
    });
    await page.goto(`${base}index.html${hash}`);
    await page.waitForSelector(ready, { state: 'attached' }); // (a link may open another view)
    await whenDrawn(page);
    if (view !== 'attention') await openView(page, view); // (the lesson stays in the page, hidden, for comparisons)
    await openSettings(page);
    return { page, errors, close: () => context.close() };
  }

  async function close() {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
  return { open, close };
}

/** The printed texts of a head-view matrix row (data-hv), in column order, once the page is idle. */
export async function hvRow(page, name, head, row) {
  await whenDrawn(page);
  const headSel = head === null ? '' : `[data-head="${head}"]`;
  return page.$$eval(`td[data-hv="${name}"]${headSel}[data-row="${row}"]`, (cells) =>
    cells.sort((a, b) => Number(a.dataset.col) - Number(b.dataset.col)).map((cell) => cell.textContent),
  );
}

/** The printed texts of one of the lesson's matrix rows (data-matrix) once the page is drawn: its
 *  table cells, or, for a matrix drawn on a canvas (from 8 tokens on), the texts the canvas drew
 *  (its printedTexts(), the matrix component's test hook: render/matrix-canvas.js). */
export async function lessonRow(page, name, head, row) {
  await whenDrawn(page);
  const headSel = head === null ? ':not([data-head])' : `[data-head="${head}"]`;
  const cells = await page.$$eval(`section.lesson-step:not(.parked) td[data-matrix="${name}"]${headSel}[data-row="${row}"]`, (all) =>
    all.sort((a, b) => Number(a.dataset.col) - Number(b.dataset.col)).map((cell) => cell.textContent),
  );
  const grid = page.locator(`#results section.lesson-step:not(.parked) .cg-body[data-matrix="${name}"]${headSel}`);
  if (cells.length > 0 || (await grid.count()) === 0) return cells;
  return grid.first().evaluate((g, r) => g.printedTexts()[r], row);
}

export const count = (page, selector) => page.$$eval(selector, (nodes) => nodes.length);

/** Types into an input as a reader would (select all, type). */
export async function retype(page, selector, text) {
  await page.click(selector);
  await page.keyboard.press('Control+A');
  if (text === '') await page.keyboard.press('Backspace');
  else await page.keyboard.insertText(text);
}

/** Clicks the link to a panel in the row of links above the lesson (as a reader reaches the
 *  panels under the long lesson) and waits until the page is drawn (the panel held in place while
 *  the panels around it take their sizes: views/scroll-to-panel.js); returns its top and the
 *  window's height and how far it can still scroll down. */
export async function jumpTo(page, id) {
  await page.click(`a[data-jump="${id}"]`);
  await whenDrawn(page);
  return page.$eval(`#${id}`, (el) => ({
    top: Math.round(el.getBoundingClientRect().top),
    view: innerHeight,
    below: Math.round(document.documentElement.scrollHeight - scrollY - innerHeight),
  }));
}

/** A screenshot of a whole panel, every part drawn (screenshotDrawn, harness.mjs), once scrolled
 *  to as a reader would. */
export async function panelShot(page, selector, file, options) {
  await page.locator(selector).scrollIntoViewIfNeeded();
  await screenshotDrawn(page, file, selector, options);
}
