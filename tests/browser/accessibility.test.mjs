// Accessibility of the built page: axe-core finds no violation (of any impact) on each state a
// reader reaches first, a skip link leads to the lesson, and moving in a matrix announces one
// short sentence. Needs the built site (PLAYGROUND_DIST= for another build).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { baseUrl, dist, launchChromium, repo, serveStatic, openView, whenDrawn } from './harness.mjs';
import { HATCHES, MIN_CONTRAST, contrast } from '../../web/src/render/colors.js';

const AXE = readFileSync(path.join(repo, 'node_modules/axe-core/axe.min.js'), 'utf8');
const SHOWN = '#results section.lesson-step:not(.parked)';

let server;
let browser;
before(async () => {
  if (!existsSync(path.join(dist, 'index.html'))) throw new Error(`${dist}/index.html is missing: build the site first`);
  server = await serveStatic(dist);
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
});

// A fresh page at `hash` (1440 × 900, or a phone's 375 × 812), once a matrix of a shown step is
// drawn and the page is idle.
async function open(hash, viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`${baseUrl(server)}index.html${hash}`);
  await whenDrawn(page);
  // (the lesson's view: its first matrix, not a folded lab's)
  if (await page.$eval('#lesson', (lesson) => lesson.checkVisibility())) await page.waitForSelector(`${SHOWN} figure [data-matrix]`);
  return { page, close: () => context.close() };
}

