// What attention keeps in memory, computed from shapes alone (no engine call): the T×T scores of
// the ordinary path against the running statistics and one tile of the tiled (FlashAttention)
// path, and the KV cache of a decoder per token and layer, for the page's settings and for a few
// published models.

/**
 * Bytes each way keeps for one layer's attention of T queries over Tk keys (Tk = T unless
 * cross-attention; 4-byte floats unless told):
 * - scoresBytes: the ordinary path's T×Tk score (or weight) matrix for every head — O(T²);
 * - tiledBytes: the tiled path's running max m and sum ℓ per row and head, and one Br×Bc tile
 *   of logits — O(T);
 * - qkvoBytes: Q and the output (T×dModel each), K and V (Tk×dModel each), which both keep — O(T·d).
 */
// The sequence length the trace's memory figures are also given for.
export const LONG_SEQUENCE = 8192;

export function attentionMemory({ T, Tk = T, dModel, heads, blockRows, blockKeys, bytesPerValue = 4 }) {
  return {
    T,
    Tk,
    scoresBytes: heads * T * Tk * bytesPerValue,
    tiledBytes: (heads * 2 * T + blockRows * blockKeys) * bytesPerValue,
    qkvoBytes: 2 * (T + Tk) * dModel * bytesPerValue,
  };
}

/** A decoder's KV cache per token and layer: K and V, kvHeads·dK values each. */
export function kvCacheBytesPerToken({ kvHeads, dK, bytesPerValue = 4 }) {
  return 2 * kvHeads * dK * bytesPerValue;
}

/**
 * Attention shapes of published models, from each model's config.json on the Hugging Face Hub
 * (the `source` field): layers, query heads, key/value heads, head size and `context`, the most
 * tokens it takes (`contextSource`: its model card, where config.json does not say it); `window`: a sliding window,
 * each layer seeing only that many of the latest tokens. Their caches are usually kept in 16-bit
 * floats (bytesPerValue 2).
 */
export const MODEL_SHAPES = Object.freeze(
  [
    {
      name: 'GPT-2 small',
      kind: 'multi-head',
      layers: 12,
      heads: 12,
      kvHeads: 12,
      dK: 64,
      dModel: 768,
      context: 1024,
      source: 'https://huggingface.co/openai-community/gpt2/blob/main/config.json (n_layer, n_head, n_embd, n_positions)',
    },
    {
      name: 'Llama 2 7B',
      kind: 'multi-head',
      layers: 32,
      heads: 32,
      kvHeads: 32,
      dK: 128,
      dModel: 4096,
      context: 4096,
      source:
        'https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json (num_hidden_layers, num_attention_heads, num_key_value_heads, hidden_size, max_position_embeddings)',
    },
    {
      name: 'Llama 3 8B',
      kind: 'grouped-query',
      layers: 32,
      heads: 32,
      kvHeads: 8,
      dK: 128,
      dModel: 4096,
      context: 8192,
      source: 'https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json (num_key_value_heads: 8, max_position_embeddings: 8192)',
    },
    {
      name: 'Mistral 7B',
      kind: 'grouped-query',
      layers: 32,
      heads: 32,
      kvHeads: 8,
      dK: 128,
      dModel: 4096,
      context: 32768,
      window: 4096,
      source:
        'https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json (num_key_value_heads: 8, max_position_embeddings: 32768, sliding_window: 4096)',
    },
    {
      name: 'Falcon 7B',
      kind: 'multi-query',
      layers: 32,
      heads: 71,
      kvHeads: 1,
      dK: 64,
      dModel: 4544,
      context: 2048,
      source: 'https://huggingface.co/tiiuae/falcon-7b/blob/main/config.json (n_head: 71, hidden_size: 4544, multi_query: true)',
      contextSource: 'https://huggingface.co/tiiuae/falcon-7b (Sequence length: 2048)',
    },
  ].map((shape) => Object.freeze(shape)),
);

/**
 * A published model's KV cache over all its layers with its context full: `context` tokens, or
 * with a sliding window only the window's (a rolling cache drops the older ones). → { tokens, bytes }
 */
export function kvCacheAtContext(shape, bytesPerValue = 2) {
  const tokens = Math.min(shape.context, shape.window ?? shape.context);
  return { tokens, bytes: kvCacheBytesPerToken({ kvHeads: shape.kvHeads, dK: shape.dK, bytesPerValue }) * shape.layers * tokens };
}
