// The first minute of a new reader, on a laptop and on a phone: the first screen shows the tokens
// and the attention weights they give, a weight picked there leads to where it is computed, and
// on a phone nothing is cut off or hidden under the sticky stepper and explanation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { baseUrl, dist, launchChromium, linkNow, screenshots, serveStatic, whenDrawn, saveScreenshot } from './harness.mjs';
import { lessonRow } from './heads-harness.mjs';

let server;
let browser;
before(async () => {
  mkdirSync(screenshots, { recursive: true });
  server = await serveStatic(dist);
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

async function open(hash, viewport, { touch = false } = {}) {
  const context = await browser.newContext({ viewport, locale: 'en-US', hasTouch: touch, isMobile: touch });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && errors.push(`console: ${message.text()}`));
  await page.goto(`${baseUrl(server)}index.html${hash}`);
  await page.waitForSelector('#overview td[data-matrix="weights"]');
  return { page, errors, close: () => context.close() };
}

const overviewRow = (page, row) =>
  page.$$eval(`#overview td[data-matrix="weights"][data-row="${row}"]`, (cells) => cells.map((cell) => cell.textContent));

test('the first screen shows the tokens, the weights A of the chosen head and the control that changes it', async () => {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 375, height: 812 },
  ]) {
    for (const hash of ['', '#preset=journey', '#preset=journey&lang=zh-CN']) {
      const { page, errors, close } = await open(hash, viewport);
      const where = `${viewport.width} px ${hash || 'bare'}`;
      try {
        const seen = await page.evaluate(() => {
          const onScreen = (el) => {
            const r = el.getBoundingClientRect();
            return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
          };
          const cells = [...document.querySelectorAll('#overview td[data-matrix="weights"]')];
          return {
            sentence: onScreen(document.querySelector('#sentence')),
            chips: [...document.querySelectorAll('#token-chips .chip')].every(onScreen),
            // every row of A, down to the last one, on the first screen
            rows: cells.every(onScreen),
            marked: cells.every((cell) => cell.dataset.head !== undefined && cell.dataset.row !== undefined && cell.dataset.col !== undefined),
            tabs: [...document.querySelectorAll('#overview [data-head-tab]')].map((tab) => onScreen(tab)),
            settingsOpen: document.querySelector('#settings').open,
            settingsLine: document.querySelector('#settings-summary').textContent,
          };
        });
        assert.ok(seen.sentence && seen.chips, `${where}: the sentence and its tokens`);
        assert.ok(seen.rows && seen.marked, `${where}: A, marked up`);
        assert.equal(seen.settingsOpen, false, where);
        assert.match(seen.settingsLine, /d_model = \d+ · h = \d+/, where);
        if (hash === '') assert.deepEqual(seen.tabs, [true, true], `${where}: a tab per head`);
        if (hash.startsWith('#preset=journey')) assert.deepEqual(await overviewRow(page, 1), ['0.423', '0.577', '0', '0', '0', '0'], where);
        const name = `first-screen-${viewport.width}-${hash.includes('zh') ? 'zh' : hash ? 'journey' : 'bare'}.png`;
        await saveScreenshot(page, { path: path.join(screenshots, name), keep: true });
        assert.deepEqual(errors, [], where);
      } finally {
        await close();
      }
    }
  }
});