// axe over the whole page, with every part drawn (parts off screen skip rendering while
// content-visibility: auto, and axe would not see their colours). The page's policy forbids
// inline scripts: axe goes in as the test driver's own evaluation. → [{ id, impact, targets }]
async function axeViolations(page) {
  await page.addStyleTag({ content: '*, *::before { content-visibility: visible !important; }' });
  await whenDrawn(page);
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

const describe = (violations) =>
  violations.map(({ id, impact, targets }) => `${id} (${impact}), ${targets.length}: ${targets.slice(0, 8).join(' | ')}`).join('\n');

const STATES = [
  ['the bare page', ''],
  ['the worked example, all steps', '#preset=journey'],
  ['the worked example, one step', '#preset=journey&step=softmax'],
  ['the page in Chinese', '#lang=zh-CN'],
  ['embed mode', '#embed=1'],
  ['embed mode, one step without prose', '#preset=journey&embed=1&step=softmax&prose_hide=1'],
  // An exercise: its questions, and "?" in the matrices.
  [
    'an exercise',
    `#preset=journey&step=softmax&ex=${encodeURIComponent(
      JSON.stringify({
        questions: [
          { kind: 'number', cell: 'weights.1.2.1' },
          { kind: 'pattern', row: 'weights.1.3', find: 'zeros' },
          { kind: 'choice', prompt: 'Softmax runs over', options: ['rows', 'columns'], answer: 0 },
        ],
      }),
    )}`,
  ],
  // Today's attention: RoPE and ALiBi on, the FlashAttention and KV cache panels at a middle step.
  ['RoPE, ALiBi and the modern panels mid-way', '#preset=journey&pos=rope&alibi=1&step=mask&tile=5&kvt=4'],
  ['the modern panels in Chinese, past the trace limit', '#lang=zh-CN&pos=rope&s=' + 'w '.repeat(70)],
  ['the FlashAttention trace of cross-attention at a tile padding hides', '#cross=1&spad=00110&tile=2'],
];
const PANELS = [
  ['the export panel open', 'share-export'],
  ['the embed panel open', 'share-embed'],
  ['the examples panel open', 'share-gallery'],
];

for (const [name, hash] of STATES) {
  test(`axe: no violation on ${name}`, async () => {
    const { page, close } = await open(hash);
    try {
      const violations = await axeViolations(page);
      assert.equal(violations.length, 0, `${hash || '(no hash)'}\n${describe(violations)}`);
    } finally {
      await close();
    }
  });
}

// On a phone, parts wider than the screen scroll in their own boxes: each can take the focus.
// Every view, in both languages.
for (const [name, hash] of [
  ['the bare page on a phone', ''],
  ['the page in Chinese on a phone', '#lang=zh-CN'],
  ...['heads', 'modern', 'train', 'exercises', 'perf'].flatMap((view) => [
    [`the ${view} view on a phone`, `#view=${view}`],
    [`the ${view} view in Chinese on a phone`, `#view=${view}&lang=zh-CN`],
  ]),
]) {
  test(`axe: no violation on ${name}`, async () => {
    const { page, close } = await open(hash, { width: 375, height: 812 });
    try {
      const violations = await axeViolations(page);
      assert.equal(violations.length, 0, `${hash || '(no hash)'} at 375 px\n${describe(violations)}`);
    } finally {
      await close();
    }
  });
}

for (const [name, panel] of PANELS) {
  test(`axe: no violation with ${name}`, async () => {
    const { page, close } = await open('');
    try {
      await page.click(`[data-share-open="${panel}"]`);
      await page.waitForSelector(`#${panel}:not([hidden])`);
      const violations = await axeViolations(page);
      assert.equal(violations.length, 0, `${panel}\n${describe(violations)}`);
    } finally {
      await close();
    }
  });
}

test('axe: no violation with the exercise builder open and holding each kind of question', async () => {
  const { page, close } = await open('#preset=journey&step=softmax');
  try {
    await openView(page, 'exercises');
    await page.click('#results td[data-matrix="weights"][data-row="1"][data-col="0"]');
    for (const button of ['#builder-ask-entry', '#builder-ask-zeros', '#builder-ask-largest', '#builder-ask-choice']) await page.click(button);
    await page.waitForSelector('.builder-q[data-kind="choice"]');
    const violations = await axeViolations(page);
    assert.equal(violations.length, 0, describe(violations));
  } finally {
    await close();
  }
});

// The Train panel with a trained model: its controls, curve, predictions and every head's map.
for (const hash of ['#train=previous_ckpt_s40', '#train=induction_ckpt_s0&lang=zh-CN']) {
  test(`axe: no violation with the Train panel trained (${hash})`, async () => {
    const { page, close } = await open(hash);
    try {
      await page.waitForFunction(
        () =>
          document.querySelector('#train-maps canvas') &&
          document.querySelector('#train-predictions td[data-mark]') &&
          document.querySelector('#train-run')?.getAttribute('aria-pressed') === 'false',
        null,
        { timeout: 60000 },
      );
      const violations = await axeViolations(page);
      assert.equal(violations.length, 0, `${hash}\n${describe(violations)}`);
    } finally {
      await close();
    }
  });
}

test('the first Tab reaches the skip link, and Enter moves the focus to the lesson', async () => {
  const { page, close } = await open('#preset=journey');
  try {
    await page.keyboard.press('Tab');
    const link = await page.evaluate(() => {
      const el = document.activeElement;
      const box = el.getBoundingClientRect();
      return { cls: el.className, text: el.textContent, onScreen: box.top >= 0 && box.bottom <= innerHeight && box.width > 0 };
    });
    assert.deepEqual(link, { cls: 'skip-link', text: 'Skip to the content', onScreen: true });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'lesson');
    assert.ok(!page.url().includes('#lesson'), `the address keeps the page's state: ${page.url()}`);
    // and the next Tab goes on into the lesson (its stepper), not back to the form
    await page.keyboard.press('Tab');
    assert.ok(await page.evaluate(() => document.getElementById('lesson').contains(document.activeElement)));
  } finally {
    await close();
  }
});

