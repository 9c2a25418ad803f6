// What the sharing and embedding browser tests share: a static server for the repository root
// (so that /dist/ and /examples/ are both reachable, as on a course server), Chromium through
// playwright-core with the flags of TOOLCHAIN.md, and small readers of the page.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, serveStatic } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '../..');
export const dist = path.join(repo, 'dist');
export const screenshots = path.join(here, 'screenshots');

/** Starts the server and the browser; returns { base, browser, close }. */
export async function startHarness() {
  for (const file of ['index.html', 'attention-playground.js', 'attention-playground-standalone.html']) {
    if (!existsSync(path.join(dist, file))) {
      throw new Error(`dist/${file} is missing: build the site first (\`npm run build\`, or \`npx vite build\`).`);
    }
  }
  mkdirSync(screenshots, { recursive: true });
  const server = await serveStatic(repo);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launchChromium();
  return {
    base,
    browser,
    close: async () => {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A fresh page at 1280 px that records page errors and console errors. */
export async function openPage(browser, url, { permissions = [], acceptDownloads = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', permissions, acceptDownloads });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  await page.goto(url);
  return { page, context, errors, close: () => context.close() };
}

/** Every printed matrix cell of a page or frame: 'matrix/head/row/col' → text. */
export async function printedCells(target) {
  await target.waitForSelector('section.lesson-step:not(.parked) figure td[data-matrix]'); // (a folded lab's cells are not seen)
  return target.$$eval('section.lesson-step:not(.parked) td[data-matrix]', (cells) =>
    Object.fromEntries(
      cells.map((cell) => [`${cell.dataset.matrix}/${cell.dataset.head ?? ''}/${cell.dataset.row}/${cell.dataset.col}`, cell.textContent]),
    ),
  );
}

/** One printed row of a matrix (head: 0-based, or null for model matrices), in column order. */
export async function rowTexts(target, matrix, head, row) {
  const selector = `section.lesson-step:not(.parked) td[data-matrix="${matrix}"]${head === null ? ':not([data-head])' : `[data-head="${head}"]`}[data-row="${row}"]`;
  return target.$$eval(selector, (cells) => cells.sort((a, b) => Number(a.dataset.col) - Number(b.dataset.col)).map((cell) => cell.textContent));
}
