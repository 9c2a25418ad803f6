// The example course page (examples/course-page.html) with an iframe and two
// <attention-playground> elements: each embed shows the worked numbers, fits its height through
// the postMessage protocol, keeps its own state, leaks no style either way, and carries an
// "open in the full playground" link with its current state. Needs the built site.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';

import { openPage, printedCells, rowTexts, screenshots, startHarness } from './share-harness.mjs';

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness?.close();
});

// The frame of an embed: the iframe by id, or the iframe in a custom element's shadow root.
async function frameOf(page, selector) {
  const handle = await page.waitForFunction(
    (sel) => {
      const host = document.querySelector(sel);
      return host?.shadowRoot?.querySelector('iframe') ?? (host?.tagName === 'IFRAME' ? host : null);
    },
    selector,
  );
  const frame = await handle.asElement().contentFrame();
  await frame.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="weights"]');
  return { frame, iframe: handle.asElement() };
}

const frameHeight = (iframe) => iframe.evaluate((node) => node.getBoundingClientRect().height);
const contentHeight = (frame) => frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));

test('the course page shows an iframe and two custom elements, each with the course numbers', async () => {
  const { page, errors, close } = await openPage(harness.browser, `${harness.base}examples/course-page.html`);
  try {
    const embeds = {
      iframe: await frameOf(page, '#course-iframe'),
      first: await frameOf(page, '#first'),
      second: await frameOf(page, '#second'),
    };
    // Worked example, causal (the iframe): row 2 of A is [0.423, 0.577, 0, …].
    assert.deepEqual(await rowTexts(embeds.iframe.frame, 'weights', 0, 1), ['0.423', '0.577', '0', '0', '0', '0']);
    // The same example without the mask (first element).
    assert.deepEqual(await rowTexts(embeds.first.frame, 'weights', 0, 0), ['0.192', '0.187', '0.185', '0.142', '0.140', '0.155']);
    // The cat example (second element): cat attends most to itself.
    assert.deepEqual(await rowTexts(embeds.second.frame, 'weights', 0, 1), ['0.274', '0.452', '0.274']);

    for (const [name, { frame, iframe }] of Object.entries(embeds)) {
      // Embed mode: no page chrome, the "open in the full playground" link on top.
      assert.equal(await frame.isVisible('header.top'), false, name);
      assert.equal(await frame.isVisible('#share-copy'), false, name);
      assert.match(await frame.getAttribute('#share-open-full', 'href'), /^http:\/\/127\.0\.0\.1:\d+\/dist\/index\.html#/, name);
      assert.doesNotMatch(await frame.getAttribute('#share-open-full', 'href'), /embed=1/, name);
      // The iframe fits its content (the embed reported its height).
      await page.waitForFunction(
        ([el, want]) => Math.abs(el.getBoundingClientRect().height - want) <= 2,
        [iframe, await contentHeight(frame)],
      );
      assert.ok((await frameHeight(iframe)) > 300, name);
    }
    // Languages and hidden controls from the attributes.
    assert.equal(await embeds.first.frame.evaluate(() => document.documentElement.lang), 'zh-CN');
    assert.equal(await embeds.second.frame.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await embeds.second.frame.isVisible('#sentence'), false);
    assert.equal(await embeds.second.frame.isVisible('#heads'), false);
    assert.equal(await embeds.first.frame.isVisible('#sentence'), true);
    assert.equal(await embeds.iframe.frame.locator('#results .caption:visible').count(), 0, 'prose_hide');

    await page.screenshot({ path: path.join(screenshots, 'embed-course-page.png'), fullPage: false });
    await page.locator('#second').screenshot({ path: path.join(screenshots, 'embed-element.png') });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('styles do not cross between the course page and the embeds', async () => {
  const { page, close } = await openPage(harness.browser, `${harness.base}examples/course-page.html`);
  try {
    const { frame } = await frameOf(page, '#first');
    // The host's dashed magenta table borders and Comic Sans do not reach the playground…
    const inside = await frame.$eval('section.lesson-step:not(.parked) td[data-matrix="weights"]', (td) => {
      const style = getComputedStyle(td);
      return { border: style.borderTopStyle, font: style.fontFamily, outline: getComputedStyle(td.closest('table')).outlineStyle };
    });
    assert.notEqual(inside.border, 'dashed');
    assert.doesNotMatch(inside.font, /Comic/);
    assert.equal(inside.outline, 'none');
    // …and the playground's styles do not reach the host.
    const host = await page.evaluate(() => ({
      td: getComputedStyle(document.querySelector('.course-table td')).borderTopStyle,
      font: getComputedStyle(document.body).fontFamily,
      background: getComputedStyle(document.body).backgroundColor,
      sheets: document.styleSheets.length,
    }));
    assert.equal(host.td, 'dashed');
    assert.match(host.font, /Georgia/);
    assert.equal(host.background, 'rgb(251, 250, 246)');
    assert.equal(host.sheets, 1, 'the element adds no stylesheet to the host document');
    // The element's own style lives in its shadow root.
    assert.equal(await page.$eval('#first', (el) => el.shadowRoot.querySelectorAll('style').length), 1);
  } finally {
    await close();
  }
});

test('the two elements keep their own state; each "open in the full playground" link carries it', async () => {
  const { page, errors, close } = await openPage(harness.browser, `${harness.base}examples/course-page.html`);
  try {
    const first = await frameOf(page, '#first');
    const second = await frameOf(page, '#second');
    const secondBefore = await printedCells(second.frame);
    await first.frame.fill('#sentence', 'Attention is all you need');
    await first.frame.waitForFunction(() => document.querySelectorAll('section.lesson-step:not(.parked) td[data-matrix="weights"][data-head="0"]').length === 25);
    await first.frame.waitForFunction(() => document.querySelector('#share-open-full').href.includes('Attention+is+all+you+need'));
    // The other element did not change.
    assert.deepEqual(await printedCells(second.frame), secondBefore);
    assert.doesNotMatch(await second.frame.getAttribute('#share-open-full', 'href'), /Attention/);
    // The host heard the state through the protocol (the element mirrors it in data-link).
    await page.waitForFunction(() => document.querySelector('#first').dataset.link?.includes('Attention+is+all+you+need'));

    // Opening the link shows the full playground with the same numbers.
    const href = await first.frame.getAttribute('#share-open-full', 'href');
    const full = await openPage(harness.browser, href);
    try {
      await full.page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="weights"]');
      assert.equal(await full.page.isVisible('header.top'), true);
      assert.equal(await full.page.inputValue('#sentence'), 'Attention is all you need');
      assert.deepEqual(await printedCells(full.page), await printedCells(first.frame));
      assert.deepEqual(full.errors, []);
    } finally {
      await full.close();
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
