// The Train panel in the built page: training in the worker makes the loss fall while the page
// has no task over 50 ms; Pause stops it; the learner's sequence gets a prediction under each
// token; a head opens in the lesson with the trainer's numbers; the gallery's checkpoints open at
// once; a link gives the receiver the sender's model (on the scalar build too); Chinese, the
// keyboard and 375 px. Needs the built site (PLAYGROUND_DIST= for another build).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { createAttention } from '../../web/src/engine/attention.js';
import { openCheckpoint } from '../../web/src/engine/checkpoint.js';
import { parseTrainText } from '../../web/src/state/schema.js';
import { baseUrl, dist, launchChromium, linkNow, repo, screenshotDrawn, screenshots, serveStatic, whenDrawn, openView } from './harness.mjs';

let server;
let browser;
let engine;
before(async () => {
  if (!existsSync(path.join(dist, 'index.html'))) throw new Error(`${dist}/index.html is missing: build the site first`);
  server = await serveStatic(dist);
  browser = await launchChromium();
  engine = await createAttention();
});
after(async () => {
  await browser?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
});

// A fresh page at `hash`, every task over 50 ms recorded (window.longTasks), the Train panel in view.
// withoutSimd: the page is told that WebAssembly SIMD is missing, and picks the scalar build.
async function open(hash = '', { width = 1440, withoutSimd = false, locale = 'en-US', url = null, skipPanel = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale, acceptDownloads: true });
  const page = await context.newPage();
  await page.addInitScript((noSimd) => {
    if (noSimd) WebAssembly.validate = () => false;
    // The training workers the page starts (a link must not start one nobody sees).
    window.trainWorkers = 0;
    const PageWorker = window.Worker;
    window.Worker = class extends PageWorker {
      constructor(url, options) {
        if (/train-worker/.test(String(url))) window.trainWorkers += 1;
        super(url, options);
      }
    };
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  }, withoutSimd);
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  await page.goto(url ?? `${baseUrl(server)}index.html${hash}`);
  await page.waitForSelector('#engine-status[data-build]', { state: 'attached', timeout: 60000 });
  if (!skipPanel) {
    await openView(page, 'train');
    await waitForState(page);
  }
  return { page, errors, close: () => context.close() };
}

// What the panel's status says: { step, loss, accuracy } (the last of its figures).
async function status(page) {
  const text = await page.textContent('#train-status');
  const match = /(?:Step|第) (\d+)\D+?([\d.]+)\D+?([\d.]+) %/.exec(
    text.slice(text.lastIndexOf('Step') >= 0 ? text.lastIndexOf('Step') : text.lastIndexOf('第')),
  );
  assert.ok(match, text);
  return { step: Number(match[1]), loss: Number(match[2]), accuracy: Number(match[3]) / 100 };
}

// Until the panel shows a model's maps and predictions (and, with `step`, that step, paused).
async function waitForState(page, { step = null, tokens = null } = {}) {
  await page.waitForFunction(
    ({ step, tokens }) => {
      const text = document.querySelector('#train-status')?.textContent ?? '';
      if (!document.querySelector('#train-maps canvas') || !document.querySelector('#train-predictions td')) return false;
      if (tokens !== null && document.querySelectorAll('#train-predictions tr:first-child td').length !== tokens) return false;
      if (step === null) return true;
      const last = text.match(/(?:Step|第) (\d+)/g)?.at(-1);
      return document.querySelector('#train-run')?.getAttribute('aria-pressed') === 'false' && last && Number(last.match(/\d+/)[0]) === step;
    },
    { step, tokens },
    { timeout: 60000 },
  );
}

const rowOf = (page, row) => page.$$eval(`#train-predictions tr:nth-child(${row}) td`, (cells) => cells.map((cell) => cell.textContent));

async function typeSequence(page, text, count) {
  await page.fill('#train-sequence', text);
  await waitForState(page, { tokens: count });
  await whenDrawn(page); // (the worker's answer to the last key)
}

