// A trained head, as a state of the step-by-step lesson: the layer's input h (what its attention
// sees) as the embeddings X, its trained W_Q, W_K, W_V, W_O as the edited weights, the tokens,
// the causal mask and that head selected; the lesson then computes what the trainer's map shows.
// No DOM.
import { DEFAULTS } from '../state/schema.js';
import { shownToken } from './sequence.js';

const rowsOf = ({ rows, cols, data }) => Array.from({ length: rows }, (_, r) => Array.from(data.subarray(r * cols, (r + 1) * cols)));

// The key the last token reads most (its row of the head's map): where the head's pattern shows.
function peakOfLastRow(map, T) {
  const data = map?.data;
  if (!data || data.length !== T * T) return 0;
  let best = 0;
  for (let j = 1; j < T; j += 1) if (data[(T - 1) * T + j] > data[(T - 1) * T + best]) best = j;
  return best;
}

/** tokens, input (T × C), weights { wq, wk, wv, wo } (C × C), heads, layer and head (0-based),
 *  map: the head's attention ({ rows, cols, data }, T × T: the entry selected), train: the panel's link text (kept,
 *  so that the link still opens the panel's model). → a state */
export function lessonStateOfHead({ tokens, input, weights, heads, layer, head, map = null, train }) {
  const T = tokens.length;
  return {
    ...DEFAULTS,
    // Tokens apart by spaces (a space token shown as ␣), so that whitespace tokenization gives them back.
    sentence: tokens.map(shownToken).join(' '),
    tokenization: 'whitespace',
    dModel: input.cols,
    heads,
    mask: 'causal',
    scale: true,
    weights: 'random',
    seed: 0,
    positional: 'none', // (the input has the model's positions in it already)
    embeddings: rowsOf(input),
    wq: rowsOf(weights.wq),
    wk: rowsOf(weights.wk),
    wv: rowsOf(weights.wv),
    wo: rowsOf(weights.wo),
    head: head + 1,
    step: 'softmax',
    row: T,
    cell: `weights.${head + 1}.${T}.${peakOfLastRow(map, T) + 1}`,
    train,
    trainLayer: layer + 1,
  };
}
