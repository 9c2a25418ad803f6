// Keeping hand-edited embeddings when the sentence or d_model changes. The page asks the engine
// for the per-token vectors of the new shape (`fallback`, T×d_model) and this decides, row by
// row, what to keep:
//   1. the row at the same position if it holds the same token,
//   2. else the row last typed for this token (`remembered`: token → row),
//   3. else the engine's per-token vector;
// a row narrower than d_model is completed from `remembered`, then from `fallback`.
export function carryEmbeddings({ tokens, dModel, previousTokens, previousRows, remembered, fallback }) {
  return tokens.map((token, i) => {
    const positional = previousTokens[i] === token ? previousRows[i] : undefined;
    const memory = remembered.get(token);
    const base = positional ?? memory ?? [];
    const row = [];
    for (let j = 0; j < dModel; j += 1) {
      row.push(j < base.length ? base[j] : memory && j < memory.length ? memory[j] : fallback[i][j]);
    }
    return row;
  });
}

// Records typed rows by token so that a deleted and retyped word gets its numbers back.
export function rememberRows(remembered, tokens, rows) {
  tokens.forEach((token, i) => {
    if (rows[i]) remembered.set(token, rows[i].slice());
  });
  return remembered;
}
