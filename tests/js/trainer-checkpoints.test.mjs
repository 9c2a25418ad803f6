// The shipped checkpoints (web/src/presets/checkpoints/): small, reproducible by their command,
// as accurate in either build as when saved, and their heads do what the gallery says to look for.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createAttention } from '../../web/src/engine/attention.js';
import { CHECKPOINT_STEPS, openCheckpoint } from '../../web/src/engine/checkpoint.js';
import { trainCheckpoint } from '../../tools/train-checkpoints.mjs';

const engines = {};
const files = {};
before(async () => {
  for (const build of ['simd', 'scalar']) engines[build] = await createAttention({ build });
  for (const task of Object.keys(CHECKPOINT_STEPS)) {
    files[task] = await readFile(new URL(`../../web/src/presets/checkpoints/${task}.json`, import.meta.url), 'utf8');
  }
});

// Mean attention weight a head gives to the key `keyOf(i)`, over the queries listed.
function meanWeight(attention, queries, keyOf) {
  const T = attention.rows;
  return queries.reduce((sum, i) => sum + attention.data[i * T + keyOf(i)], 0) / queries.length;
}

test('every checkpoint is at most 100 KB and at least 95 % accurate in both builds', () => {
  for (const [task, text] of Object.entries(files)) {
    assert.ok(text.length <= 100 * 1024, `${task}: ${text.length} bytes`);
    const saved = JSON.parse(text);
    assert.equal(saved.step, CHECKPOINT_STEPS[task]);
    assert.ok(saved.evaluation.accuracy >= 0.95, `${task} saved at ${saved.evaluation.accuracy}`);
    for (const build of ['simd', 'scalar']) {
      const trainer = openCheckpoint(engines[build], text);
      const { accuracy } = trainer.evaluate(512);
      trainer.dispose();
      assert.ok(accuracy >= 0.95, `${task} in ${build}: ${accuracy}`);
    }
  }
});

test('the command that made a checkpoint makes it again, bit for bit', async () => {
  assert.equal(await trainCheckpoint(engines.simd, 'previous'), files.previous);
});

test('the heads the gallery points at do what it says', () => {
  const previous = openCheckpoint(engines.simd, files.previous);
  const run = previous.run([...'abcdefghijkl']);
  const queries = Array.from({ length: 11 }, (_, i) => i + 1);
  assert.ok(meanWeight(run.layers[0].heads[0].attention, queries, (i) => i - 1) > 0.95, 'previous: the head looks one token back');
  previous.dispose();

  // Induction: a previous-token head in layer 1 feeds an induction head in layer 2, which looks at
  // the token after the current one's earlier occurrence (7 tokens back, plus one).
  const induction = openCheckpoint(engines.simd, files.induction);
  const typed = [...'pomnlpomnl', ...'cfakehb', ...'cfakehb'];
  const layers = induction.run(typed).layers;
  const lookBack = Math.max(
    ...layers[0].heads.map((h) =>
      meanWeight(
        h.attention,
        Array.from({ length: 23 }, (_, i) => i + 1),
        (i) => i - 1,
      ),
    ),
  );
  const secondCopy = [17, 18, 19, 20, 21, 22, 23];
  const induct = Math.max(...layers[1].heads.map((h) => meanWeight(h.attention, secondCopy, (i) => i - 6)));
  assert.ok(lookBack > 0.75, `layer 1's best previous-token head: ${lookBack}`);
  assert.ok(induct > 0.9, `layer 2's best induction head: ${induct}`);
  induction.dispose();
});
