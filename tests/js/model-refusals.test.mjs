// Everything loadModel() and run() refuse, each with an Error that names the problem (the tensor
// and its shapes, the field of config.json, the file), and after each the engine's memory in use
// back where it was: configs the core does not compute, broken safetensors files, tensors
// missing, misshapen or unknown, shards that do not match their index, values that are not
// numbers, a model larger than the module's memory (a sparse file: nothing is read), bad ids.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAttention } from '../../web/src/engine/attention.js';
import { CONFIGS, encode, idsFor, modelEntries, safetensorsFile, shards, tensorShapes, tinyWeights } from './model-fixtures.mjs';

let engine;
let idle;
let folder;
before(async () => {
  engine = await createAttention({ build: 'simd' });
  idle = engine.memoryInUse();
  folder = await mkdtemp(join(tmpdir(), 'model-refusals-'));
});
after(() => rm(folder, { recursive: true, force: true }));

const gpt2 = CONFIGS.gpt2;
const gpt2Weights = tinyWeights(gpt2);
const gpt2File = (options) => safetensorsFile(modelEntries(gpt2Weights, options));

// loadModel(options) is refused with a message matching `message`, and leaves no memory in use.
async function refused(options, message) {
  await assert.rejects(engine.loadModel(options), (error) => error instanceof Error && message.test(error.message), String(message));
  assert.equal(engine.memoryInUse(), idle, `memory in use after ${message}`);
}

