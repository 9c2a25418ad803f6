// engine.loadModel() end to end on files the test writes: GPT-2, Llama (grouped heads) and Qwen2
// (biases) at odd sizes, in F32, F16 and BF16, for T = 1 and 7, against an independent float64
// forward — every layer's input, every head's map, q, k, v, and the logits; single files and
// shards with an index, GPT-2's `transformer.` prefix or not, tied and untied unembeddings, Blobs;
// and every head opened in compute() through attentionConfig() giving the model's own map.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/src/engine/attention.js';
import { CONFIGS, idsFor, modelEntries, safetensorsFile, shards, tinyWeights } from './model-fixtures.mjs';
import { modelForward64 } from './model-reference64.mjs';
import { worstError } from './reference64.mjs';

const BUILDS = ['simd', 'scalar'];
const engines = {};
before(async () => {
  for (const build of BUILDS) engines[build] = await createAttention({ build });
});

// Every number of a run against the float64 forward (≤ 1 is within 1e-5·max(1, |ref|)).
function checkRun(run, ref, label) {
  assert.equal(run.layers.length, ref.layers.length, label);
  run.layers.forEach((layer, l) => {
    assert.ok(worstError(layer.input, ref.layers[l].input) <= 1, `${label}: layer ${l} input`);
    assert.ok(worstError(layer.normed, ref.layers[l].normed) <= 1, `${label}: layer ${l} normed`);
    layer.heads.forEach((head, h) => {
      for (const name of ['attention', 'q', 'k', 'v']) {
        assert.ok(worstError(head[name], ref.layers[l].heads[h][name]) <= 1, `${label}: layer ${l} head ${h} ${name}`);
      }
    });
  });
  assert.ok(worstError(run.logits, ref.logits) <= 1, `${label}: logits`);
}

const CASES = [
  ['gpt2', CONFIGS.gpt2, { lmHead: true }],
  ['gpt2, tied, 5 heads of 1', CONFIGS.gpt2Narrow, {}],
  ['llama, 3 heads and 1 key/value head, tied', CONFIGS.llama, {}],
  ['qwen2, 6 heads and 2 key/value heads, untied', CONFIGS.qwen2, {}],
];

