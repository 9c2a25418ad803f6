// Exercises as a learner meets them: a link's questions above the lesson, the asked entries "?"
// in every view (no text, label or tooltip holds them), a wrong answer then a right one, the
// answers kept across a reload, the score posted to a course page, and hostile exercise links.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { baseUrl, dist, launchChromium, repo, screenshots, serveStatic, whenDrawn, saveScreenshot } from './harness.mjs';

let server;
let site; // the repository, for examples/course-page.html (its frames load ../dist/)
let browser;
before(async () => {
  mkdirSync(screenshots, { recursive: true });
  server = await serveStatic(dist);
  site = await serveStatic(repo);
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  for (const s of [server, site]) await new Promise((resolve) => (s ? s.close(resolve) : resolve()));
});

const WORKED = {
  title: { en: 'The worked example', 'zh-CN': '教程中的例子' },
  questions: [
    { kind: 'number', cell: 'weights.1.2.1', hint: { en: 'e^(s₂₁ − max) divided by the row’s sum', 'zh-CN': 'e^(s₂₁ − max) 除以这一行的和' } },
    { kind: 'pattern', row: 'mask.3' },
    {
      kind: 'choice',
      prompt: { en: 'Softmax runs over…', 'zh-CN': 'softmax 作用于……' },
      options: [
        { en: 'each row', 'zh-CN': '每一行' },
        { en: 'each column', 'zh-CN': '每一列' },
      ],
      answer: 0,
    },
  ],
};
const linkOf = (exercise, extra = '') => `#preset=journey&v=1&step=all${extra}&ex=${encodeURIComponent(JSON.stringify(exercise))}`;

async function open(hash, { viewport = { width: 1440, height: 900 }, context = null } = {}) {
  const own = context ?? (await browser.newContext({ viewport, locale: 'en-US' }));
  const page = await own.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && errors.push(`console: ${message.text()}`));
  await page.goto(`${baseUrl(server)}index.html${hash}`);
  await page.waitForSelector('#exercise .exercise-q');
  await page.waitForSelector('#results td[data-matrix="weights"]');
  await whenDrawn(page);
  return { page, errors, close: () => (context ? page.close() : own.close()) };
}

// Every text node and attribute of the page that shows one of `values` as the page prints numbers.
const leaks = (page, values) =>
  page.evaluate((printed) => {
    const found = [];
    const hit = (text) => printed.some((value) => new RegExp(`(^|[^\\d])${value.replace('.', '\\.')}($|[^\\d])`).test(text));
    const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let node = walker.currentNode; node; node = walker.nextNode()) {
      if (node.nodeType === 3 && hit(node.data) && !node.parentElement.closest('#share-gallery, script, style'))
        found.push(`text: ${node.data.slice(0, 80)}`);
      if (node.nodeType === 1)
        for (const a of node.attributes) if (a.name !== 'href' && hit(a.value)) found.push(`${a.name}: ${a.value.slice(0, 80)}`);
    }
    return found;
  }, values);