// Opens layer `layer`, head `head` (0-based) in the lesson and downloads its attention weights as
// the export panel writes them (every float32 exactly). → number[][]
async function lessonWeights(page, layer, head) {
  await page.click(`button[data-open-layer="${layer}"][data-open-head="${head}"]`);
  await page.waitForFunction(() => location.hash.includes('&x='), null, { timeout: 30000 });
  await page.waitForSelector('section.lesson-step:not(.parked) [data-matrix="weights"]', { timeout: 60000 });
  await page.click('[data-share-open="share-export"]');
  await page.waitForFunction(
    (id) => [...document.querySelectorAll('#share-export-matrix option')].some((o) => o.value === id),
    `weights.${head + 1}`,
  );
  assert.equal(await page.inputValue('#share-export-matrix'), `weights.${head + 1}`, 'the lesson shows that head');
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-export="json"]')]);
  return JSON.parse(readFileSync(await file.path(), 'utf8')).data.map((row) => row.map(Number));
}

const worstDifference = (rows, { data, cols }) => Math.max(...rows.flatMap((row, r) => row.map((v, c) => Math.abs(v - data[r * cols + c]))));

test('Train makes the loss fall and the steps rise in the worker, with no main-thread task over 50 ms; Pause stops it', async () => {
  const { page, errors, close } = await open('');
  try {
    const before = await status(page);
    assert.equal(before.step, 0);
    assert.equal(await page.inputValue('#train-task'), 'induction');
    const start = await page.evaluate(() => performance.now());
    await page.click('#train-run');
    assert.equal(await page.getAttribute('#train-run', 'aria-pressed'), 'true');
    await page.waitForFunction(() => Number((document.querySelector('#train-status').textContent.match(/Step (\d+)/) ?? [0, 0])[1]) >= 1200, null, {
      timeout: 60000,
    });
    await page.click('#train-run'); // Pause
    const end = await page.evaluate(() => performance.now());
    await page.waitForSelector('#train-run[aria-pressed="false"]');
    await whenDrawn(page); // (the worker's answer to Pause)
    const paused = await status(page);
    assert.equal(await page.getAttribute('#train-status', 'data-running'), 'false', 'paused: the worker trains no more');
    await whenDrawn(page);
    assert.equal((await status(page)).step, paused.step, 'paused: no more steps');
    assert.ok(paused.step >= 1200, `${paused.step} steps`);
    assert.ok(paused.loss < before.loss / 4, `loss ${before.loss} → ${paused.loss}`);
    assert.ok(paused.accuracy > 0.8, `accuracy ${paused.accuracy}`);
    // The curve has a point per report, and a map per layer and head.
    const points = (await page.getAttribute('polyline[data-curve="loss"]', 'points')).split(' ');
    assert.ok(points.length > 5, `${points.length} points`);
    assert.equal(await page.locator('#train-maps canvas').count(), 4);

    const tasks = await page.evaluate(({ start, end }) => window.longTasks.filter((task) => task.start >= start && task.start <= end), {
      start,
      end,
    });
    const longest = Math.max(0, ...tasks.map((task) => task.duration));
    console.log(
      `training ${paused.step} steps for ${Math.round(end - start)} ms: ${tasks.length} main-thread tasks over 50 ms, the longest ${Math.round(longest)} ms`,
    );
    assert.equal(tasks.length, 0, JSON.stringify(tasks));
    await screenshotDrawn(page, path.join(screenshots, 'train-en-1440-trained.png'), '#train', { keep: true });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a checkpoint from the gallery opens at once; a typed sequence gets a prediction under each token, a bad one a message', async () => {
  const { page, errors, close } = await open('');
  try {
    await page.click('[data-share-open="share-gallery"]');
    await page.click('a[data-gallery="trained-previous"]');
    await page.waitForFunction(() => /shipped checkpoint/.test(document.querySelector('#train-status').textContent));
    await waitForState(page, { step: 0 });
    assert.match(await page.textContent('#train-status'), /shipped checkpoint \(600 steps, 100\.0 % accuracy/);
    assert.match(page.url(), /train=previous_v2_ckpt_s0/);
    assert.equal(await page.inputValue('#train-task'), 'previous');

    await typeSequence(page, 'a b c d e f', 6);
    assert.deepEqual(await rowOf(page, 1), ['a', 'b', 'c', 'd', 'e', 'f']);
    assert.deepEqual((await rowOf(page, 2)).slice(1), ['a', 'b', 'c', 'd', 'e'], 'each token predicts the one before it');
    assert.deepEqual(await rowOf(page, 3), ['', 'a', 'b', 'c', 'd', 'e'], 'the right answers are the task’s (the core’s)');
    assert.equal(await page.locator('#train-predictions td[data-mark="right"]').count(), 5);

    // A token outside the vocabulary: said, and the predictions stay.
    await page.fill('#train-sequence', 'a b z');
    await page.waitForSelector('#train-sequence-message:not([hidden])');
    assert.match(await page.textContent('#train-sequence-message'), /“z” is not in the vocabulary \(a b c d e f g h i j k l\)/);
    assert.equal(await page.getAttribute('#train-sequence', 'aria-invalid'), 'true');
    assert.deepEqual(await rowOf(page, 1), ['a', 'b', 'c', 'd', 'e', 'f']);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('"open in the lesson" loads the layer’s input and trained weights: the lesson’s weights are the trainer’s map (1e-5)', async () => {
  const { page, errors, close } = await open('#train=induction_ckpt_s0');
  try {
    await waitForState(page, { step: 0 });
    const tokens = 'k d n m b f m b f'.split(' ');
    await typeSequence(page, tokens.join(' '), tokens.length);
    const shown = await lessonWeights(page, 1, 1); // layer 2, head 2: an induction head
    // The same checkpoint in Node, on the same build of the core.
    const trainer = openCheckpoint(engine, readFileSync(path.join(repo, 'web/src/presets/checkpoints/induction.json'), 'utf8'));
    const map = trainer.run(tokens).layers[1].heads[1].attention;
    trainer.dispose();
    assert.equal(shown.length, tokens.length);
    const worst = worstDifference(shown, map);
    console.log(`lesson against the trainer's map: largest difference ${worst.toExponential(2)}`);
    assert.ok(worst <= 1e-5, `${worst}`);
    // The link still carries the panel's model (in the recipe's current version); the lesson's
    // sentence is the sequence.
    assert.match(page.url(), /train=induction_v2_ckpt_s0/);
    assert.equal(await page.inputValue('#sentence'), tokens.join(' '));
    // The lesson says whose head this is, the settings that the weights are trained, and the
    // entry selected is the one the last token reads most (the head's peak).
    assert.match(await page.textContent('#lesson-remark'), /Layer 2, head 2 of the model trained in the Train view \(induction/);
    assert.match(await page.textContent('#settings-summary'), /trained weights/);
    const last = map.data.subarray((tokens.length - 1) * tokens.length, tokens.length * tokens.length);
    const peak = last.indexOf(Math.max(...last));
    assert.equal(await page.getAttribute('#explain', 'data-cell'), `weights.2.${tokens.length}.${peak + 1}`);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a link reproduces the sender’s model: predictions and maps, on the scalar build within 1e-3', async () => {
  const sender = await open('');
  const tokens = 'c f a k e b g'.split(' ');
  let link;
  let sent;
  try {
    await sender.page.selectOption('#train-task', 'previous');
    await waitForState(sender.page, { step: 0 });
    await sender.page.click('#train-run');
    await sender.page.waitForFunction(
      () => Number((document.querySelector('#train-status').textContent.match(/Step (\d+)/) ?? [0, 0])[1]) >= 150,
      null,
      { timeout: 60000 },
    );
    await sender.page.click('#train-run');
    await sender.page.waitForSelector('#train-run[aria-pressed="false"]');
    await whenDrawn(sender.page); // (the worker's answer to Pause)
    const { step } = await status(sender.page);
    await sender.page.waitForFunction((step) => location.hash.includes(`_s${step}`), step, { timeout: 10000 });
    link = sender.page.url();
    const { steps, config } = parseTrainText(decodeURIComponent(/train=([^&]+)/.exec(link)[1]));
    assert.equal(steps, step);
    // Every config field, those the panel does not show included (T, B, V: the task's defaults).
    const vocab = 'a b c d e f g h i j k l'.split(' ');
    assert.deepEqual(config, {
      contextLength: 12,
      batchSize: 16,
      vocab,
      layers: 1,
      heads: 1,
      dModel: 16,
      mlp: false,
      layerNorm: false,
      positions: 'learned',
      learningRate: 0.01,
      seed: 1,
    });
    await typeSequence(sender.page, tokens.join(' '), tokens.length);
    sent = { steps, predictions: await rowOf(sender.page, 2), weights: await lessonWeights(sender.page, 0, 0) };
    assert.deepEqual(sender.errors, []);
  } finally {
    await sender.close();
  }
  const receiver = await open('', { url: link, withoutSimd: true });
  try {
    assert.equal(await receiver.page.getAttribute('#engine-status', 'data-build'), 'scalar');
    await waitForState(receiver.page, { step: sent.steps });
    await typeSequence(receiver.page, tokens.join(' '), tokens.length);
    assert.deepEqual(await rowOf(receiver.page, 2), sent.predictions);
    const weights = await lessonWeights(receiver.page, 0, 0);
    const worst = Math.max(...weights.flatMap((row, r) => row.map((v, c) => Math.abs(v - sent.weights[r][c]))));
    console.log(`${sent.steps} steps re-trained on the scalar build: largest map difference ${worst.toExponential(2)}`);
    assert.ok(worst <= 1e-3, `${worst}`);
    assert.deepEqual(receiver.errors, []);
  } finally {
    await receiver.close();
  }
});

test('an old link (no train field) opens as before, and the model the panel opens by itself stays out of the link', async () => {
  const { page, errors, close } = await open('#preset=journey&v=1&mask=none');
  try {
    assert.equal(await page.inputValue('#sentence'), 'Your journey starts with one step');
    assert.match(await page.textContent('#train-status'), /Step 0/);
    assert.equal(await page.inputValue('#train-task'), 'induction');
    await linkNow(page); // (the address is rewritten in idle time: now)
    assert.doesNotMatch(page.url(), /train=/);
    await openView(page, 'attention');
    assert.equal(await page.isVisible('#preset-note'), true);
    assert.doesNotMatch(await page.textContent('#preset-note'), /^Changed/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('train_hide=1 hides the panel, and its worker never starts', async () => {
  const { page, errors, close } = await open('#train_hide=1', { skipPanel: true });
  try {
    assert.equal(await page.isVisible('#train'), false);
    await whenDrawn(page);
    assert.match(await page.textContent('#train-status'), /Not trained yet/);
    assert.equal(await page.evaluate(() => window.trainWorkers), 0);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

const LONG = 'text_L4_H8_C128_mlp1_ln1_poslearned_lr1_seed7_s100000';

test('a link whose training is long, or whose panel is hidden or in another view, says what it would do and how long, and trains on a click', async () => {
  for (const hash of [`#train_hide=1&train=${LONG}`, `#embed=1&view=attention&train=${LONG}`]) {
    const { page, errors, close } = await open(hash, { skipPanel: true });
    try {
      await page.waitForSelector('#train-notice:not([hidden]) #train-offer');
      const offer = await page.textContent('#train-notice');
      assert.match(
        offer,
        /the text \(next character\) model trained for 100000 steps: about \d+(\.\d)? h here\. It trains only when you ask\./,
        hash,
      );
      assert.equal(await page.isVisible('#train-offer-start'), true, hash);
      assert.equal(await page.evaluate(() => window.trainWorkers), 0, `${hash}: no worker before the click`);
      await page.click('#train-offer-start');
      await page.waitForFunction(() => /step [1-9]\d* of 100000/.test(document.querySelector('#train-notice').textContent), null, { timeout: 60000 });
      assert.equal(await page.evaluate(() => window.trainWorkers), 1);
      await page.click('#train-offer-start'); // Pause
      await page.waitForFunction(() => document.querySelector('#train-offer-start').textContent === 'Train');
      assert.deepEqual(errors, [], hash);
    } finally {
      await close();
    }
  }
  // In sight, the model opens untrained and waits: its maps are there, its training is not.
  const { page, errors, close } = await open(`#train=${LONG}`);
  try {
    await waitForState(page, { step: 0 });
    assert.match(await page.textContent('#train #train-offer'), /100000 steps: about \d+(\.\d)? h here/);
    assert.equal(await page.getAttribute('#train-run', 'aria-pressed'), 'false');
    assert.equal(await page.isVisible('#train-notice'), false);
    assert.equal((await status(page)).step, 0);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a bad train field is named with what was expected, and the page opens without it', async () => {
  const cases = {
    text_ckpt_s0: /train: the text task has no shipped checkpoint \(these have one: previous, induction, sort\); no model is opened\./,
    reverse_ckpt_s10: /train: the reverse task has no shipped checkpoint/,
    copy_ckpt_s0: /train: “copy” is not a task \(tasks: previous, induction, reverse, sort, text\)/,
    'induction_L9_H2_C32_mlp0_ln0_poslearned_lr0.01_seed1_s5': /train: “L9” is out of range \(L takes 1 … 4\)/,
  };
  for (const [value, message] of Object.entries(cases)) {
    const { page, errors, close } = await open(`#train=${value}`);
    try {
      await page.waitForSelector('#share-notice:not([hidden])');
      const notes = await page.$$eval('#share-notice li', (items) => items.map((item) => item.textContent));
      assert.ok(
        notes.some((note) => message.test(note)),
        `${value}: ${notes.join(' | ')}`,
      );
      assert.ok(
        notes.every((note) => !/\{\w+\}/.test(note)),
        `${value}: a placeholder left in ${notes.join(' | ')}`,
      );
      assert.equal((await status(page)).step, 0); // (the panel's own model, as without the field)
      assert.deepEqual(errors, [], value);
    } finally {
      await close();
    }
  }
});

test('every control of the panel is reached with Tab and works with the keyboard', async () => {
  const { page, errors, close } = await open('#train=previous_ckpt_s0');
  try {
    await waitForState(page, { step: 0 });
    await page.focus('#train-task');
    const reached = ['train-task'];
    for (let k = 0; k < 30 && !reached.includes('train-sequence'); k += 1) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName));
    }
    for (const id of [
      'train-layers',
      'train-heads',
      'train-d-model',
      'train-mlp',
      'train-ln',
      'train-positions',
      'train-lr',
      'train-seed',
      'train-run',
      'train-step',
      'train-reset',
      'train-sequence',
    ]) {
      assert.ok(reached.includes(id), `${id} in ${reached.join(', ')}`);
    }
    // Step with the keyboard, then Train and Pause.
    await page.focus('#train-step');
    await page.keyboard.press('Enter');
    await waitForState(page, { step: 1 });
    await page.focus('#train-run');
    await page.keyboard.press('Space');
    assert.equal(await page.getAttribute('#train-run', 'aria-pressed'), 'true');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#train-run[aria-pressed="false"]');
    // The maps are focusable, and so is each "open in the lesson".
    assert.equal(await page.getAttribute('#train-maps canvas', 'tabindex'), '0');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

for (const [lang, locale] of [
  ['en', 'en-US'],
  ['zh', 'zh-CN'],
]) {
  for (const width of [1440, 375]) {
    test(`the panel in ${lang} at ${width} px: nothing cut off, the maps scroll sideways in their box`, async () => {
      const hash = `#train=induction_ckpt_s0${lang === 'zh' ? '&lang=zh-CN' : ''}`;
      const { page, errors, close } = await open(hash, { width, locale });
      try {
        await waitForState(page, { step: 0 });
        assert.equal(await page.textContent('#train-title'), lang === 'zh' ? '训练一个小型 Transformer' : 'Train a tiny transformer');
        const sizes = await page.evaluate(() => {
          const panel = document.querySelector('#train').getBoundingClientRect();
          const maps = document.querySelector('#train-maps');
          return { page: document.documentElement.scrollWidth, right: panel.right, maps: [maps.scrollWidth, maps.clientWidth] };
        });
        assert.ok(sizes.page <= width, `the page is ${sizes.page} px wide`);
        assert.ok(sizes.right <= width, `the panel ends at ${sizes.right} px`);
        if (width === 375) assert.ok(sizes.maps[0] > sizes.maps[1], `the maps (${sizes.maps[0]} px) scroll in their box (${sizes.maps[1]} px)`);
        await screenshotDrawn(page, path.join(screenshots, `train-${lang}-${width}.png`), '#train');
        assert.deepEqual(errors, []);
      } finally {
        await close();
      }
    });
  }
}
