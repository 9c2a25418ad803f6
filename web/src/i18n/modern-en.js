// English texts of today's attention (web/src/modern/, and ALiBi in the lesson's mask step):
// FlashAttention tiles, the KV cache, RoPE and ALiBi. Same keys as modern-zh-CN.js.
export default {
  'modern.lang': 'en',
  'gallery.flash-worked.title': 'FlashAttention on the worked example',
  'gallery.flash-worked.text':
    'The course’s six tokens in tiles of 2 × 2: in the FlashAttention panel after the lesson, step tile by tile and watch each row’s running maximum m and sum ℓ; the three tiles above the diagonal are skipped, and after the last tile the output is the lesson’s.',
  'gallery.kv-journey.title': 'KV cache for “Your journey starts with one step”',
  'gallery.kv-journey.text':
    'Generate the worked example token by token in the KV cache panel: at step 4 the cache holds K and V of four tokens, the new row is computed against them and equals the full causal row; the counter shows the work the cache saves.',
  'gallery.rope-distance.title': 'RoPE: only distance matters',
  'gallery.rope-distance.text':
    'Rotary positions turn q and k pair by pair. With d_k = 8, four pairs turn, each at its own speed: the RoPE panel shows one pair of “with” before and after its turn and every pair’s angle, and moves every position by 1 000: no score changes (beyond rounding), while with sinusoidal positions they do.',
  'gallery.alibi.title': 'ALiBi',
  'gallery.alibi.text':
    'Four heads with ALiBi: in the mask step each head adds its own bias −m_h·|i − j| to the scores, from a steep slope (head 1 looks near) to a gentle one (head 4 looks far). The weights that follow reflect it.',
  'modern.engineSays': 'The engine cannot compute this view for these settings: {message}',
  'modern.large':
    'These settings are large: this panel runs the engine {runs} more time(s) for them, which would slow every change. It computes when asked.',
  'modern.compute': 'Compute this panel',
  'modern.step.first': '« First',
  'modern.step.prev': '‹ Back',
  'modern.step.next': 'Next ›',
  'modern.step.last': 'Last »',

  'heads.pos.rope': 'Rotary (RoPE): q and k turned by position',
  'modern.jump.flash': 'FlashAttention',
  'modern.jump.kv': 'KV cache',
  'modern.jump.rope': 'RoPE',
  'modern.alibi.check': 'ALiBi: add −m·|i − j| to the scores',
  'embed.part.flashView': 'FlashAttention tiles',
  'embed.part.kvView': 'KV cache',
  'embed.part.ropeView': 'rotary positions',
  'embed.field.alibi': 'ALiBi',
  'embed.field.flashRows': 'tile rows Br',
  'embed.field.flashKeys': 'tile keys Bc',
  'embed.field.flashTile': 'FlashAttention tile',
  'embed.field.kvStep': 'KV cache step',
  'embed.field.kvModel': 'KV cache model',
  'embed.field.ropeToken': 'RoPE token',
  'embed.field.ropePair': 'RoPE pair',
  'modern.error.cross':
    'RoPE and ALiBi measure distances within one sentence: they cannot be used with cross-attention. Choose other positions, or turn ALiBi or cross-attention off.',

  'name.bias': 'ALiBi bias',
  'sym.bias': 'B{h}',
  'sym.maskedAlibi': 'S{h} + B{h} + M',
  'step.mask.alibi': 'ALiBi adds B = −m_h·|i − j| to each head’s scores: the farther the key, the lower its score. Slopes m_h: {slopes}.',
  'formula.alibi': 'ALiBi',
  'explain.bias.heading': 'ALiBi bias of query {query} for key {key}',
  'explain.bias.note': 'The slope m_h is fixed per head (no training): 2^(−8h/heads) for a power of two heads.',

  'modern.flash.title': 'FlashAttention, tile by tile',
  'modern.flash.caption':
    'The same attention computed without ever holding the whole matrix of scores (T × T, or T × T_s in cross-attention): queries in blocks of Br rows, keys in tiles of Bc columns. Each row keeps a running maximum m and a running sum ℓ; when a tile raises m, what was summed so far is multiplied by e^(m_old − m_new). Every number below is the engine’s recording of its tiled path.',
  'modern.flash.br': 'Rows per tile Br',
  'modern.flash.bc': 'Keys per tile Bc',
  'modern.flash.steps': 'Tiles',
  'modern.flash.where': 'Tile {n} of {count} (head {h}; {skipped} skipped by the mask)',
  'modern.flash.logits': 'logits z of head {h} (scaled scores + bias + M)',
  'modern.flash.logitsCross': 'logits z of head {h}: target tokens ask (rows), source tokens answer (columns)',
  'modern.flash.key':
    'Outlined: the current tile. Coloured: tiles done. White: tiles still to come. Hatched: tiles in which a −∞ mask hides every query from every key — whether by the causal mask, a window, padding or custom cells — skipped, never computed.',
  'modern.flash.tileTitle': 'Tile {n}: queries {rows}, keys {keys}',
  'modern.flash.skipped':
    'Skipped by {why}. Every entry of this tile is masked with −∞, so the tiled path computes nothing for it: no scores, no exponentials, no memory.',
  'modern.flash.skippedCell': 'skipped, never computed: {why}',
  'modern.flash.skippedBy': '{n} {n|tile|tiles} skipped by {why}',
  'modern.flash.why.padding': 'padding — every key of the tile is a padding token',
  'modern.flash.why.causal': 'the causal mask — every key of the tile comes after every query of it',
  'modern.flash.why.window': 'the sliding window — every key of the tile lies outside the window of every query of it',
  'modern.flash.why.prefix': 'the prefix-LM mask — every key of the tile comes after every query of it and after the prefix',
  'modern.flash.why.custom': 'the custom mask — its cells (and any padding) hide every pair of the tile',
  'modern.flash.why.causalPadding': 'the causal mask and padding together — every key of the tile is padding or comes after the query',
  'modern.flash.why.windowPadding': 'the sliding window and padding together — every key of the tile is padding or outside the query’s window',
  'modern.flash.why.prefixPadding': 'the prefix-LM mask and padding together — every key of the tile is padding or hidden from the query',
  'modern.flash.tileLogits': 'this tile’s logits',
  'modern.flash.stats': 'per row: running max and sum',
  'modern.flash.mOld': 'm before',
  'modern.flash.mNew': 'm after',
  'modern.flash.rescale': 'e^(m_old − m_new)',
  'modern.flash.sum': 'ℓ after',
  'modern.flash.partial': 'partial output Σ e^(z − m)·v',
  'modern.flash.rescaleNote':
    'Before this tile’s keys are added, the row’s partial output and ℓ are multiplied by e^(m_old − m_new): 1 while the maximum stays, 0 on a row’s first visible tile. At the end each row is divided by its ℓ.',
  'modern.flash.final': 'After the last tile: the output equals the ordinary path’s (the lesson’s result); largest difference {max}.',
  'modern.flash.finalDiffers':
    'After the last tile: the output differs from the ordinary path’s (the lesson’s result) by up to {max}, more than float32 rounding explains.',
  'modern.flash.tooLong':
    'The engine records the tiled path for T ≤ {max}; this sentence has T = {T}. Shorten it to step through the tiles. The memory figures below need no trace:',
  'modern.flash.tooLongSource':
    'The engine records the tiled path for a source of T_s ≤ {max}; this source has T_s = {Tk}. Shorten it to step through the tiles. The memory figures below need no trace:',
  'modern.flash.memoryTitle': 'What each way keeps in memory (one layer)',
  'modern.flash.memoryWhat': 'kept',
  'modern.flash.memoryAt': 'T = {T}',
  'modern.flash.memoryAtCross': 'T = {T}, T_s = {Tk}',
  'modern.flash.memoryScores': 'ordinary: every head’s T × T scores — O(T²)',
  'modern.flash.memoryScoresCross': 'ordinary: every head’s T × T_s scores — O(T·T_s)',
  'modern.flash.memoryTiled': 'tiled: m and ℓ per row, one tile — O(T)',
  'modern.flash.memoryQkvo': 'both: Q, K, V and the output — O(T·d)',
  'modern.flash.memoryNote':
    '4-byte floats. The tiled path never holds a T × T matrix; that, and reading K and V tile by tile from fast memory, is why FlashAttention is fast with the very same numbers.',

  'modern.kv.title': 'The KV cache, token by token',
  'modern.kv.caption':
    'A decoder generates one token at a time. At step t it computes only the new token’s q, k and v, appends k and v to the cache, and computes the new token’s row of weights against every cached key. The rows are those of the full causal computation; the work per step is one row, not the whole matrix again.',
  'modern.kv.tooLong': 'The engine decodes step by step for T ≤ {max}; this sentence has T = {T}.',
  'modern.kv.causalOnly':
    'A decoder’s cache works under the causal mask: this panel computes with a plain causal mask, whatever mask the lesson shows.',
  'modern.kv.steps': 'Decoding steps',
  'modern.kv.where': 'Step {t} of {T}: token “{token}”',
  'modern.kv.kCache': 'K cache (key/value head {g})',
  'modern.kv.vCache': 'V cache (key/value head {g})',
  'modern.kv.row': 'step {t}: the new row of weights, head {h}',
  'modern.kv.difference': 'Step {t}: largest difference from the full causal computation {max}.',
  'modern.kv.count':
    'Multiply-adds through step {t}: {cached} with the cache, {uncached} without (recomputing everything each step). This step: {stepCached} against {stepUncached}.',
  'modern.kv.sizeTitle': 'Cache size per token and layer',
  'modern.kv.sizeOwn': 'Here: {bytes} per token per layer (K and V, float32) — query heads: {heads}, key/value heads: {kv}, d_k = {dK}: {kind}.',
  'modern.kv.model': 'A published model',
  'modern.kv.sizeModel':
    '{name} ({kind}: query heads {heads}, key/value heads {kv}, d_k = {dK}, layers {layers}): {bytes} per token per layer at 16 bits, {all} per token over all layers ({mha} if every query head had its own K and V).',
  'modern.kv.context': '{name} takes at most {context} tokens (its context length): with every one of them cached, {long} over all layers.',
  'modern.kv.contextWindow':
    '{name} takes up to {context} tokens, but each layer sees only the latest {window} (its sliding window): a rolling cache of {window} tokens, {long}, is all it keeps however long the text.',
  'modern.kv.source': 'Shape from the model’s config.json:',
  'modern.kv.contextSource': 'Context length from the model card:',
  'modern.kv.kind.multi-head': 'multi-head',
  'modern.kv.kind.grouped-query': 'grouped-query',
  'modern.kv.kind.multi-query': 'multi-query',

  'modern.rope.title': 'Rotary positions (RoPE)',
  'modern.rope.caption':
    'Inside each head, q and k are cut into pairs of adjacent dimensions (1, 2), (3, 4), … (the RoFormer paper’s convention). Pair p of the token at position n is turned by the angle m·θ_p, with θ_p = 10000^(−2(p − 1)/d_k) and m = n − 1: this page counts positions from 1, the engine from 0, as RoFormer’s code and the models do, so the first token is not turned. A query at position i and a key at position j meet at the angle (i − j)·θ_p: the scores depend on the distance only.',
  'modern.rope.even': 'd_k = {dK}: every dimension has a partner.',
  'modern.rope.odd': 'd_k = {dK} is odd: the last dimension ({last}) has no partner and is left unrotated; the pairs before it turn as usual.',
  'modern.rope.pairTitle': 'One pair of a token’s query, turned',
  'modern.rope.notOn': 'The page uses another positional encoding now.',
  'modern.rope.use': 'Use RoPE',
  'modern.rope.noPairs': 'd_k = {dK}: no pair to turn. With d_k = {demo}, {demoPairs} pairs turn, each at its own speed.',
  'modern.rope.fewPairs':
    'd_k = {dK} has {pairs} {pairs|pair|pairs} of dimensions to turn, so {pairs|a single speed|only as many speeds} of turning. RoPE turns each pair at its own speed, fast for the first pair and slower for every next one (models have d_k = 64 or 128); d_k = {demo} shows {demoPairs} speeds side by side.',
  'modern.rope.demo': 'Use d_model = {dModel} ({heads} {heads|head|heads} of d_k = {dK})',
  'modern.rope.token': 'Token',
  'modern.rope.pair': 'Pair',
  'modern.rope.pairName': 'dimensions {a} and {b}',
  'modern.rope.angle': 'position {n}, m = {n} − 1 = {m}: angle m·θ{p} = {m}·θ{p} = {angle} rad ({degrees}°)',
  'modern.rope.before': 'before: q (head {h}) = {v}',
  'modern.rope.after': 'after: q (head {h}) = {v}',
  'modern.rope.plotLabel': 'The pair before its turn (grey) and after it (blue)',
  'modern.rope.angles': 'angles m·θ_p (radians; m = n − 1 at position n)',
  'modern.rope.shiftTitle': 'Only distance matters',
  'modern.rope.shiftCaption':
    'The engine computes again with every position moved by {shift} (positions {first}, {second}, … instead of 1, 2, …): the distances i − j stay the same.',
  'modern.rope.shiftTooLong': 'The demonstration runs for T ≤ {max}; this sentence has T = {T}.',
  'modern.rope.shiftRope': 'RoPE: largest change of any score {max} — nothing but float32 rounding.',
  'modern.rope.shiftSin': 'Sinusoidal positions added to X: largest change of any score {max} — the scores see absolute positions.',
};
