// The single self-contained file (dist/attention-playground-standalone.html, written by
// `npm run build`): opened from disk (file://) with no server, and with every network request
// refused, it computes the worked example, keeps its state in the address and exports.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { buildSingleFile } from '../../tools/build-single-file.mjs';
import { COMPILE_HINT } from '../../tools/compile-hints.mjs';
import { saveScreenshot } from './harness.mjs';
import { dist, openPage, repo, rowTexts, screenshots, startHarness } from './share-harness.mjs';

const file = path.join(dist, 'attention-playground-standalone.html');
let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness?.close();
});

test('the single file holds everything: no script, style, wasm or font outside it', () => {
  const html = readFileSync(file, 'utf8');
  // The markup around the inlined code and styles.
  const markup = html.replace(/(<script[^>]*>)[\s\S]*?<\/script>/g, '$1</script>').replace(/(<style[^>]*>)[\s\S]*?<\/style>/g, '$1</style>');
  assert.doesNotMatch(markup, /<script[^>]+src=/);
  assert.doesNotMatch(markup, /<link[^>]+rel="(stylesheet|modulepreload)"/);
  assert.doesNotMatch(markup, /(?:src|href)="\.?\/?assets\//);
  assert.doesNotMatch(html, /url\((?!["']?data:)["']?[^)"']+\.(woff2?|ttf|otf)/, 'fonts are inlined');
  // (\b: a script's address, not a page such as a model's config.json cited as a source)
  assert.doesNotMatch(html, /https?:\/\/(?!www\.w3\.org)[^"'\s)]+\.(js|mjs|css|wasm)\b/, 'no CDN');
  assert.ok((html.match(/data:application\/wasm;base64,/g) ?? []).length >= 2, 'both wasm builds inlined');
  assert.ok(html.includes(`<script type="module">${COMPILE_HINT}`), "V8's compile hint opens the script (tools/compile-hints.mjs)");
  assert.ok(statSync(file).size < 8 * 1024 * 1024);
});

test('opened from disk with the network refused, it computes and shares like the site', async () => {
  const url = `${pathToFileURL(file).href}#preset=journey`;
  const context = await harness.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const requests = [];
  await context.route('**/*', (route) => {
    const target = route.request().url();
    if (target.startsWith('file:') || target.startsWith('data:') || target.startsWith('blob:')) return route.continue();
    requests.push(target);
    return route.abort();
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  try {
    await page.goto(url);
    await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="weights"]');
    assert.match(await page.textContent('#engine-status'), /WebAssembly SIMD/);
    assert.deepEqual(await rowTexts(page, 'weights', 0, 1), ['0.423', '0.577', '0', '0', '0', '0']);
    assert.deepEqual(await rowTexts(page, 'output', null, 1), ['0.499', '0.566', '0.757']);
    // The state goes into the address here too.
    await page.fill('#sentence', 'Your journey starts with one big step');
    await page.waitForFunction(() => location.hash.includes('one+big+step'));
    assert.ok(page.url().startsWith('file://'));
    // An export downloads from file:// as well.
    await page.click('[data-share-open="share-export"]');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-export="numpy"]')]);
    assert.match(readFileSync(await download.path(), 'utf8'), /^# Attention playground/);
    await saveScreenshot(page, { path: path.join(screenshots, 'single-file.png') });
    assert.deepEqual(requests, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the single file has embed mode too', async () => {
  const { page, errors, close } = await openPage(harness.browser, `${pathToFileURL(file).href}#preset=journey&v=1&embed=1&lang=zh-CN`);
  try {
    await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="weights"]');
    assert.equal(await page.isVisible('header.top'), false);
    // (the link is written in an idle period after the first result)
    await page.waitForFunction(() => document.querySelector('#share-open-full')?.hasAttribute('href'));
    assert.match(await page.getAttribute('#share-open-full', 'href'), /^file:\/\/.*attention-playground-standalone\.html#preset=journey&lang=zh-CN$/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// The engine's compute worker (engine/worker-engine.js), for large inputs, must run from the
// single file too: the build turns it into an inline classic worker. A probe page that only
// starts the worker is built the same way and opened from disk.
test('a compute worker runs from a single file opened from disk', async (t) => {
  const workerEngine = path.join(repo, 'web/src/engine/worker-engine.js');
  if (!existsSync(workerEngine)) {
    t.skip('no engine/worker-engine.js');
    return;
  }
  const work = mkdtempSync(path.join(tmpdir(), 'attention-worker-probe-'));
  try {
    const from = path.relative(work, workerEngine).split(path.sep).join('/');
    writeFileSync(
      path.join(work, 'index.html'),
      `<!doctype html><html><head><meta charset="utf-8"><title>probe</title><script type="module">
import { WorkerEngine } from ${JSON.stringify(from)};
new WorkerEngine()
  .compute({ tokens: ['a', 'b'], dModel: 2, heads: 1, weights: 'identity', embeddings: [[1, 0], [0, 1]], mask: 'none' })
  .then((r) => { document.title = 'ok ' + Array.from(r.perHead[0].weights.data, (v) => v.toFixed(3)).join(' '); },
        (e) => { document.title = 'error ' + e.message; });
</script></head><body></body></html>`,
    );
    const file = await buildSingleFile({ root: work, outDir: work, fileName: 'probe.html' });
    const { page, close } = await openPage(harness.browser, pathToFileURL(file).href);
    try {
      await page.waitForFunction(() => /^(ok|error)/.test(document.title));
      assert.equal(await page.title(), 'ok 0.670 0.330 0.330 0.670');
    } finally {
      await close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
