// Keeping hand-edited embeddings when the sentence or d_model changes. The page asks the engine
// for the per-token vectors of the new shape (`fallback`, T×d_model) and this decides, row by
// row, what to keep:
//   1. the row at the same position if it holds the same token,
//   2. else the row last typed for this token (`remembered`: token → row),
//   3. else the engine's per-token vector;
// a row narrower than d_model is completed from `remembered`, then from `fallback`.
// Rows are never changed in place: a row kept whole is the same array (the page keeps what it
// made from a row, e.g. its text, by the row), and `remembered` holds the rows themselves.
//
// fallback: T × d_model as number[][] or { rows, cols, data }; or a function of the indices of
// the rows that need it, giving their vectors in that order (so the engine computes only those:
// typing a word at 1 000 tokens and d_model 1 024 needs one row, not a million numbers). → null:
// none to be had, and then the result is null too.
export function carryEmbeddings({ tokens, dModel, previousTokens, previousRows, remembered, fallback }) {
  const bases = tokens.map((token, i) => {
    const positional = previousTokens[i] === token ? previousRows[i] : undefined;
    const memory = remembered.get(token);
    return { base: positional ?? memory ?? [], memory };
  });
  const needed = [];
  bases.forEach(({ base, memory }, i) => {
    if (base.length < dModel && (memory?.length ?? 0) < dModel) needed.push(i);
  });
  let vectors = fallback;
  let rowOf = (i) => i;
  if (typeof fallback === 'function') {
    vectors = needed.length ? fallback(needed) : null;
    if (needed.length && !vectors) return null;
    const at = new Map(needed.map((i, k) => [i, k]));
    rowOf = (i) => at.get(i);
  }
  return bases.map(({ base, memory }, i) => {
    if (base.length === dModel) return base;
    // Column by column: the row's own numbers, then the remembered row's, then the engine's.
    const row = [];
    let j = 0;
    for (; j < dModel && j < base.length; j += 1) row.push(base[j]);
    for (; j < dModel && j < (memory?.length ?? 0); j += 1) row.push(memory[j]);
    if (j < dModel) {
      const k = rowOf(i);
      const source = Array.isArray(vectors) ? vectors[k] : vectors.data.subarray(k * vectors.cols, (k + 1) * vectors.cols);
      for (; j < dModel; j += 1) row.push(source[j]);
    }
    return row;
  });
}

// Records typed rows by token so that a deleted and retyped word gets its numbers back.
export function rememberRows(remembered, tokens, rows) {
  tokens.forEach((token, i) => {
    if (rows[i] && remembered.get(token) !== rows[i]) remembered.set(token, rows[i]);
  });
  return remembered;
}
