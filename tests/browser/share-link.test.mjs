// The state is the link, in a real browser: the address follows the reader's edits, "Copy link"
// gives a link that opens the same numbers in a new page, a hostile link opens with a
// dismissible message and injects nothing, gallery entries are links, hidden controls stay
// hidden; the largest hostile links (2 MB, compression bombs) open with a message and leave the
// page usable. Needs the built site (`npm run build`).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';

import { openSettings, saveScreenshot } from './harness.mjs';
import { COMPRESSED_PARAMS, hostileLinks } from './hostile-links.mjs';
import { openPage, printedCells, rowTexts, screenshots, startHarness } from './share-harness.mjs';

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness?.close();
});

const site = (hash = '') => `${harness.base}dist/index.html${hash}`;

test('the address follows the edits, and a copied link opens the same numbers in a new page', async () => {
  const first = await openPage(harness.browser, site('#preset=journey'), { permissions: ['clipboard-read', 'clipboard-write'] });
  try {
    const { page } = first;
    await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="output"]');
    const historyBefore = await page.evaluate(() => history.length);
    await page.fill('#sentence', 'Your journey starts with two small steps');
    await openSettings(page);
    await page.fill('#d-model', '4');
    await page.dispatchEvent('#d-model', 'change');
    await page.waitForFunction(() => document.querySelectorAll('section.lesson-step:not(.parked) td[data-matrix="x"]').length === 7 * 4);
    // The address is rewritten once typing pauses (history.replaceState, debounced).
    await page.waitForFunction(() => location.hash.includes('d=4') && location.hash.includes('two+small'));
    assert.equal(await page.evaluate(() => history.length), historyBefore, 'replaceState, not a new history entry per keystroke');

    await page.click('#share-copy');
    await page.waitForFunction(() => document.querySelector('#share-status').textContent.length > 0);
    assert.equal(await page.textContent('#share-status'), 'Link copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await page.inputValue('#share-link'));
    assert.equal(copied, page.url());
    assert.match(copied, /#preset=journey&v=1&s=Your\+journey\+starts\+with\+two\+small\+steps&d=4/);
    const before = await printedCells(page);
    assert.ok(Object.keys(before).length > 100);

    const second = await openPage(harness.browser, copied);
    try {
      const after = await printedCells(second.page);
      assert.deepEqual(after, before);
      assert.equal(await second.page.inputValue('#sentence'), 'Your journey starts with two small steps');
      assert.equal(await second.page.isHidden('#share-notice'), true);
      assert.deepEqual(second.errors, []);
    } finally {
      await second.close();
    }
    assert.deepEqual(first.errors, []);
  } finally {
    await first.close();
  }
});

test('a hostile link opens its valid part with a dismissible message, and nothing from it runs', async () => {
  const evil = encodeURIComponent('<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>');
  const hash = `#preset=journey&v=1&s=${evil}&d=99999&h=abc&x=1,2;3&foo=<b>bar</b>&heads_hide=1`;
  const { page, errors, close } = await openPage(harness.browser, site(hash));
  try {
    await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="output"]');
    await page.waitForSelector('#share-notice:not([hidden])');
    const items = await page.$$eval('#share-notice li', (nodes) => nodes.map((node) => node.textContent));
    assert.deepEqual(items, [
      'd=99999 is out of range; 1024 is used.',
      'h=abc cannot be read; the example’s value is used.',
      'x=1,2;3 cannot be read; the example’s value is used.',
      'x: a 6 × 3 matrix does not fit the 4 × 1024 that the tokens and d_model need; it is left out.',
      '“foo” is not a setting of this playground.',
    ]);
    // The sentence is text, never markup.
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.$$eval('#share-notice img, #token-chips img, #results img, #results script', (n) => n.length), 0);
    assert.equal(await page.inputValue('#sentence'), '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>');
    assert.equal(await page.isVisible('#heads'), false);
    await saveScreenshot(page, { path: path.join(screenshots, 'share-hostile-link.png') });
    await page.click('#share-notice .share-dismiss');
    assert.equal(await page.isHidden('#share-notice'), true);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the gallery lists the examples as links that open them', async () => {
  const { page, errors, close } = await openPage(harness.browser, site());
  try {
    await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="output"]');
    await page.click('[data-share-open="share-gallery"]');
    const links = await page.$$eval('#share-gallery a[data-gallery]', (nodes) =>
      nodes.map((n) => ({ id: n.dataset.gallery, href: n.getAttribute('href'), text: n.textContent })),
    );
    assert.ok(links.length >= 8, `${links.length} examples`);
    assert.ok(links.every((link) => link.text.length > 40));
    await saveScreenshot(page.locator('#share-gallery'), { path: path.join(screenshots, 'share-gallery.png') });
    // The cat example: the row of "cat" is [0.274, 0.452, 0.274].
    await page.click('#share-gallery a[data-gallery="cat-sat"]');
    await page.waitForFunction(() => location.hash === '#preset=cat');
    // The preset opens the softmax step: A is 3 × 3.
    await page.waitForFunction(
      () => document.querySelectorAll('section.lesson-step:not(.parked) td[data-matrix="weights"][data-head="0"]').length === 9,
    );
    assert.deepEqual(await rowTexts(page, 'weights', 0, 1), ['0.274', '0.452', '0.274']);
    // Chinese: the gallery texts follow the language.
    await page.click('button[data-lang="zh-CN"]');
    await page.click('[data-share-open="share-gallery"]');
    assert.match(await page.textContent('#share-gallery'), /教程中的例子/);
    await page.waitForFunction(() => location.hash.includes('lang=zh-CN'));
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('every panel can be hidden by its *_hide flag, and the embed panel names each in words', async () => {
  const panels = { overview: '#overview', split: '#head-split', tokenView: '#token-view', positionsView: '#positions-view', perf: 'section.perf' };
  const flags = Object.keys(panels)
    .map((name) => `${name}_hide=1`)
    .join('&');
  const { page, errors, close } = await openPage(harness.browser, site(`#preset=journey&${flags}`));
  try {
    await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="output"]');
    for (const [name, selector] of Object.entries(panels)) assert.equal(await page.isVisible(selector), false, name);
    assert.deepEqual(await rowTexts(page, 'weights', 0, 1), ['0.423', '0.577', '0', '0', '0', '0']);
    await page.click('[data-share-open="share-embed"]');
    const labels = await page.$$eval('[data-hide-name]', (boxes) =>
      boxes.map((box) => [box.dataset.hideName, box.closest('label').textContent.trim()]),
    );
    for (const name of [...Object.keys(panels), 'lesson']) {
      const label = labels.find(([key]) => key === name)?.[1];
      assert.ok(label && label !== name, `${name}: ${label}`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
  // The lesson hidden: the first screen's weights are the page.
  const only = await openPage(harness.browser, site('#preset=journey&lesson_hide=1'));
  try {
    await only.page.waitForSelector('#overview td[data-matrix="weights"]');
    assert.equal(await only.page.isVisible('#lesson'), false);
    assert.deepEqual(await only.page.$$eval('#overview td[data-matrix="weights"][data-row="1"]', (cells) => cells.map((cell) => cell.textContent)), [
      '0.423',
      '0.577',
      '0',
      '0',
      '0',
      '0',
    ]);
    assert.deepEqual(only.errors, []);
  } finally {
    await only.close();
  }
});

test('the classroom link hides the chosen controls and the explanations', async () => {
  const { page, errors, close } = await openPage(harness.browser, site('#preset=journey'));
  try {
    await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="output"]');
    await page.click('[data-share-open="share-embed"]');
    await page.check('[data-hide-name="heads"]');
    await page.check('[data-hide-name="sentence"]');
    await page.check('[data-hide-name="prose"]');
    await saveScreenshot(page.locator('#share-embed'), { path: path.join(screenshots, 'share-embed-panel.png') });
    const classroom = await page.inputValue('#share-classroom');
    assert.match(classroom, /#preset=journey&v=1&sentence_hide=1&heads_hide=1&prose_hide=1$/);
    const iframe = await page.inputValue('#share-iframe');
    assert.match(iframe, /^<iframe src="[^"]+embed=1"/);
    assert.match(iframe, /d\.protocol !== "attention-playground"/);
    assert.match(
      await page.inputValue('#share-element'),
      /<attention-playground link="#preset=journey" hide="sentence heads" hide-prose><\/attention-playground>/,
    );

    const student = await openPage(harness.browser, classroom);
    try {
      await student.page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="output"]');
      assert.equal(await student.page.isVisible('#sentence'), false);
      await openSettings(student.page);
      assert.equal(await student.page.isVisible('#heads'), false);
      assert.equal(await student.page.isVisible('#d-model'), true);
      assert.equal(await student.page.isVisible('.subtitle'), false);
      assert.equal(await student.page.locator('#results .caption:visible').count(), 0);
      // Still the same numbers.
      assert.deepEqual(await rowTexts(student.page, 'weights', 0, 1), ['0.423', '0.577', '0', '0', '0', '0']);
      assert.deepEqual(student.errors, []);
    } finally {
      await student.close();
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// A new sentence typed over the old one: computed and drawn (the page answers).
async function typeAWord(page) {
  await page.click('#sentence');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('the page still answers');
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('#results section.lesson-step:not(.parked) figure.matrix .shape')].some((s) => s.textContent.startsWith('4 ×')),
    null,
    { timeout: 120000 },
  );
  assert.match(await page.textContent('#token-count'), /\b4\b/);
}

const noticeItems = (page) => page.$$eval('#share-notice li', (nodes) => nodes.map((node) => node.textContent));

test('the largest hostile links open with a message naming what was refused, and the page stays usable', async () => {
  const links = hostileLinks(site());
  const cases = [
    [
      '2 MB of garbage',
      (items) => items.length <= 257 && items.some((item) => /^The link has \d{5,} parts; only the first 256 were read\.$/.test(item)),
    ],
    [
      'eight ~ fields of 16 KB',
      (items) =>
        COMPRESSED_PARAMS.every((param) => items.some((item) => item.startsWith(`${param}: the compressed value expands past `))) &&
        items.includes('x: the compressed value expands past 18874368 characters, the most this field can hold here; the example’s value is used.'),
    ],
    [
      '2 MB of valid-looking fields',
      (items) => items.includes('x: a 1021 × 1024 matrix does not fit the 1024 × 1024 that the tokens and d_model need; it is left out.'),
    ],
    ['1 M tokens', (items) => items.length === 1 && /^s is too long \(2\d{6} characters\); the example’s value is used\.$/.test(items[0])],
  ];
  for (const [name, expected] of cases) {
    const { page, errors, close } = await openPage(harness.browser, site(links[name]));
    try {
      await page.waitForSelector('#share-notice:not([hidden])', { timeout: 120000 });
      await page.waitForSelector('#results section.lesson-step:not(.parked) figure.matrix .shape', { timeout: 120000 });
      const items = await noticeItems(page);
      assert.ok(expected(items), `${name}: ${JSON.stringify(items.slice(-3))}`);
      if (name.startsWith('eight')) await saveScreenshot(page, { path: path.join(screenshots, 'share-compression-bombs.png') });
      await typeAWord(page);
      assert.deepEqual(errors, [], name);
    } finally {
      await close();
    }
  }
});

test('a link the engine refuses (it does not fit in memory) opens its example and says why', async () => {
  const words = Array.from({ length: 1024 }, (_, i) => `w${i}`).join('+');
  const { page, errors, close } = await openPage(harness.browser, site(`#preset=journey&v=1&s=${words}&d=64&h=64`));
  try {
    await page.waitForFunction(
      () => /The link holds an invalid setting, so the example was opened instead/.test(document.querySelector('#message').textContent),
      null,
      { timeout: 120000 },
    );
    const message = await page.textContent('#message');
    // The engine's own words: what does not fit, and the largest size that does.
    assert.match(message, /memory|MB|MiB|GB|GiB/i, message);
    // The example is on screen: the worked example's second row of A.
    await page.waitForFunction(
      () => document.querySelectorAll('section.lesson-step:not(.parked) td[data-matrix="weights"][data-head="0"][data-row="1"]').length === 6,
    );
    assert.deepEqual(await rowTexts(page, 'weights', 0, 1), ['0.423', '0.577', '0', '0', '0', '0']);
    await saveScreenshot(page.locator('#message'), { path: path.join(screenshots, 'share-link-refused-by-engine.png') });
    await typeAWord(page);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