// Records, from now on, which live regions (aria-live other than off, status, alert, log) change.
const watchLiveRegions = (page) =>
  page.evaluate(() => {
    window.liveChanges = [];
    const live = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';
    new MutationObserver((records) => {
      for (const record of records) {
        const node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
        const region = node?.closest(live);
        if (region) window.liveChanges.push(region.id || region.className);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

// After one arrow press in the matrix `grid` (focused at its first entry): the regions that
// changed, the live sentence, and the explanation's cell.
async function moveOnce(page, focus, key) {
  await page.focus(focus);
  await page.waitForFunction(() => document.getElementById('explain-say').textContent !== '');
  const before = await page.getAttribute('#explain', 'data-cell');
  await watchLiveRegions(page);
  await page.keyboard.press(key);
  await page.waitForFunction((cell) => document.getElementById('explain').dataset.cell !== cell, before);
  await whenDrawn(page);
  return page.evaluate(() => ({
    changed: [...new Set(window.liveChanges)],
    said: document.getElementById('explain-say').textContent,
    cell: document.getElementById('explain').dataset.cell,
    panelLive: document.getElementById('explain').getAttribute('aria-live'),
  }));
}

test('a move in a table says one short sentence: the cell and its value, in one live region', async () => {
  const { page, close } = await open('#preset=journey&step=softmax');
  try {
    const first = `${SHOWN} td[data-matrix="weights"][data-head="0"][data-row="1"][data-col="0"]`;
    const move = await moveOnce(page, first, 'ArrowDown');
    assert.equal(move.cell, 'weights.1.3.1');
    const value = await page.textContent(`${SHOWN} td[data-matrix="weights"][data-head="0"][data-row="2"][data-col="0"]`);
    assert.deepEqual(move.changed, ['explain-say']);
    assert.equal(move.panelLive, null, 'the panel itself is not live');
    assert.match(move.said, /^Attention weight: the share “starts” reads from “Your”: a₃₁ = 0\.\d{3}$/);
    assert.ok(move.said.endsWith(Number(value).toFixed(3)), `${move.said} / ${value}`);
  } finally {
    await close();
  }
});

test('a move in a canvas matrix says one sentence too: its readout is not a second live region', async () => {
  const { page, close } = await open('#s=one+two+three+four+five+six+seven+eight+nine&step=softmax');
  try {
    const grid = `${SHOWN} .cg-body[data-matrix="weights"][data-head="0"]`;
    const move = await moveOnce(page, grid, 'ArrowDown');
    assert.deepEqual(move.changed, ['explain-say']);
    assert.match(move.said, /^Attention weight: the share “two” reads from “one”: a₂₁⁽¹⁾ = 0\.\d{3}$/);
    // the value the canvas prints there (its readout, the grid's description)
    const readout = await page.$eval(grid, (g) => document.getElementById(g.getAttribute('aria-describedby')).textContent);
    assert.equal(readout.split(': ').pop(), move.said.split(' = ').pop());
  } finally {
    await close();
  }
});

// A computed CSS colour → [r, g, b, alpha] (0–255; Chromium writes color-mix results as color(srgb …)).
function rgba(css) {
  const srgb = /color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)(?: \/ ([\d.]+))?\)/.exec(css);
  if (srgb) return [...srgb.slice(1, 4).map((c) => Number(c) * 255), srgb[4] === undefined ? 1 : Number(srgb[4])];
  const [r, g, b, a = 1] = /rgba?\(([^)]+)\)/.exec(css)[1].split(',').map(Number);
  return [r, g, b, a];
}
const hex = (rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
const over = ([r, g, b, a], ground) => hex([r, g, b].map((c, i) => a * c + (1 - a) * parseInt(ground.slice(1 + 2 * i, 3 + 2 * i), 16)));

// Axe cannot judge text over the masked entries' hatch (a background image): every printed entry
// of the lesson's tables is checked here, over both colours of its table's hatch.
for (const hash of ['#preset=journey', '#preset=journey&fill=0', '#preset=journey&fill=-1e9']) {
  test(`every printed entry reads at 4.5:1, masked ones over their hatch: ${hash}`, async () => {
    const { page, close } = await open(hash);
    try {
      await page.addStyleTag({ content: '*, *::before { content-visibility: visible !important; }' });
      const cells = await page.$$eval('#results section.lesson-step:not(.parked) table.heatmap td[data-matrix]', (tds) =>
        tds.map((td) => {
          const style = getComputedStyle(td);
          const table = td.closest('table');
          const hatch = ['grey', 'light', 'yellow'].find((name) => table.classList.contains(`hatch-${name}`));
          return {
            at: `${td.dataset.matrix} ${td.dataset.row},${td.dataset.col} ${td.className} “${td.textContent}”`,
            color: style.color,
            background: style.backgroundColor,
            hatch,
            table: getComputedStyle(table).backgroundColor,
          };
        }),
      );
      assert.ok(
        cells.some((cell) => /masked|hid/.test(cell.at)),
        'masked entries are printed',
      );
      const poor = [];
      for (const { at, color, background, hatch, table } of cells) {
        // (a table without a hatch, the softmax lab's: its own fill, on a white panel)
        const under = hatch ? HATCHES[hatch] : [over(rgba(table), '#ffffff')];
        const grounds = under.map((ground) => over(rgba(background), ground));
        const ratio = Math.min(...grounds.map((ground) => contrast(over(rgba(color), ground), ground)));
        if (ratio < MIN_CONTRAST) poor.push(`${at}: ${ratio.toFixed(2)}`);
      }
      assert.deepEqual(poor, []);
    } finally {
      await close();
    }
  });
}
