// What every browser test and browser benchmark needs: a static file server (like any host the
// site may be put on) and Debian's Chromium through playwright-core with the flags of
// TOOLCHAIN.md (without them Chromium keeps trying to reach the network).
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

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

export const launchChromium = () => chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS] });

/** Opens the settings under the sentence (closed on a fresh page), as a reader who wants to
 *  change d_model, the heads or the mask would. */
export async function openSettings(page) {
  await page.waitForSelector('#settings > summary');
  if (!(await page.$eval('#settings', (details) => details.open))) await page.click('#settings > summary');
}

/** Opens a view of the page by its tab in the header, as a reader would, and waits until it is drawn. */
export async function openView(page, view) {
  const tab = `#views button[data-view="${view}"]`;
  if ((await page.getAttribute(tab, 'aria-current')) !== 'page') await page.click(tab);
  await whenDrawn(page);
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

/**
 * Until the page says every part of it shows its current state: its own signal
 * (window.attentionPlayground.whenDrawn(), page/controller.js), which waits for the computations
 * (in the worker too), the lesson's deferred drawing and first layouts, and the panels under it.
 * `target`: a page or a frame.
 */
export const whenDrawn = (target) => target.evaluate(() => window.attentionPlayground?.whenDrawn());

/** The address written now (the page writes it in idle time once the reader stops). */
export const linkNow = (target) => target.evaluate(() => window.attentionPlayground?.linkNow());

// Chromium's new headless mode sometimes never answers a capture (a known fault of its compositor
// once idle: the page itself answers scripts meanwhile). Such a capture is given up, the compositor
// woken by a moment of screencast, and the capture tried again.
const CAPTURE_TRIES = 3;
const CAPTURE_WAIT_MS = 15_000;

// Screenshots a person looks at after each run are taken always (`keep: true` in the options);
// the others only when PLAYGROUND_SCREENSHOTS=all: each costs a capture of the whole page.
const ALL_SCREENSHOTS = process.env.PLAYGROUND_SCREENSHOTS === 'all';

/** `target.screenshot(options)` for a page or a locator, through Chromium's stalled captures. */
export async function saveScreenshot(target, { keep = false, ...options }) {
  if (!keep && !ALL_SCREENSHOTS) return null;
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
export async function screenshotDrawn(page, file, selector = null, { keep = false } = {}) {
  if (!keep && !ALL_SCREENSHOTS) return;
  await whenDrawn(page); // first what the page draws in idle time (the panels off screen)
  const scope = selector ?? 'html';
  // (and the canvases of lesson figures far from the window, unseen while they are: lesson.css)
  const style = await page.addStyleTag({
    content: `${scope}, ${scope} * { content-visibility: visible !important; } figure.matrix.far .cgrid canvas { visibility: visible !important; }`,
  });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  if (selector) await saveScreenshot(page.locator(selector), { path: file, keep: true });
  else await saveScreenshot(page, { path: file, fullPage: true, keep: true });
  await style.evaluate((node) => node.remove());
}
