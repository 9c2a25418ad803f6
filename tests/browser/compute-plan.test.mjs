// One compute plan: for ten interactions a reader makes, the engine runs the page makes are
// counted — each distinct run at most once per change, every one of them a run the page's plan
// asked for, and none at all where only the place looked at changed. The page says when it is
// drawn (window.attentionPlayground.whenDrawn), and the test waits for that, not for the clock.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { openSettings, openView } from './harness.mjs';
import { startBrowser } from './heads-harness.mjs';

let harness;
before(async () => {
  harness = await startBrowser();
});
after(async () => {
  await harness?.close();
});

const drawn = (page) => page.evaluate(() => window.attentionPlayground.whenDrawn());

// The engine runs of one interaction: `act` done, the page drawn. → the keys of the runs made.
async function runsOf(page, act) {
  await drawn(page);
  const mark = await page.evaluate(() => window.attentionPlayground.engineRuns().length);
  await act();
  await drawn(page);
  const { made, planned } = await page.evaluate(() => ({
    made: window.attentionPlayground.engineRuns(),
    planned: window.attentionPlayground.plannedRuns(),
  }));
  const runs = made.slice(mark);
  const seen = new Set();
  for (const key of runs) {
    if (key === 'once' || key === 'tokenEmbeddings') continue; // (a tool's own run: not the plan's)
    assert.ok(!seen.has(key), `a run made twice in one change: ${key.slice(0, 80)}`);
    assert.ok(planned.includes(key), `a run the plan did not ask for: ${key.slice(0, 80)}`);
    seen.add(key);
  }
  return runs;
}

test('ten interactions: each distinct run at most once per change, and none where only the view changes', async () => {
  const { page, errors, close } = await harness.open('#preset=journey');
  try {
    const counts = {};
    // (a sliding window: the unmasked result is the lesson's companion, made already)
    counts.mask = await runsOf(page, () => page.check('input[name="lesson-mask"][value="window"]'));
    assert.ok(counts.mask.length >= 1, 'the new mask is computed');
    counts.tau = await runsOf(page, () => page.fill('#lesson-tau', '0.5'));
    counts.cell = await runsOf(page, async () => {
      await page.click('td[data-matrix="x"][data-row="1"][data-col="0"]');
      await page.keyboard.press('Enter');
      await page.keyboard.type('0.5');
      await page.keyboard.press('Enter');
    });
    assert.ok(counts.cell.length >= 1, 'the edited X is computed');
    await openSettings(page);
    await page.fill('#d-model', '6');
    await page.fill('#heads', '2');
    counts.head = await runsOf(page, () => page.click('#overview [data-head-tab="2"]'));
    assert.deepEqual(counts.head, [], 'another head is shown: nothing is computed');
    counts.step = await runsOf(page, () => page.click('#step-next'));
    assert.ok(counts.step.length <= 1, 'another step of the same results: at most a run it shows first (the unscaled one, made when first read)');
    await openView(page, 'heads');
    counts.shuffle = await runsOf(page, () => page.click('#positions-view button[data-pe="shuffle"]'));
    assert.ok(counts.shuffle.length >= 1 && counts.shuffle.length <= 4, `the shuffle's runs: ${counts.shuffle.length}`);
    counts.rope = await runsOf(page, () => page.check('input[name="positional"][value="rope"]'));
    await openView(page, 'modern');
    counts.tile = await runsOf(page, () => page.selectOption('#flash-br', '3'));
    assert.equal(counts.tile.length, 1, 'the trace alone');
    const link = `#preset=journey&ex=${encodeURIComponent(JSON.stringify({ questions: [{ kind: 'number', cell: 'weights.1.2.1' }] }))}`;
    counts.link = await runsOf(page, () => page.evaluate((hash) => (location.hash = hash), link));
    counts.answer = await runsOf(page, async () => {
      await page.fill('#exercise-q0', '0.423');
      await page.press('#exercise-q0', 'Enter');
    });
    console.log(
      `engine runs per interaction: ${Object.entries(counts)
        .map(([name, runs]) => `${name} ${runs.length}`)
        .join(', ')}`,
    );
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
