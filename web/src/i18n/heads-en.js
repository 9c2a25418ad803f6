// English texts of the head views (web/src/heads/, tokens/, cross/, positions/): head split,
// key/value heads, token to token, cross-attention, positional encoding, tokenization.
// Same keys as heads-zh-CN.js.
export default {
  'heads4.error.editedWeights': 'Edited weight matrices are d_model × d_model, that is one key/value head per query head: choose as many key/value heads as heads, or reset the weights.',
  'heads4.error.value': 'The link’s value “{text}” for {name} cannot be used.',
  'heads4.error.noSource': 'Cross-attention needs a source sentence: type at least one source token.',
  'heads4.error.sourceTooMany': 'Too many source tokens: {T}. The engine takes at most {max}.',

  'heads4.cut': 'Showing {rows} of {totalRows} rows and {cols} of {totalCols} columns.',
  'heads4.legend.weight': 'attention weight (viridis); head = frame colour',

  'heads4.tok.label': 'Split into tokens:',
  'heads4.tok.whitespace': 'at spaces',
  'heads4.tok.char': 'per character',
  'heads4.tok.word': 'into words (Intl.Segmenter, also for Chinese)',
  'heads4.tok.countChar': 'Tokens (one per character): T = {T}',
  'heads4.tok.countWord': 'Tokens (words): T = {T}',

  'heads4.jump.label': 'Further down, after the steps:',
  'heads4.jump.split': 'head split',
  'heads4.jump.tokens': 'token to token',
  'heads4.jump.cross': 'cross-attention',
  'heads4.jump.positions': 'positions and shuffling',

  'heads4.kv.label': 'Key/value heads',
  'heads4.kv.mha': 'multi-head: each of the {heads} query heads has its own K and V',
  'heads4.kv.gqa': 'grouped-query: {kvHeads} K/V heads, each shared by {group} query heads',
  'heads4.kv.mqa': 'multi-query: all {heads} query heads share one K and one V',
  'heads4.kv.summary': '{heads} query heads read {kvHeads} key/value heads ({group} per key/value head).',
  'heads4.kv.queryRow': 'query heads',
  'heads4.kv.kvRow': 'K/V heads',

  'heads4.split.title': 'Multi-head attention: split, attend, concatenate, mix',
  'heads4.split.caption':
    'd_model = {dModel} columns = h × d_k = {heads} × {dK}. Each head works on its own d_k columns of Q, K and V. Colour = head; in attention maps, the fill is the weight.',
  'heads4.split.heads': 'Query heads h:',
  'heads4.split.kv': 'Key/value heads:',
  'heads4.split.stages': 'Stages of the split',
  'heads4.split.play': '▶ Play',
  'heads4.split.stop': '■ Stop',
  'heads4.stage.columns': 'Columns',
  'heads4.stage.slice': 'Slice',
  'heads4.stage.maps': 'Attend',
  'heads4.stage.concat': 'Concat',
  'heads4.stage.mix': 'Mix (W_O)',
  'heads4.stage.all': 'All stages',
  'heads4.split.columnsTitle': 'Q, K and V: every column belongs to one head',
  'heads4.split.sliceTitle': 'Sliced: {heads} matrices of width d_k = {dK}',
  'heads4.split.columnsCaption':
    'Nothing is computed per head yet: Q = XW_Q is one T × d_model matrix. Its columns are coloured by the head that will use them; press “Slice” to cut them apart.',
  'heads4.split.sliceCaption':
    'Q⁽ʰ⁾ is columns (h−1)·d_k + 1 … h·d_k of Q: {heads} slices of {dK} columns. K and V are cut into {kvHeads} key/value heads of {dK} columns each.',
  'heads4.split.qFormula': 'Q = XW_Q',
  'heads4.split.kFormula': 'K = XW_K',
  'heads4.split.vFormula': 'V = XW_V',
  'heads4.split.sharedBlock': '{sym} · heads {heads}',
  'heads4.split.moreHeads': 'Drawn: the first {shown} of {total} heads.',

  'heads4.maps.title': 'The {heads} attention maps side by side (T × T_k = {T} × {Tk})',
  'heads4.maps.caption':
    'Each head softmaxes its own scores Q⁽ʰ⁾K⁽ʰ⁾ᵀ/√d_k: rows are query tokens, columns key tokens, brighter = more weight, hatched = masked. Click a map to look at it in detail.',
  'heads4.maps.corner': 'Small maps show the first {n} query and key tokens (T = {T}, T_k = {Tk}).',
  'heads4.maps.pick': 'Select head {h}',
  'heads4.maps.label': 'head {h} · K/V {kv}',
  'heads4.maps.detail': 'Head {h} in detail: A{sup}, {T} × {Tk}',

  'heads4.concat.title': 'Concatenate: the head outputs side by side are d_model columns again',
  'heads4.concat.caption':
    'head_h = A⁽ʰ⁾V⁽ʰ⁾ is T × d_k. Putting the {heads} outputs side by side gives Concat, T × (h·d_k) = {T} × {dModel}: head h fills exactly the columns its Q⁽ʰ⁾ came from.',
  'heads4.concat.formula': 'Concat(head₁ … head_h)',

  'heads4.mix.title': 'Mix: W_O combines the heads',
  'heads4.mix.caption':
    'Output = Concat · W_O. Row block h of W_O (tinted) multiplies head h’s {dK} columns; every output column adds up all heads, so the output has no head colour.',
  'heads4.mix.output': 'Output',

  'heads4.tokens.title': 'Token to token: head {h}',
  'heads4.tokens.caption':
    'A line joins each query token (left) to each token it attends to (right); thicker and darker = more weight. Point at or focus a token to keep only its lines and read the weights.',
  'heads4.tokens.captionCross':
    'Cross-attention: query tokens of the target (left), key tokens of the source (right); thicker and darker = more weight. Point at a token to keep only its lines.',
  'heads4.tokens.heads': 'Head:',
  'heads4.tokens.aria': 'Lines from each query token to the key tokens it attends to',
  'heads4.tokens.queries': 'queries',
  'heads4.tokens.keys': 'keys',
  'heads4.tokens.sourceKeys': 'source keys',
  'heads4.tokens.cut': 'The token view draws up to {max} tokens a side: showing the first {max} (T = {T}, T_k = {Tk}).',

  'heads4.cross.legend': 'Cross-attention',
  'heads4.cross.toggle': 'Keys and values from a second sentence (the source)',
  'heads4.cross.source': 'Source sentence (keys and values)',
  'heads4.cross.count': 'Source tokens: T_s = {S}',
  'heads4.cross.padHint': 'Click a source token to mark it as padding (masked as a key).',
  'heads4.cross.padTitle': 'padding on/off',
  'heads4.cross.causal': 'Causal as well (target position i sees source positions ≤ i)',
  'heads4.cross.maskNote': 'In cross-attention these two settings are the mask; the mask workbench’s applies to self-attention.',
  'heads4.cross.title': 'Cross-attention: where Q, K and V come from',
  'heads4.cross.caption':
    'As in an encoder–decoder: the queries come from the sentence being produced (the target), the keys and values from the encoded input (the source).',
  'heads4.cross.fromQ': 'Q = X_target · W_Q: one row per target token, T = {T} rows × d_model = {dModel}.',
  'heads4.cross.fromKV': 'K = X_source · W_K and V = X_source · W_V: one row per source token, T_s = {S} rows × {cols}.',
  'heads4.cross.shape':
    'So each of the {heads} attention maps is T × T_s = {T} × {S}: one row per target token, one column per source token, and each target token’s output is a weighted mix of source values.',
  'heads4.cross.padded': 'Padding: the source tokens {list} are masked as keys.',
  'heads4.cross.noPadding': 'No padding: every source token can be attended to.',
  'heads4.cross.causalOn':
    'Causal: on — target position i sees source positions j ≤ i only. (In a decoder the causal mask belongs to its self-attention; cross-attention usually sees the whole source.)',
  'heads4.cross.causalOff': 'Causal: off — every target token sees the whole source.',
  'heads4.cross.positions': 'Positions: sinusoidal encodings are added to both the target and the source.',
  'heads4.cross.xTarget': 'X_target',
  'heads4.cross.xSource': 'X_source',
  'heads4.cross.map': 'A{sup}: target × source',

  'heads4.pos.legend': 'Positions',
  'heads4.pos.none': 'None',
  'heads4.pos.sinusoidal': 'Sinusoidal (“Attention Is All You Need”)',
  'heads4.pos.title': 'Positional encoding',
  'heads4.pos.noneCaption':
    'No positional encoding: X holds the token vectors only, so attention cannot tell where a token stands. Shuffle the tokens below to see it.',
  'heads4.pos.sinCaption':
    'X = E + P: the token vectors E plus a fixed vector per position, P (T = {T} positions × d_model = {dModel}).',
  'heads4.pos.e': 'E (token vectors)',
  'heads4.pos.p': 'P (positions)',
  'heads4.pos.x': 'X = E + P',

  'heads4.shuffle.title': 'Shuffle the tokens',
  'heads4.shuffle.caption':
    'The same tokens in another order, computed twice — without positions and with sinusoidal positions — with no mask (a causal mask is itself about order). Each token’s output row is compared with its row after shuffling.',
  'heads4.shuffle.button': 'Shuffle tokens',
  'heads4.shuffle.again': 'Shuffle again',
  'heads4.shuffle.typed': 'Back to the typed order',
  'heads4.shuffle.one': 'One token cannot be shuffled: type at least two.',
  'heads4.shuffle.failed': 'The shuffled input could not be computed.',
  'heads4.shuffle.typedOrder': 'Typed order:',
  'heads4.shuffle.newOrder': 'Shuffled:',
  'heads4.shuffle.noneSame':
    'Without positions: every output row is unchanged, only moved along with its token (largest difference {max}).',
  'heads4.shuffle.noneChanged': 'Without positions: {n} of {T} output rows changed (largest difference {max}).',
  'heads4.shuffle.sinSame': 'With positions: no output row changed (largest difference {max}).',
  'heads4.shuffle.sinChanged':
    'With positions: {n} of {T} output rows changed (largest difference {max}) — the same token at another position gives another output.',
  'heads4.shuffle.token': 'Token',
  'heads4.shuffle.position': 'Position: typed → shuffled',
  'heads4.shuffle.diffNone': 'Without positions: max |Δ|',
  'heads4.shuffle.diffSin': 'With positions: max |Δ|',
  'heads4.shuffle.withoutTitle': 'Without positions',
  'heads4.shuffle.withTitle': 'With sinusoidal positions',
  'heads4.shuffle.outTyped': 'Output, typed order',
  'heads4.shuffle.outShuffled': 'Output, shuffled order',
};
