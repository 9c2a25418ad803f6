// English texts of the page. Keys are shared with zh-CN.js; tests/js/i18n.test.mjs checks that the
// two dictionaries have the same keys, the same {placeholders} and no empty value.
export default {
  'app.title': 'Attention playground',
  'app.subtitle':
    'Type a sentence and watch scaled dot-product self-attention being computed, number by number: every intermediate matrix is on the page.',
  'app.footer':
    'Every number on this page is computed by the C++ attention core compiled to WebAssembly; the page only draws them.',

  'lang.label': 'Language',
  'lang.en': 'English',
  'lang.zh-CN': '简体中文',

  'engine.loading': 'Loading the WebAssembly engine…',
  'engine.simd': 'Engine: C++ core in WebAssembly SIMD · {path}',
  'engine.scalar':
    'Engine: C++ core in scalar WebAssembly · {path}. This browser lacks WebAssembly SIMD, so the scalar build runs (same numbers, slower).',
  'engine.failed': 'The WebAssembly engine could not be loaded: {message}',

  'presets.label': 'Examples',
  'preset.default': 'Default: d_model = 6, 2 heads, random weights',
  'preset.journey': 'Worked example from the course (d_model = 3, identity weights)',
  'preset.journey.note':
    'The six-token example of the course: W_Q = W_K = W_V = W_O = I₃, so Q = K = V = X, and the scores are divided by √3.',

  'controls.title': 'Input',
  'controls.sentence': 'Sentence',
  'controls.tokens': 'Tokens (split at spaces): T = {T}',
  'controls.dModel': 'd_model (numbers per token)',
  'controls.heads': 'Heads h',
  'controls.headsHint': 'Divisors of d_model:',
  'controls.mask': 'Mask M',
  'mask.causal': 'Causal: a token sees itself and earlier tokens',
  'mask.none': 'None: every token sees every token',
  'controls.scale': 'Scale: divide the scores by √d_k',
  'controls.weights': 'Weights W_Q, W_K, W_V, W_O',
  'weights.identity': 'Identity I',
  'weights.random': 'Random, seed',
  'controls.seed': 'Seed',
  'controls.embeddings': 'Embeddings X',
  'embeddings.token': 'One vector per token (the same word always gets the same vector)',
  'embeddings.edit': 'Edit as numbers',
  'embeddings.hint': 'One row per token, d_model numbers per row, separated by spaces or commas.',

  'error.noTokens': 'Type at least one token: the sentence is empty.',
  'error.tooManyTokens': 'Too many tokens: {T}. The engine takes at most {max}.',
  'error.dModel': 'd_model must be a whole number from 1 to {max}.',
  'error.heads': 'The number of heads must be a whole number from 1 to d_model = {dModel}.',
  'error.headsDivide': '{heads} heads do not divide d_model = {dModel}. Choose one of: {divisors}.',
  'error.seed': 'The seed must be a whole number from 0 to 4294967295.',
  'error.embeddingsRows': 'The embeddings have {rows} rows, but there are {T} tokens: give one row per token.',
  'error.embeddingsCols': 'Embeddings row {row} has {cols} numbers, but d_model = {dModel}.',
  'error.embeddingsNumber': 'Embeddings row {row}, entry {col}: “{text}” is not a finite number.',
  'error.engine': 'The engine rejected this input: {message}',
  'error.unexpected': 'Something went wrong: {message}',
  'error.kept': 'The matrices below still show the last valid input.',
  'error.badLink': 'The link holds an invalid setting, so the example was opened instead: {message}',

  'step.input.title': '1 · Input',
  'step.input.caption':
    'X ∈ ℝ^(T×d_model): one row per token, T = {T} tokens, d_model = {dModel} numbers each.',
  'step.proj.title': '2 · Queries, keys and values',
  'step.proj.caption':
    'Q = XW_Q, K = XW_K, V = XW_V. Query: what this token looks for. Key: what it offers to be matched. Value: what it hands over when another token attends to it.',
  'step.heads.title': '3 · Attention in each head',
  'step.heads.caption':
    'h = {heads} head(s). Head h takes its own d_k = d_model / h = {dK} columns of Q, K and V and computes attention on them alone.',
  'step.head.title': 'Head {h}',
  'step.head.slices': 'Q⁽ʰ⁾, K⁽ʰ⁾, V⁽ʰ⁾: columns {from}–{to} of Q, K and V.',
  'step.scores.scaled': 'S = Q⁽ʰ⁾K⁽ʰ⁾ᵀ / √d_k: s_ij = q_i · k_j / √{dK}, how well token i’s query matches token j’s key.',
  'step.scores.unscaled': 'S = Q⁽ʰ⁾K⁽ʰ⁾ᵀ (scaling off): s_ij = q_i · k_j.',
  'step.masked.causal': 'S + M: M is −∞ above the diagonal, so no token can see a later token.',
  'step.masked.none': 'S + M with M = 0: no mask, every token sees every token.',
  'step.weights':
    'A = softmax(S + M), row by row: A_ij is the share token i reads from token j. Each row sums to 1; masked entries are exactly 0.',
  'step.context': 'head_h = O = AV: each row is a weighted average of the rows of V⁽ʰ⁾.',
  'step.out.title': '4 · Concatenate the heads and project',
  'step.concat': 'Concat(head₁ … head_h): the heads side by side, T × d_model.',
  'step.output': 'MultiHead(X) = Concat(head₁ … head_h)W_O: the output of the attention layer.',

  // Matrix symbols. {h} is the head number as a superscript (⁽¹⁾), {hs} as a subscript (₁).
  'sym.x': 'X',
  'sym.q': 'Q',
  'sym.k': 'K',
  'sym.v': 'V',
  'sym.headQ': 'Q{h}',
  'sym.headK': 'K{h}',
  'sym.headV': 'V{h}',
  'sym.scores': 'S{h}',
  'sym.masked': 'S{h} + M',
  'sym.weights': 'A{h}',
  'sym.context': 'head{hs} = A{h}V{h}',
  'sym.concat': 'Concat(head₁ … head_h)',
  'sym.output': 'MultiHead(X)',
  'name.x': 'embeddings',
  'name.q': 'queries',
  'name.k': 'keys',
  'name.v': 'values',
  'name.scores': 'scores',
  'name.masked': 'masked scores',
  'name.weights': 'attention weights',
  'name.context': 'context',
  'name.concat': 'heads side by side',
  'name.output': 'output',

  'legend.masked': 'masked (−∞)',
  'legend.truncated': 'Showing the first {rows} of {totalRows} rows and {cols} of {totalCols} columns.',
  'table.corner': 'token',
};