for (const build of BUILDS) {
  describe(`the ${build} build`, () => {
    for (const [label, config, options] of CASES) {
      for (const dtype of ['F32', 'F16', 'BF16']) {
        test(`${label}, ${dtype}: every layer, head and logit matches float64 at T = 1 and 7`, async () => {
          const weights = tinyWeights(config, options);
          const model = await engines[build].loadModel({ config, weights: safetensorsFile(modelEntries(weights, { dtype })) });
          const info = model.info;
          assert.equal(info.architecture, config.model_type);
          assert.equal(info.dK * info.heads, info.dModel);
          for (const T of [1, 7]) {
            const ids = idsFor(T, info.vocabSize);
            const run = model.run(ids);
            assert.equal(run.logits.rows, T);
            assert.equal(run.logits.cols, info.vocabSize);
            assert.equal(run.layers[0].heads.length, info.heads);
            checkRun(run, modelForward64(config, weights, ids), `T = ${T}`);
          }
          model.dispose();
        });
      }

      test(`${label}: every head opened in compute() gives the model's own map`, async () => {
        const engine = engines[build];
        const model = await engine.loadModel({ config, weights: safetensorsFile(modelEntries(tinyWeights(config, options), { dtype: 'BF16' })) });
        const run = model.run(idsFor(7, model.info.vocabSize));
        for (let l = 0; l < model.info.layers; ++l) {
          const lesson = engine.compute(model.attentionConfig(run, l));
          run.layers[l].heads.forEach((head, h) => {
            const weights = Array.from({ length: 7 }, (_, i) => Array.from(head.attention.data.subarray(i * 7, i * 7 + 7)));
            assert.ok(worstError(lesson.perHead[h].weights, weights) <= 1, `layer ${l} head ${h} map`);
            const q = Array.from({ length: 7 }, (_, i) => Array.from(head.q.data.subarray(i * model.info.dK, (i + 1) * model.info.dK)));
            assert.ok(worstError(lesson.perHead[h].q, q) <= 1, `layer ${l} head ${h} q`);
          });
        }
        model.dispose();
      });
    }

    test('shards given in any order with their index, a Blob, a Uint8Array inside a larger buffer: the same numbers', async () => {
      const engine = engines[build];
      const config = CONFIGS.qwen2;
      const weights = tinyWeights(config);
      const ids = idsFor(7, config.vocab_size);
      const whole = safetensorsFile(modelEntries(weights, { dtype: 'F16' }));
      const expected = (await engine.loadModel({ config, weights: whole })).run(ids).logits.data;
      const { files, index } = shards(modelEntries(weights, { dtype: 'F16' }), 3);
      const sharded = await engine.loadModel({ config, weights: [files[2], new Blob([files[0]]), files[1].buffer], index });
      assert.deepEqual(sharded.run(ids).logits.data, expected);
      const inside = new Uint8Array(whole.length + 13);
      inside.set(whole, 5);
      const offset = await engine.loadModel({ config, weights: inside.subarray(5, 5 + whole.length) });
      assert.deepEqual(offset.run(ids).logits.data, expected);
      const blob = await engine.loadModel({ config, weights: new Blob([whole]) });
      assert.deepEqual(blob.run(ids).logits.data, expected);
      // mixed types: vectors in F32, matrices in BF16 (as some exports keep norms in float32)
      const mixed = safetensorsFile(modelEntries(weights, { dtypeOf: (name) => (name.includes('norm') || name.endsWith('.bias') ? 'F32' : 'BF16') }));
      checkRun((await engine.loadModel({ config, weights: mixed })).run(ids), modelForward64(config, weights, ids), 'mixed types');
    });

    test("GPT-2's names with or without transformer., buffers skipped, lm_head unties the unembedding", async () => {
      const engine = engines[build];
      const config = CONFIGS.gpt2;
      const ids = idsFor(7, config.vocab_size);
      const tied = tinyWeights(config);
      const reference = modelForward64(config, tied, ids);
      // as GPT2LMHeadModel saves it: transformer.-prefixed, with the causal-mask buffers
      const buffers = [];
      for (let l = 0; l < config.n_layer; ++l) {
        buffers.push({ name: `transformer.h.${l}.attn.bias`, dtype: 'BOOL', shape: [1, 1, 9, 9], bytes: new Uint8Array(81).fill(1) });
        buffers.push({
          name: `transformer.h.${l}.attn.masked_bias`,
          dtype: 'F32',
          shape: [],
          bytes: new Uint8Array(new Float32Array([-1e4]).buffer),
        });
      }
      const prefixed = safetensorsFile([...modelEntries(tied, { rename: (name) => `transformer.${name}` }), ...buffers]);
      checkRun((await engine.loadModel({ config, weights: prefixed })).run(ids), reference, 'transformer. prefix');
      // its own lm_head: the logits come from it, not from wte
      const untied = tinyWeights(config, { lmHead: true, seed: 9 });
      const withHead = safetensorsFile(modelEntries(untied, { rename: (name) => (name === 'lm_head.weight' ? name : `transformer.${name}`) }));
      const run = (await engine.loadModel({ config, weights: withHead })).run(ids);
      checkRun(run, modelForward64(config, untied, ids), 'lm_head');
      untied.delete('lm_head.weight');
      assert.ok(worstError(run.logits, modelForward64(config, untied, ids).logits) > 1, 'not the tied logits');
    });

    test('a tied Llama file that keeps lm_head, and an old one with rotary_emb.inv_freq, load the same model', async () => {
      const engine = engines[build];
      const config = CONFIGS.llama;
      const weights = tinyWeights(config);
      const ids = idsFor(5, config.vocab_size);
      const extra = [
        { name: 'lm_head.weight', dtype: 'F32', shape: [10, 18], bytes: new Uint8Array(4 * 180) },
        { name: 'model.layers.0.self_attn.rotary_emb.inv_freq', dtype: 'F32', shape: [3], bytes: new Uint8Array(12) },
      ];
      const model = await engine.loadModel({ config, weights: safetensorsFile([...modelEntries(weights), ...extra]) });
      checkRun(model.run(ids), modelForward64(config, weights, ids), 'tied with lm_head kept');
    });
  });
}