test('an exercise hides what it asks on every view, takes a wrong then a right answer, and shows the worked explanation', async () => {
  const { page, errors, close } = await open(linkOf(WORKED));
  try {
    assert.match(await page.innerText('#exercise h2'), /Exercise: The worked example/);
    assert.match(await page.innerText('#exercise .exercise-score'), /0 of 3 done/);
    // a₂₁ = 0.423 and the rest of its row (0.577), o₂ and the output's row 2: "?" everywhere.
    const row2 = await page.$$eval('#results td[data-matrix="weights"][data-row="1"]', (cells) => cells.map((c) => c.textContent));
    assert.deepEqual(row2, ['?', '?', '?', '?', '?', '?']);
    assert.deepEqual(await page.$$eval('#overview td[data-matrix="weights"][data-row="1"]', (cells) => cells.map((c) => c.textContent)), row2);
    assert.equal(await page.textContent('#results td[data-matrix="context"][data-row="1"][data-col="0"]'), '?');
    assert.equal(await page.textContent('#results td[data-matrix="output"][data-row="1"][data-col="0"]'), '?');
    // Row 3 of M is asked too: the mask's row and what follows from it.
    assert.equal(await page.textContent('#results td[data-matrix="mask"][data-row="2"][data-col="3"]'), '?');
    assert.deepEqual(await leaks(page, ['0.423', '0.499', '0.566', '0.757']), []); // (a₂₂ = 0.577 prints as s₁₁ does)
    assert.equal(await page.isVisible('#token-view .tv-nan, #token-view [class*="nan"]'), false, 'no "naive softmax made NaN" note for a "?"');
    // The panels that run the engine again (FlashAttention, KV cache, RoPE) wait for the answers.
    assert.equal(await page.locator('#modern-views').isHidden(), true);
    // Pointed at, the "?" explains its formula and its inputs, not its value.
    await page.hover('#results td[data-matrix="weights"][data-row="1"][data-col="0"]');
    await page.waitForFunction(() => document.querySelector('#explain')?.dataset.cell === 'weights.1.2.1');
    assert.match(await page.innerText('#explain'), /an exercise asks you to predict this entry/);
    assert.deepEqual(await leaks(page, ['0.423']), []);
    // The softmax lab on row 2: "?" in its table and its sums, no note naming the largest weight.
    await page.click('#softmax-lab button[data-lab-row="1"]');
    await page.waitForFunction(() => document.querySelector('#softmax-lab td[data-matrix="lab"][data-row="0"][data-col="2"]')?.textContent === '?');
    assert.match(await page.innerText('#softmax-lab .lab-summary'), /Σ e\^\(z − max\) = \?/);
    assert.equal(await page.isVisible('#lab-relative'), false);
    assert.deepEqual(await leaks(page, ['0.423', '0.732', '1.732']), []);

    await page.fill('#exercise-q0', '0.5');
    await page.press('#exercise-q0', 'Enter');
    await page.waitForSelector('#exercise li[data-q="0"] .exercise-feedback:not(:empty)');
    assert.match(await page.innerText('#exercise li[data-q="0"]'), /Not quite\. e\^\(s₂₁ − max\) divided by the row’s sum/);
    assert.deepEqual(await leaks(page, ['0.423']), [], 'a wrong answer reveals nothing');
    await page.fill('#exercise-q0', '0.42');
    await page.click('#exercise li[data-q="0"] .exercise-check');
    await page.waitForSelector('#exercise li[data-q="0"][data-state="right"]');
    const worked = await page.innerText('#exercise li[data-q="0"]');
    assert.match(worked, /✓ Right\./);
    assert.match(worked, /a₂₁ = 0\.732 \/ 1\.732 ≈ 0\.423/, 'the worked explanation');
    // Answered: its row is on the page again.
    await page.waitForFunction(
      () => document.querySelector('#results td[data-matrix="weights"][data-row="1"][data-col="0"]').textContent === '0.423',
    );
    assert.match(await page.innerText('#exercise .exercise-score'), /1 of 3 done · 1 right/);

    // The pattern: masked keys of row 3 are 4, 5, 6; marking 3 and 4 is wrong cell by cell.
    const keys = page.locator('#exercise li[data-q="1"] .exercise-key');
    await keys.nth(2).click();
    await keys.nth(3).click();
    await page.click('#exercise li[data-q="1"] .exercise-check');
    await page.waitForSelector('#exercise li[data-q="1"] .exercise-feedback:not(:empty)');
    assert.match(await page.innerText('#exercise li[data-q="1"]'), /Not quite\./);
    const again = page.locator('#exercise li[data-q="1"] .exercise-key');
    await again.nth(2).click(); // (the marks are kept: unmark 3, mark 5 and 6)
    await again.nth(4).click();
    await again.nth(5).click();
    await page.click('#exercise li[data-q="1"] .exercise-check');
    await page.waitForSelector('#exercise li[data-q="1"][data-state="right"]');
    // The choice, by keyboard: a wrong first answer ends it (with two options a second try is no
    // prediction), with the right option shown.
    await page.focus('#exercise li[data-q="2"] input[value="1"]');
    await page.keyboard.press('Space');
    await page.click('#exercise li[data-q="2"] .exercise-check');
    await page.waitForSelector('#exercise li[data-q="2"][data-state="wrong"]');
    assert.match(await page.innerText('#exercise li[data-q="2"]'), /Not quite\.[\s\S]*The answer: each row/);
    assert.equal(await page.locator('#exercise li[data-q="2"] .exercise-check').isDisabled(), true, 'no second try');
    assert.match(await page.innerText('#exercise .exercise-score'), /3 of 3 done · 2 right/);
    assert.equal(await page.locator('td.asked').count(), 0, 'nothing is asked any more');
    assert.equal(await page.locator('#modern-views').isHidden(), false, 'answered: the panels are back');
    await saveScreenshot(page, { path: path.join(screenshots, 'exercise-answered.png'), keep: true });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('answers survive a reload, per exercise, and the example course page collects the score of its exercise', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  try {
    const first = await open(linkOf(WORKED), { context });
    await first.page.fill('#exercise-q0', '0.423');
    await first.page.press('#exercise-q0', 'Enter');
    await first.page.waitForSelector('#exercise li[data-q="0"][data-state="right"]');
    await first.page.reload();
    await first.page.waitForSelector('#exercise li[data-q="0"][data-state="right"]');
    assert.match(await first.page.innerText('#exercise .exercise-score'), /1 of 3 done · 1 right/);
    await first.close();
    // Another exercise starts from nothing.
    const other = await open(linkOf({ ...WORKED, title: 'Another' }), { context });
    assert.match(await other.page.innerText('#exercise .exercise-score'), /0 of 3 done/);
    await other.close();

    // The example course page holds an exercise in a frame and shows the score it posts.
    const host = await context.newPage();
    await host.goto(`${baseUrl(site)}examples/course-page.html`);
    await host.locator('#exercise-worked').scrollIntoViewIfNeeded();
    const frame = await (await host.waitForSelector('#exercise-worked')).contentFrame();
    await frame.waitForSelector('#exercise-q0');
    assert.match(await frame.innerText('#exercise h2'), /练习：教程中的例子：s₂₁、a₂₁ 和 o₂/);
    assert.equal(await frame.textContent('td[data-matrix="weights"][data-row="1"][data-col="0"]'), '?');
    assert.match(await frame.innerText('#exercise li[data-q="0"] .exercise-prompt'), /先预测 s₂₁/);
    await frame.fill('#exercise-q0', '0,551');
    await frame.press('#exercise-q0', 'Enter');
    await host.waitForFunction(() => document.getElementById('exercise-worked-score').textContent === '已完成 1/5，答对 1');
    await frame.fill('#exercise-q1', '0.3');
    await frame.press('#exercise-q1', 'Enter');
    await frame.waitForSelector('#exercise li[data-q="1"] .exercise-feedback:not(:empty)');
    assert.equal(await host.textContent('#exercise-worked-score'), '已完成 1/5，答对 1', 'one wrong try: not done yet');
    await saveScreenshot(host.locator('#exercise-worked'), { path: path.join(screenshots, 'exercise-course-page.png'), keep: true });
  } finally {
    await context.close();
  }
});

test('a hostile exercise link opens with its valid part and a message, and runs no script', async () => {
  const hostile = {
    title: '<img src=x onerror="window.pwned=1">',
    questions: [
      { kind: 'number', cell: 'weights.1.2.1', prompt: '<script>window.pwned=2</script>', hint: '<b onmouseover=alert(1)>x</b>' },
      { kind: 'number', cell: 'weights.9.9.9' },
      { kind: 'number', cell: 'x.1.1"><img src=x onerror=alert(1)>' },
      { kind: 'choice', prompt: 'p', options: ['<svg onload="window.pwned=3">', 'b'], answer: 0 },
      ...Array.from({ length: 100 }, () => ({ kind: 'choice', prompt: 'q', options: ['a', 'b'], answer: 1 })),
    ],
  };
  const { page, errors, close } = await open(linkOf(hostile));
  try {
    const problems = await page.innerText('#exercise .exercise-problems');
    assert.match(problems, /104 questions: the first 20 are shown/);
    assert.match(problems, /Question 3 of the exercise is not one the page can ask/);
    assert.match(problems, /Question 2 asks for an entry these tokens and heads do not have/);
    assert.equal(await page.locator('#exercise .exercise-q').count(), 18);
    assert.match(await page.innerText('#exercise h2'), /<img src=x onerror/, 'shown as text');
    assert.match(await page.innerText('#exercise li[data-q="0"] .exercise-prompt'), /<script>window\.pwned=2<\/script>/);
    assert.equal(await page.evaluate(() => window.pwned), undefined);
    assert.equal(await page.locator('#exercise img, #exercise script, #exercise svg, #exercise b').count(), 0);
    // Not JSON at all: the page opens its state without an exercise, and says so. (Only the
    // fragment changes: the same page redraws, after the event's task; read it once idle.)
    await page.goto(`${baseUrl(server)}index.html#preset=journey&v=1&ex=%7Bnot%20json`);
    await page.waitForSelector('#exercise .exercise-problems li');
    assert.match(await page.innerText('#exercise'), /could not be read/);
    await page.waitForSelector('#results td[data-matrix="weights"]');
    await whenDrawn(page);
    assert.equal(await page.locator('td.asked').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a phone shows the exercise whole, in Chinese', async () => {
  const { page, errors, close } = await open(linkOf(WORKED, '&lang=zh-CN'), { viewport: { width: 375, height: 812 } });
  try {
    const overflow = await page.$eval('#exercise', (el) => el.scrollWidth - el.clientWidth);
    assert.ok(overflow <= 0, `the exercise is ${overflow} px wider than its box`);
    assert.match(await page.innerText('#exercise'), /先预测 a₂₁/);
    await saveScreenshot(page.locator('#exercise'), { path: path.join(screenshots, 'exercise-phone-zh.png') });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a teacher builds an exercise from the page: selected entries become questions, reordered, then a link and a snippet', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  try {
    await page.goto(`${baseUrl(server)}index.html#preset=journey&v=1&step=softmax`);
    await page.waitForSelector('#results td[data-matrix="weights"]');
    await page.click('#exercise-builder > summary');
    assert.match(await page.innerText('#exercise-builder'), /No entry selected/);
    await page.click('#results td[data-matrix="weights"][data-row="1"][data-col="0"]');
    await page.waitForFunction(() => /Selected: weights\.1\.2\.1/.test(document.querySelector('#exercise-builder').innerText));
    await page.click('#builder-ask-entry');
    await page.click('#results td[data-matrix="weights"][data-row="2"][data-col="4"]');
    await page.click('#builder-ask-zeros');
    await page.click('#builder-ask-choice');
    await page.fill('#builder-q2-prompt-en', 'Softmax runs over…');
    await page.fill('#builder-q2-prompt-zh-CN', 'softmax 作用于……');
    await page.fill('#builder-q2-option0-en', 'each row');
    await page.fill('#builder-q2-option1-en', '<b>each column</b>');
    await page.fill('#builder-q0-hint-en', 'Divide by the row’s sum.');
    await page.fill('#builder-title-en', 'My quiz');
    // The choice first: moved up twice.
    await page.click('button[aria-label="Move question 3 up"]');
    await page.click('button[aria-label="Move question 2 up"]');
    assert.deepEqual(await page.$$eval('.builder-q-what', (items) => items.map((i) => i.textContent)), [
      'Multiple choice',
      'Predict the entry weights.1.2.1',
      'Mark the keys of weight 0 in weights.1.3',
    ]);
    await saveScreenshot(page.locator('#exercise-builder'), { path: path.join(screenshots, 'exercise-builder.png') });
    const link = await page.inputValue('#builder-link');
    const snippet = await page.inputValue('#builder-snippet');
    assert.match(snippet, /^<iframe src="[^"]+embed=1[^"]*"/);
    assert.doesNotMatch(link, /0\.423/, 'no answer in the link');
    assert.doesNotMatch(decodeURIComponent(link), /"answer"/, 'the right option as a check, not an index');
    // Opened, the link is the exercise.
    await page.goto('about:blank');
    await page.goto(link);
    await page.waitForSelector('#exercise .exercise-q');
    assert.match(await page.innerText('#exercise h2'), /Exercise: My quiz/);
    const prompts = await page.$$eval('#exercise .exercise-prompt', (items) => items.map((i) => i.textContent));
    assert.deepEqual(prompts.slice(0, 2), ['Softmax runs over…', 'Predict a₂₁ to within ±0.01, then check.']);
    assert.match(prompts[2], /Row 3 \(“starts”\) of A, head 1: which keys get a weight of exactly 0/);
    assert.match(await page.innerText('#exercise li[data-q="0"]'), /<b>each column<\/b>/, 'a teacher’s text is text');
    await page.waitForSelector('#results td.asked');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
