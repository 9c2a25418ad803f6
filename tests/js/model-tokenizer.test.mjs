// A model's tokenizer.json read by @huggingface/tokenizers: a small byte-level BPE file written
// here (GPT-2's kind: Ġ marks a space), encoded and decoded, loaded with a model whose run takes its
// ids; bad files and calls refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/src/engine/attention.js';
import { loadTokenizer } from '../../web/src/engine/tokenizer.js';
import { modelEntries, safetensorsFile, tinyWeights } from './model-fixtures.mjs';

const VOCAB = { t: 0, h: 1, e: 2, Ġ: 3, c: 4, a: 5, s: 6, th: 7, the: 8, Ġc: 9, at: 10, Ġcat: 11, Ġs: 12, Ġsat: 13, '<|endoftext|>': 14 };
const byteLevel = { add_prefix_space: false, trim_offsets: true, use_regex: true };
const TOKENIZER = {
  version: '1.0',
  truncation: null,
  padding: null,
  added_tokens: [{ id: 14, content: '<|endoftext|>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
  normalizer: null,
  pre_tokenizer: { type: 'ByteLevel', ...byteLevel },
  post_processor: { type: 'ByteLevel', ...byteLevel },
  decoder: { type: 'ByteLevel', ...byteLevel },
  model: {
    type: 'BPE',
    dropout: null,
    unk_token: null,
    continuing_subword_prefix: '',
    end_of_word_suffix: '',
    fuse_unk: false,
    byte_fallback: false,
    vocab: VOCAB,
    merges: ['t h', 'th e', 'Ġ c', 'a t', 'Ġc at', 'Ġ s', 'Ġs at'],
  },
};
const TOKENIZER_CONFIG = { eos_token: '<|endoftext|>', bos_token: '<|endoftext|>', model_max_length: 9 };

test('a byte-level BPE tokenizer.json encodes by its merges and decodes back', async () => {
  const tokenizer = await loadTokenizer(TOKENIZER, TOKENIZER_CONFIG);
  assert.deepEqual(tokenizer.encode('the cat sat'), { ids: [8, 11, 13], tokens: ['the', 'Ġcat', 'Ġsat'] });
  // no merge for "sa": the bytes stay apart
  assert.deepEqual(tokenizer.encode('the sa'), { ids: [8, 12, 5], tokens: ['the', 'Ġs', 'a'] });
  assert.deepEqual(tokenizer.encode('cat<|endoftext|>').tokens, ['c', 'at', '<|endoftext|>']);
  assert.equal(tokenizer.decode([8, 11, 12, 5, 0]), 'the cat sat');
  assert.equal(tokenizer.decode([8, 14]), 'the<|endoftext|>');
  assert.equal(tokenizer.decode([8, 14], { skipSpecialTokens: true }), 'the');
});

test('loadModel() with tokenizer.json gives the model a tokenizer whose ids it runs', async () => {
  const engine = await createAttention({ build: 'simd' });
  const config = { model_type: 'gpt2', n_layer: 1, n_embd: 6, n_head: 3, vocab_size: 15, n_positions: 8 };
  const weights = safetensorsFile(modelEntries(tinyWeights(config)));
  const plain = await engine.loadModel({ config, weights });
  assert.equal(plain.tokenizer, null);
  const model = await engine.loadModel({ config, weights, tokenizer: TOKENIZER, tokenizerConfig: TOKENIZER_CONFIG });
  const { ids } = model.tokenizer.encode('the cat sat');
  const run = model.run(ids);
  assert.equal(run.logits.rows, 3);
  assert.deepEqual(run.logits.data, plain.run([8, 11, 13]).logits.data);
  assert.equal(model.tokenizer.decode(ids), 'the cat sat');
});

test('bad tokenizer files and calls are refused', async () => {
  const engine = await createAttention({ build: 'simd' });
  const idle = engine.memoryInUse();
  const config = { model_type: 'gpt2', n_layer: 1, n_embd: 6, n_head: 3, vocab_size: 15, n_positions: 8 };
  const weights = safetensorsFile(modelEntries(tinyWeights(config)));
  const refusals = [
    [{ tokenizer: 'tokenizer.json' }, /^tokenizer must be the parsed tokenizer\.json$/],
    [{ tokenizer: {} }, /^tokenizer\.json has no model: it must be the tokenizer\.json of a Hugging Face model$/],
    [{ tokenizer: TOKENIZER, tokenizerConfig: [] }, /^tokenizerConfig must be the parsed tokenizer_config\.json$/],
    [{ tokenizer: { ...TOKENIZER, model: { type: 'Unknown' } } }, /^tokenizer\.json could not be read: /],
    [{ tokenizerConfig: TOKENIZER_CONFIG }, /^tokenizerConfig goes with tokenizer: give the parsed tokenizer\.json too$/],
  ];
  for (const [extra, message] of refusals) {
    await assert.rejects(engine.loadModel({ config, weights, ...extra }), (error) => message.test(error.message), String(message));
    assert.equal(engine.memoryInUse(), idle);
  }
  const tokenizer = await loadTokenizer(TOKENIZER);
  assert.throws(() => tokenizer.encode(5), /^Error: encode\(\) takes a string \(got 5\)$/);
  assert.throws(() => tokenizer.encode('a', { addSpecialTokens: 1 }), /^Error: addSpecialTokens must be true or false$/);
  assert.throws(() => tokenizer.decode('8'), /^Error: decode\(\) takes an array of token ids$/);
});
