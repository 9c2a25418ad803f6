// Exercises as a learner meets them: a link's questions above the lesson, the asked entries "?"
// in every view (no text, label or tooltip holds them), a wrong answer then a right one, the
// answers kept across a reload, the score posted to a course page, and hostile exercise links;
// then the teacher's side: the builder, its link and the snippet in a course page of another origin.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { baseUrl, dist, launchChromium, repo, screenshots, serveStatic, whenDrawn, saveScreenshot, openView } from './harness.mjs';

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
    const modernWaits = () => page.$eval('#modern-views', (views) => views.hidden); // (in its own view, hidden itself)
    assert.equal(await modernWaits(), true);
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
    assert.equal(await modernWaits(), false, 'answered: the panels are back');
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

// The builder's ask buttons: whether each is enabled, and the reason a disabled one gives.
const asks = (page) =>
  page.$$eval('#exercise-builder .builder-actions button', (buttons) =>
    buttons.map((b) => ({ enabled: !b.disabled, why: b.title, faded: Number(getComputedStyle(b).opacity) < 0.6 })),
  );

// A course page of its own origin (another port) holding `snippet` as an author pastes it.
async function courseServer(snippet) {
  const dir = mkdtempSync(path.join(tmpdir(), 'course-'));
  writeFileSync(
    path.join(dir, 'quiz.html'),
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>A course</title></head>\n<body style="max-width:800px;margin:0 auto">\n<h1>Lecture 3</h1>\n${snippet}\n</body></html>\n`,
  );
  return serveStatic(dir);
}

test('a teacher builds a quiz as a person would: cells clicked, buttons that say why they wait, a link, and a snippet whose course page gets the score', async (t) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  let course = null;
  try {
    await page.goto(`${baseUrl(server)}index.html#preset=journey&v=1`); // (all steps: the quiz embed shows one)
    await page.waitForSelector('#results td[data-matrix="weights"]');
    await whenDrawn(page);
    await openView(page, 'exercises');
    assert.match(await page.innerText('.builder-selected'), /^No entry selected\.$/);
    const noCell = 'Click an entry of the lesson below to ask it or its row.';
    assert.deepEqual(await asks(page), [
      { enabled: false, why: noCell, faded: true },
      { enabled: false, why: noCell, faded: true },
      { enabled: false, why: noCell, faded: true },
      { enabled: true, why: '', faded: false },
    ]);
    assert.equal(await page.innerText('#builder-why'), noCell, 'said beside the buttons too');
    const empty = 'The link and the snippet appear here once a question is complete.';
    assert.equal(await page.getAttribute('#builder-try', 'aria-disabled'), 'true');
    assert.equal(await page.getAttribute('#builder-try', 'title'), empty);
    assert.equal(await page.getAttribute('#builder-link', 'placeholder'), empty);
    await saveScreenshot(page.locator('#exercise-builder'), { path: path.join(screenshots, 'exercise-builder-nothing-selected.png') });

    const clickCell = async (name, row, col) => {
      await page.click(`#results td[data-matrix="${name}"][data-row="${row}"][data-col="${col}"]`);
      await whenDrawn(page);
    };
    await clickCell('weights', 1, 0);
    assert.equal(await page.innerText('.builder-selected'), 'Selected: a₂₁ of head 1');
    assert.equal(await page.isVisible('#builder-why'), false);
    await page.click('#builder-ask-entry');
    await clickCell('x', 1, 0);
    assert.equal(await page.innerText('.builder-selected'), 'Selected: x₂₁');
    const row = 'A row is asked of A (the weights) or M (the mask): select an entry of one of them.';
    assert.deepEqual(
      (await asks(page)).map((b) => b.why),
      ['', row, 'The largest key is asked of A only: select a weight.', ''],
    );
    await clickCell('weights', 2, 4);
    await page.click('#builder-ask-zeros');

    // A new choice is empty: what it lacks is guidance, and the link holds the other two meanwhile.
    await page.click('#builder-ask-choice');
    assert.equal(await page.isVisible('.builder-full'), false, 'no error for a question not yet written');
    assert.equal(await page.innerText('#builder-q2-missing'), 'Still to write, in either language: the question, option 1, option 2.');
    assert.equal(await page.innerText('.builder-left-out'), 'Not in the link until it is complete: question 3.');
    assert.equal(JSON.parse(decodeURIComponent((await page.inputValue('#builder-link')).split('ex=')[1].split('&')[0])).questions.length, 2);
    await page.fill('#builder-q2-prompt-en', 'Softmax runs over…');
    await page.fill('#builder-q2-prompt-zh-CN', 'softmax 作用于……');
    await page.fill('#builder-q2-option0-en', 'each row');
    assert.equal(await page.innerText('#builder-q2-missing'), 'Still to write, in either language: option 2.');
    await page.fill('#builder-q2-option1-en', '<b>each column</b>');
    await page.selectOption('#builder-q2-answer', { label: 'Option 1' });
    assert.equal(await page.isVisible('#builder-q2-missing'), false);
    assert.equal(await page.isVisible('.builder-left-out'), false);
    assert.equal(await page.getAttribute('#builder-try', 'aria-disabled'), null);
    await page.fill('#builder-q0-hint-en', 'Divide by the row’s sum.');
    await page.fill('#builder-title-en', 'My quiz');
    // The choice first: moved up twice; the ends say why they do not move.
    await page.click('button[aria-label="Move question 3 up"]');
    await page.click('button[aria-label="Move question 2 up"]');
    assert.equal(await page.getAttribute('button[aria-label="Move question 1 up"]', 'title'), 'This is the first question.');
    assert.deepEqual(await page.$$eval('.builder-q-what', (items) => items.map((i) => i.textContent)), [
      'Multiple choice',
      'Predict a₂₁ of head 1',
      'Mark the keys of weight 0 in row 3 (“starts”) of A, head 1',
    ]);
    await saveScreenshot(page.locator('#exercise-builder'), { path: path.join(screenshots, 'exercise-builder.png'), keep: true });
    const link = await page.inputValue('#builder-link');
    const snippet = await page.inputValue('#builder-snippet');
    assert.doesNotMatch(link, /0\.423/, 'no answer in the link');
    assert.doesNotMatch(decodeURIComponent(link), /"answer"/, 'the right option as a check, not an index');

    // The snippet in a course page of another origin: the frame fits its quiz and one step of the
    // lesson, and the page shows the score the frame posts after an answer.
    assert.match(snippet, /^<iframe id="ap-exercise-[0-9a-f]{8}" src="[^"]+&amp;step=softmax&amp;[^"]*embed=1"/);
    course = await courseServer(snippet);
    const host = await context.newPage();
    host.on('pageerror', (error) => errors.push(`host: ${error.message}`));
    await host.setViewportSize({ width: 800, height: 900 });
    await host.goto(`${baseUrl(course)}quiz.html`);
    assert.notEqual(new URL(host.url()).origin, new URL(baseUrl(server)).origin);
    const frame = await (await host.waitForSelector('iframe')).contentFrame();
    await frame.waitForSelector('#exercise-q1');
    await whenDrawn(frame);
    assert.equal(await frame.locator('#results section.lesson-step:visible').count(), 1, 'one step of the lesson');
    assert.equal(await frame.getAttribute('#results section.lesson-step:visible', 'data-step'), 'softmax');
    await host.waitForFunction(() => document.querySelector('iframe').style.height !== '640px');
    const fitted = await host.$eval('iframe', (f) => f.getBoundingClientRect().height);
    const content = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    assert.equal(fitted, content, 'the frame is as tall as its content');
    assert.ok(fitted < 2000, `the quiz's frame is ${fitted} px`);
    t.diagnostic(`three-question quiz embedded at 800 px: ${fitted} px`);
    assert.match(await host.textContent('output'), /^Score: not answered yet$/);
    await frame.fill('#exercise-q1', '0.423');
    await frame.press('#exercise-q1', 'Enter');
    await host.waitForFunction(() => document.querySelector('output').textContent === 'Score: 1 of 3 done, 1 right');
    await saveScreenshot(host, { path: path.join(screenshots, 'exercise-builder-embedded.png'), fullPage: true, keep: true });

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
    await new Promise((resolve) => (course ? course.close(resolve) : resolve()));
  }
});

