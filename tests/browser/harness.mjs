// What every browser test and browser benchmark needs: a static file server (like any host the
// site may be put on) and Debian's Chromium through playwright-core with the flags of
// TOOLCHAIN.md (without them Chromium keeps trying to reach the network).
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { THRESHOLDS } from '../../web/src/render/thresholds.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '../..');
export const dist = path.resolve(process.env.PLAYGROUND_DIST ?? path.join(repo, 'dist')); // another build: PLAYGROUND_DIST=/tmp/dist-x
export const screenshots = path.join(here, 'screenshots');

export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

/** Serves `rootDir` on 127.0.0.1 at a free port; resolves to the http.Server. */
export function serveStatic(rootDir) {
  const server = http.createServer(async (request, response) => {
    const urlPath = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    const file = path.join(rootDir, urlPath.endsWith('/') ? `${urlPath}index.html` : urlPath);
    if (!file.startsWith(rootDir + path.sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export const baseUrl = (server) => `http://127.0.0.1:${server.address().port}/`;

export const launchChromium = () =>
  chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS] });

/** Opens the settings under the sentence (closed on a fresh page), as a reader who wants to
 *  change d_model, the heads or the mask would. */
export async function openSettings(page) {
  await page.waitForSelector('#settings > summary');
  if (!(await page.$eval('#settings', (details) => details.open))) await page.click('#settings > summary');
}

/** A figures-only diagnostic's page: the build in `distDir` served and `hash` opened in a window
 *  of 1280 × 900, once the lesson shows a matrix. → { server, browser, page } */
export async function openLessonPage(distDir, hash) {
  const server = await serveStatic(distDir);
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${baseUrl(server)}index.html${hash}`);
  await page.waitForSelector('#results section:not(.parked) [data-matrix]', { timeout: 60000 });
  return { server, browser, page };
}

// The longest the page puts off drawing what a reader sees when the browser grants no idle time
// (render/thresholds.js), and a margin for the drawing itself.
const LONGEST_PUT_OFF_MS =
  Math.max(THRESHOLDS.lessonIdleWaitMs, THRESHOLDS.headsIdleWaitMs, THRESHOLDS.canvasRestWaitMs, THRESHOLDS.editorWriteWaitMs) + 250;

/**
 * Until the work the page put off has run: the frame a change asked for is out (the page asks for
 * its idle work as that frame starts, so ahead of this), then an idle period that nothing used
 * before this (more than 45 of its 50 ms left: any idle job fits in 40, render/thresholds.js, so
 * one waiting would have run), or, where Chromium grants no such period (it sometimes grants none
 * for seconds), the longest the page puts a drawing off. An idle period with 10 ms left was not
 * enough: the page's job could be waiting for a longer one, and the old number was read.
 * layouts: also until no step waits for its first layout (data-laying-out, lesson/view.js).
 * capMs: waits no longer.
 */
export const quiet = (page, { layouts = true, capMs = 50_000 } = {}) =>
  page.evaluate(
    async ({ layouts, capMs, longestMs }) => {
      const start = performance.now();
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      while (performance.now() - start < capMs) {
        const deadline = await new Promise((resolve) => requestIdleCallback(resolve, { timeout: 250 }));
        const drawn = deadline.timeRemaining() > 45 || performance.now() - start > longestMs;
        if (drawn && !(layouts && document.querySelector('[data-laying-out]'))) return;
      }
    },
    { layouts, capMs, longestMs: LONGEST_PUT_OFF_MS },
  );

/** Until the page's deferred drawing and first layouts are done. */
export const whenIdle = (page) => quiet(page);

/**
 * Until the page's deferred drawing is done: what a reader's next look finds. For numbers and
 * pictures; it does not wait for first layouts as whenIdle does: after some edits of the worked
 * example that ran to its cap of 50 s (the old mask and editing tests took 57 s and 305 s).
 */
export const settle = (page) => quiet(page, { layouts: false });

// Chromium's new headless mode sometimes never answers a capture (a known fault of its compositor
// once idle: the page itself answers scripts meanwhile). Such a capture is given up, the compositor
// woken by a moment of screencast, and the capture tried again.
const CAPTURE_TRIES = 3;
const CAPTURE_WAIT_MS = 15_000;

/** `target.screenshot(options)` for a page or a locator, through Chromium's stalled captures. */
export async function saveScreenshot(target, options) {
  const page = typeof target.page === 'function' ? target.page() : target;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await target.screenshot({ timeout: CAPTURE_WAIT_MS, ...options });
    } catch (error) {
      if (error.name !== 'TimeoutError' || attempt === CAPTURE_TRIES) throw error;
      console.warn(`${options.path}: no capture in ${CAPTURE_WAIT_MS / 1000} s; the compositor woken, capture ${attempt + 1} of ${CAPTURE_TRIES}`);
      await wakeCompositor(page);
    }
  }
}

async function wakeCompositor(page) {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send('Page.startScreencast', { format: 'jpeg', quality: 10, everyNthFrame: 1 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    await session.send('Page.stopScreencast');
  } finally {
    await session.detach();
  }
}

/**
 * A screenshot with every part drawn, once the page is idle: parts of it are skipped while off screen
 * (content-visibility: auto, the lesson's big steps and the panels under it), and a full-page or
 * element screenshot does not bring them on screen, so they came out blank. For the screenshot
 * they are made visible, as a reader scrolling through sees them. `selector`: one element (else
 * the full page).
 */
export async function screenshotDrawn(page, file, selector = null) {
  await whenIdle(page); // first what the page draws in idle time (the panels off screen)
  const scope = selector ?? 'html';
  // (and the canvases of lesson figures far from the window, unseen while they are: lesson.css)
  const style = await page.addStyleTag({ content: `${scope}, ${scope} * { content-visibility: visible !important; } figure.matrix.far .cgrid canvas { visibility: visible !important; }` });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  if (selector) await saveScreenshot(page.locator(selector), { path: file });
  else await saveScreenshot(page, { path: file, fullPage: true });
  await style.evaluate((node) => node.remove());
}
