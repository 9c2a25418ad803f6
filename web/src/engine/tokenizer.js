// A model's own tokenizer, from its tokenizer.json (and tokenizer_config.json), read by Hugging
// Face's @huggingface/tokenizers (pure JavaScript, no dependencies, the tokenizer of
// Transformers.js): imported only when a model brings a tokenizer, so the page never loads it
// otherwise.
import { quoted } from './config.js';

function fail(message) {
  throw new Error(message);
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * { encode(text, { addSpecialTokens = true }) → { ids, tokens }, decode(ids, { skipSpecialTokens =
 * false }) → text } from the parsed tokenizer.json and, when given, tokenizer_config.json.
 */
export async function loadTokenizer(tokenizerJson, tokenizerConfig = {}) {
  if (!isObject(tokenizerJson)) fail('tokenizer must be the parsed tokenizer.json');
  if (!isObject(tokenizerConfig)) fail('tokenizerConfig must be the parsed tokenizer_config.json');
  if (!isObject(tokenizerJson.model)) fail('tokenizer.json has no model: it must be the tokenizer.json of a Hugging Face model');
  const { Tokenizer } = await import('@huggingface/tokenizers');
  let tokenizer;
  try {
    tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  } catch (error) {
    fail(`tokenizer.json could not be read: ${error.message}`);
  }
  return Object.freeze({
    encode(text, { addSpecialTokens = true } = {}) {
      if (typeof text !== 'string') fail(`encode() takes a string (got ${quoted(text)})`);
      if (typeof addSpecialTokens !== 'boolean') fail('addSpecialTokens must be true or false');
      const { ids, tokens } = tokenizer.encode(text, { add_special_tokens: addSpecialTokens });
      return { ids: Array.from(ids, Number), tokens: [...tokens] };
    },
    decode(ids, { skipSpecialTokens = false } = {}) {
      if (!Array.isArray(ids) || !ids.every(Number.isInteger)) fail('decode() takes an array of token ids');
      if (typeof skipSpecialTokens !== 'boolean') fail('skipSpecialTokens must be true or false');
      return tokenizer.decode(ids, { skip_special_tokens: skipSpecialTokens });
    },
  });
}