test('the head tabs switch the weights shown, and a weight picked there leads to where it is computed', async () => {
  const { page, errors, close } = await open('', { width: 1440, height: 900 });
  try {
    const first = await overviewRow(page, 2);
    await page.click('#overview [data-head-tab="2"]');
    await page.waitForSelector('#overview td[data-matrix="weights"][data-head="1"]');
    assert.notDeepEqual(await overviewRow(page, 2), first);
    // The lesson follows: its A is head 2's, the same numbers.
    assert.deepEqual(await lessonRow(page, 'weights', 1, 2), await overviewRow(page, 2));

    await page.click('#overview td[data-matrix="weights"][data-row="2"][data-col="1"]');
    const picked = await page.textContent('#overview .overview-picked');
    assert.match(picked, new RegExp(`a₃₂ = ${(await overviewRow(page, 2))[1]}`));
    await page.click('#overview .overview-picked button');
    const target = 'section.lesson-step:not(.parked) td[data-matrix="weights"][data-head="1"][data-row="2"][data-col="1"]';
    await page.waitForFunction((selector) => {
      const cell = document.querySelector(selector);
      const r = cell?.getBoundingClientRect();
      return r && r.top >= 0 && r.bottom <= innerHeight && cell.dataset.hl === 'self';
    }, target);
    assert.match(await page.innerText('#explain'), /Attention weight/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('on a phone every figure is whole or scrolls in its own box, the sticky parts take a quarter of the screen at most, and a tapped cell stays in sight', async () => {
  for (const hash of ['', '#d=12&h=3', '#preset=journey']) {
    const { page, errors, close } = await open(hash, { width: 375, height: 812 }, { touch: true });
    try {
      // Scrolled through, so that every part is laid out and drawn as a reader would see it.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0; y < height; y += 700) await page.evaluate((top) => scrollTo(0, top), y);
      await whenDrawn(page);
      const cut = await page.evaluate(() => {
        const scrolls = (el) => {
          for (let box = el.parentElement; box; box = box.parentElement) if (/auto|scroll/.test(getComputedStyle(box).overflowX)) return true;
          return false;
        };
        const out = [];
        for (const el of document.querySelectorAll('main table, main canvas, main svg, main figure')) {
          const r = el.getBoundingClientRect();
          if (!r.width || scrolls(el)) continue;
          if (r.right > innerWidth + 0.5 || r.left < -0.5) out.push(`${el.tagName} ${Math.round(r.left)}–${Math.round(r.right)}`);
          for (let box = el.parentElement; box; box = box.parentElement) {
            const style = getComputedStyle(box);
            if (style.overflowX === 'hidden' || style.overflowX === 'clip' || style.contentVisibility === 'auto') {
              if (r.right > box.getBoundingClientRect().right + 1) out.push(`${el.tagName} clipped by ${box.className}`);
              break;
            }
          }
        }
        return out;
      });
      assert.deepEqual(cut, [], hash || 'bare');

      if (hash !== '#preset=journey') {
        assert.deepEqual(errors, [], hash || 'bare');
        continue;
      }
      // A cell near the bottom of the screen, tapped: the explanation opens below it and the cell stays clear of it.
      const cell = page.locator('section.lesson-step:not(.parked) [data-matrix="weights"][data-row="4"][data-col="0"]').first();
      await cell.scrollIntoViewIfNeeded();
      const box = await cell.boundingBox();
      await page.evaluate((by) => scrollBy(0, by), box.y - 720);
      await cell.tap();
      await page.waitForFunction(() => /Attention weight/.test(document.querySelector('#explain').innerText));
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const after = await page.evaluate(() => {
        const rect = (el) => el.getBoundingClientRect();
        const stepper = rect(document.querySelector('#stepper'));
        const explain = rect(document.querySelector('#explain'));
        const tapped = rect(document.activeElement);
        return { sticky: stepper.height + explain.height, clear: tapped.top >= stepper.bottom && tapped.bottom <= explain.top };
      });
      assert.ok(after.sticky <= 812 / 4, `the stepper and explanation take ${after.sticky} px`);
      assert.ok(after.clear, 'the tapped cell is under the stepper or the explanation');
      // The worked numbers come first in the strip, and "Show all" gives the explanation more room.
      const strip = () =>
        page.$eval('#explain', (panel) => ({
          height: panel.getBoundingClientRect().height,
          worked: panel.querySelector('.explain-line').getBoundingClientRect().top - panel.getBoundingClientRect().top,
        }));
      const before = await strip();
      assert.ok(before.worked < before.height - 16, `the worked numbers start ${before.worked} px down a ${before.height} px strip`);
      await page.tap('#explain .explain-more');
      const opened = await strip();
      assert.ok(opened.height > before.height * 1.5, `shown whole: ${before.height} → ${opened.height} px`);
      assert.equal(await page.getAttribute('#explain .explain-more', 'aria-expanded'), 'true');
      await saveScreenshot(page, { path: path.join(screenshots, 'phone-tapped-cell.png') });
      assert.deepEqual(errors, [], hash);
    } finally {
      await close();
    }
  }
});

// A reader whose browser asks for Chinese meets a Chinese sentence (the course's language, split
// into words), and on a phone the header's buttons start where its title does, as in English.
test('the page opened in Chinese has a Chinese sentence, and its header lines up as in English', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 }, locale });
    const page = await context.newPage();
    try {
      await page.goto(`${baseUrl(server)}index.html`);
      await whenDrawn(page);
      const sentence = await page.inputValue('#sentence');
      if (locale === 'zh-CN') {
        assert.equal(sentence, '注意力让每个词都能看到相关的词');
        assert.match(await page.innerText('#token-chips'), /注意力[\s\S]*看到/, 'split into words');
        await linkNow(page);
        assert.match(decodeURIComponent(await page.evaluate(() => location.hash)), /注意力让每个词/, 'the link holds what is seen');
      } else assert.equal(sentence, 'Your journey starts with one step');
      const left = await page.$eval('header.top h1', (el) => el.getBoundingClientRect().left);
      const bar = await page.$eval('#share-bar', (el) => el.getBoundingClientRect().left);
      assert.ok(Math.abs(bar - left) <= 2, `${locale}: share bar at ${bar} px, title at ${left} px`);
    } finally {
      await context.close();
    }
  }
});