test('the builder on a phone and in Chinese: names, guidance and buttons fit', async () => {
  for (const [lang, width] of [
    ['en', 375],
    ['zh-CN', 1440],
    ['zh-CN', 375],
  ]) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    try {
      await page.goto(`${baseUrl(server)}index.html#preset=journey&v=1&step=softmax&lang=${lang}`);
      await page.waitForSelector('#results td[data-matrix="weights"]');
      await whenDrawn(page);
      await openView(page, 'exercises');
      await page.click('#results td[data-matrix="weights"][data-row="2"][data-col="1"]');
      await whenDrawn(page);
      await page.click('#builder-ask-entry');
      await page.click('#builder-ask-choice');
      const chinese = lang === 'zh-CN';
      assert.equal(await page.innerText('.builder-selected'), chinese ? '已选中：第 1 个头的 a₃₂' : 'Selected: a₃₂ of head 1');
      assert.equal(
        await page.innerText('#builder-q1-missing'),
        chinese ? '还需填写（中英文任一即可）：题目、选项 1、选项 2。' : 'Still to write, in either language: the question, option 1, option 2.',
      );
      const overflow = await page.$eval('#exercise-builder', (el) => el.scrollWidth - el.clientWidth);
      assert.ok(overflow <= 0, `${lang} at ${width} px: the builder is ${overflow} px wider than its box`);
      await saveScreenshot(page.locator('#exercise-builder'), { path: path.join(screenshots, `exercise-builder-${lang}-${width}.png`) });
    } finally {
      await context.close();
    }
  }
});