test('configs the core does not compute are refused by name, before any weight is read', async () => {
  const weights = gpt2File();
  await refused(null, /^loadModel\(\) needs \{ config, weights \}$/);
  await refused({ config: gpt2, weights, vocab: 3 }, /^unknown field "vocab": use config, weights, index, tokenizer, tokenizerConfig$/);
  await refused({ weights }, /^loadModel\(\) needs config: the parsed config\.json$/);
  await refused({ config: { n_layer: 2 }, weights }, /^config\.json has no model_type \(got undefined\)/);
  await refused(
    { config: { ...gpt2, model_type: 'mistral' }, weights },
    /^model_type "mistral" is not supported: the core runs "gpt2", "llama" \(SmolLM too\) and "qwen2"$/,
  );
  await refused(
    { config: { ...gpt2, activation_function: 'relu' }, weights },
    /^config\.json's activation_function "relu" is not supported: the core computes GPT-2's tanh GELU/,
  );
  await refused(
    { config: { ...gpt2, scale_attn_by_inverse_layer_idx: true }, weights },
    /^config\.json's scale_attn_by_inverse_layer_idx true is not supported/,
  );
  await refused({ config: { ...gpt2, n_embd: '15' }, weights }, /^config\.json's n_embd must be a whole number \(got "15"\)$/);
  await refused({ config: { ...gpt2, n_head: 4 }, weights }, /^n_head \(4\) must divide n_embd \(15\)$/);
  await refused({ config: { ...gpt2, layer_norm_epsilon: 0 }, weights }, /^layer_norm_epsilon must be between 1e-12 and 0\.1 \(got 0\)$/);
  const llama = CONFIGS.llama;
  const llamaWeights = safetensorsFile(modelEntries(tinyWeights(llama)));
  await refused(
    { config: { ...llama, rope_scaling: { rope_type: 'llama3', factor: 8 } }, weights: llamaWeights },
    /^config\.json's rope_scaling \{"rope_type":"llama3","factor":8\} is not supported/,
  );
  await refused(
    { config: { ...llama, hidden_act: 'gelu' }, weights: llamaWeights },
    /^config\.json's hidden_act "gelu" is not supported: the core computes SwiGLU with SiLU$/,
  );
  await refused(
    { config: { ...llama, head_dim: 4 }, weights: llamaWeights },
    /^config\.json's head_dim \(4\) is not hidden_size \/ num_attention_heads \(6\)/,
  );
  await refused(
    { config: { ...llama, num_key_value_heads: 2 }, weights: llamaWeights },
    /^num_key_value_heads \(2\) must divide num_attention_heads \(3\)$/,
  );
  await refused({ config: { ...llama, rope_theta: null }, weights: llamaWeights }, /^config\.json's rope_theta must be a number \(got null\)$/);
  await refused(
    { config: { ...CONFIGS.qwen2, use_sliding_window: true }, weights: llamaWeights },
    /^config\.json's use_sliding_window true is not supported/,
  );
});

test('broken safetensors files are refused, naming the file and what is wrong', async () => {
  const config = gpt2;
  const file = gpt2File();
  const headerBytes = Number(new DataView(file.buffer).getBigUint64(0, true));
  await refused(
    { config, weights: 'model.safetensors' },
    /^weights must be the bytes of a \.safetensors file: an ArrayBuffer, a Uint8Array or a Blob \(got "model\.safetensors"\)$/,
  );
  await refused({ config }, /^weights must be the bytes of a \.safetensors file/);
  await refused({ config, weights: [] }, /^weights is an empty list/);
  await refused({ config, weights: [file, 3] }, /^weights\[1\] must be the bytes of a \.safetensors file/);
  await refused(
    { config, weights: file.subarray(0, 5) },
    /^the weights is 5 bytes long: a safetensors file starts with its header's length in 8 bytes$/,
  );
  await refused(
    { config, weights: file.subarray(0, 8 + headerBytes - 1) },
    new RegExp(`^the weights: the header is ${headerBytes} bytes long by its first 8 bytes, past the end of the file \\(${7 + headerBytes} bytes\\)`),
  );
  const notJson = file.slice();
  notJson[8] = '!'.charCodeAt(0);
  await refused({ config, weights: notJson }, /^the weights: the header is not valid JSON/);
  // truncated: the last tensor's bytes cut off
  await refused(
    { config, weights: file.subarray(0, file.length - 10) },
    /^the weights: ln_f\.bias ends at byte \d+ of the data, past its end \(\d+ bytes\): the file is truncated or its header is wrong$/,
  );
  const edit = (change) => safetensorsFile(modelEntries(gpt2Weights), { header: (h) => (change(h), h) });
  await refused(
    {
      config,
      weights: edit((h) => {
        h['wpe.weight'].shape = [9, 14];
      }),
    },
    /^the weights: wpe\.weight holds 540 bytes, but a F32 tensor of shape \[9, 14\] takes 504$/,
  );
  await refused(
    {
      config,
      weights: edit((h) => {
        h['ln_f.weight'].data_offsets = h['ln_f.bias'].data_offsets;
      }),
    },
    /^the weights: ln_f\.(weight|bias) and ln_f\.(weight|bias) overlap in the data$/,
  );
  await refused(
    {
      config,
      weights: edit((h) => {
        h['ln_f.weight'].dtype = 'F33';
      }),
    },
    /^the weights: ln_f\.weight has an unknown dtype "F33"$/,
  );
  await refused(
    {
      config,
      weights: edit((h) => {
        h['ln_f.weight'].data_offsets = [5];
      }),
    },
    /^the weights: ln_f\.weight has data_offsets that are not \[begin, end\]$/,
  );
});

test('tensors missing, misshapen, of another type, unknown or twice are refused with their names and shapes', async () => {
  const config = gpt2;
  const entries = modelEntries(gpt2Weights);
  const without = (name) => safetensorsFile(entries.filter((e) => e.name !== name));
  await refused(
    { config, weights: without('h.1.mlp.c_fc.bias') },
    /^h\.1\.mlp\.c_fc\.bias is missing from the weights: the model config\.json describes has it \(do the two belong together\?\)$/,
  );
  await refused(
    { config: { ...config, n_inner: 24 }, weights: gpt2File() },
    /^h\.0\.mlp\.c_fc\.weight is \[15, 23\] in the weights, but config\.json makes it \[15, 24\]$/,
  );
  await refused(
    { config: { ...config, n_layer: 1 }, weights: gpt2File() },
    /^the weights holds h\.1\.ln_1\.weight, which the model config\.json describes does not have/,
  );
  await refused(
    { config, weights: gpt2File({ dtypeOf: (name) => (name === 'wpe.weight' ? 'F64' : 'F32') }) },
    /^wpe\.weight is F64 in the weights: the core reads F32, F16 and BF16$/,
  );
  const twice = safetensorsFile([...entries, { ...entries[0], name: `transformer.${entries[0].name}` }]);
  await refused(
    { config, weights: twice },
    /^wte\.weight is in the weights twice \(wte\.weight in the weights, transformer\.wte\.weight in the weights\)$/,
  );
  // a value that is not a number, found once its tensor is read (earlier tensors were loaded already)
  const values = new Float32Array(encode(gpt2Weights.get('h.0.attn.c_attn.weight').values, 'F32').buffer);
  values[2 * 45 + 7] = Number.NaN;
  const nan = safetensorsFile(entries.map((e) => (e.name === 'h.0.attn.c_attn.weight' ? { ...e, bytes: new Uint8Array(values.buffer) } : e)));
  await refused({ config, weights: nan }, /^h\.0\.attn\.c_attn\.weight\[2\]\[7\] is not a finite number \(got nan\)$/);
  const bf16 = modelEntries(gpt2Weights, { dtype: 'BF16' });
  const infinity = bf16.map((e) =>
    e.name === 'ln_f.weight' ? { ...e, bytes: Uint8Array.of(...e.bytes.subarray(0, 6), 0x80, 0xff, ...e.bytes.subarray(8)) } : e,
  );
  await refused({ config, weights: safetensorsFile(infinity) }, /^ln_f\.weight\[3\] is not a finite number \(got -inf\)$/);
});

test('shards must be the files their index lists', async () => {
  const config = CONFIGS.qwen2;
  const { files, names, index } = shards(modelEntries(tinyWeights(config)), 3);
  await refused(
    { config, weights: files },
    /^3 weight files were given without index: a sharded model needs the parsed model\.safetensors\.index\.json$/,
  );
  await refused({ config, weights: files, index: { files: names } }, /^index has no weight_map/);
  await refused(
    { config, weights: files.slice(0, 2), index },
    new RegExp(`^"${names[2]}" is missing: the index puts model\\.\\S+ in it; give every file the index lists$`),
  );
  await refused(
    { config, weights: [files[0], files[1], files[1]], index },
    new RegExp(`^${names[1]} was given twice \\(weights\\[1\\] and weights\\[2\\]\\)$`),
  );
  const weight_map = { ...index.weight_map };
  delete weight_map['model.norm.weight'];
  await refused(
    { config, weights: files, index: { weight_map } },
    /^weights\[2\] holds model\.norm\.weight, which the index's weight_map does not list$/,
  );
  const moved = { ...index.weight_map, 'model.norm.weight': names[0] };
  await refused(
    { config, weights: files, index: { weight_map: moved } },
    new RegExp(`^weights\\[2\\] holds tensors the index puts in "${names[2]}" and "${names[0]}"$`),
  );
});

test('a model larger than the module memory is refused before a byte of its weights is read', async () => {
  // GPT-2 with a vocabulary of 500 000 × 1 024: wte alone is 2 048 000 000 bytes of F32 (2002 MiB in all). The file is
  // sparse (only its header is written), read through a Blob: a read of the data would take 2 GB.
  const config = { model_type: 'gpt2', n_layer: 1, n_embd: 1024, n_head: 8, vocab_size: 500000, n_positions: 16 };
  let offset = 0;
  const header = {};
  for (const [name, shape] of tensorShapes(config)) {
    const bytes = 4 * shape.reduce((n, d) => n * d, 1);
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const path = join(folder, 'large.safetensors');
  const handle = await open(path, 'w');
  const length = new Uint8Array(8);
  new DataView(length.buffer).setBigUint64(0, BigInt(json.length), true);
  await handle.write(length, 0, 8, 0);
  await handle.write(json, 0, json.length, 8);
  await handle.truncate(8 + json.length + offset);
  await handle.close();
  const weights = await openAsBlob(path);
  await refused(
    { config, weights },
    /^the weights take 2002 MiB as stored, more than the \d+ MiB the engine has free for them \(its memory stops at 2048 MiB\)$/,
  );
  assert.ok(engine.memoryBytes() < 256 * 2 ** 20, 'the module did not grow towards the model');
});

test('bad ids are refused, the model keeps working, and a disposed model frees its memory', async () => {
  const model = await engine.loadModel({ config: gpt2, weights: gpt2File({ dtype: 'F16' }) });
  const ids = idsFor(7, 11);
  const expected = model.run(ids).logits.data;
  const loaded = engine.memoryInUse();
  const bad = [
    ['ids', /^run\(\) takes an array of token ids$/],
    [[1, 2.5], /^ids\[1\] must be a whole number \(got 2\.5\)$/],
    [[1, null], /^ids\[1\] must be a whole number \(got null\)$/],
    [[], /^no tokens: give at least one token id$/],
    [[3, 11], /^ids\[1\] = 11 is not a token of the vocabulary \(0 to 10\)$/],
    [[-1], /^ids\[0\] = -1 is not a token of the vocabulary \(0 to 10\)$/],
    [[2 ** 40], /^ids\[0\] = 1099511627776 is not a token of the vocabulary \(0 to 10\)$/],
    [idsFor(10, 11), /^too many tokens: 10 \(the model knows 9 positions\)$/],
  ];
  for (const [value, message] of bad) {
    assert.throws(
      () => model.run(value),
      (error) => message.test(error.message),
      String(message),
    );
    assert.ok(engine.memoryInUse() <= loaded, `memory after ${message}`);
  }
  const afterRefusal = engine.memoryInUse();
  assert.throws(() => model.run([11]), /is not a token/);
  assert.equal(engine.memoryInUse(), afterRefusal, 'a refused run holds nothing');
  assert.deepEqual(model.run(ids).logits.data, expected);
  assert.throws(() => model.attentionConfig(model.run(ids), 2), /^Error: layer must be a whole number from 0 to 1 \(got 2\)$/);
  assert.throws(() => model.attentionConfig({}, 0), /^Error: attentionConfig\(\) takes a result of this model's run\(\)$/);
  model.dispose();
  assert.equal(engine.memoryInUse(), idle, 'a disposed model leaves nothing');
  assert.throws(() => model.run(ids), /^Error: this model was disposed$/);
});
