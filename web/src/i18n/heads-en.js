// English texts of the head views (web/src/heads/, tokens/, cross/, positions/): head split,
// key/value heads, token to token, cross-attention, positional encoding, tokenization.
// Same keys as heads-zh-CN.js.
export default {
  'heads.error.editedWeights':
    'Edited weight matrices are d_model × d_model, that is one key/value head per query head: choose as many key/value heads as heads, or reset the weights.',
  'heads.error.value': 'The link’s value “{text}” for {name} cannot be used.',
  'heads.error.noSource': 'Cross-attention needs a source sentence: type at least one source token.',
  'heads.error.sourceTooMany': 'Too many source tokens: {T}. The engine takes at most {max}.',

  'heads.cut': 'Showing {rows} of {totalRows} rows and {cols} of {totalCols} columns.',
  'heads.legend.weight': 'attention weight (viridis); head = frame colour',

  'heads.tok.label': 'Split into tokens:',
  'heads.tok.whitespace': 'at spaces',
  'heads.tok.char': 'per character',
  'heads.tok.word': 'into words (Intl.Segmenter, also for Chinese)',
  'heads.tok.countChar': 'Tokens (one per character): T = {T}',
  'heads.tok.countWord': 'Tokens (words): T = {T}',

  'heads.jump.label': 'The panels of other views:',
  'heads.jump.split': 'head split',
  'heads.jump.tokens': 'token to token',
  'heads.jump.cross': 'cross-attention',
  'heads.jump.positions': 'positions and shuffling',

  'heads.kv.label': 'Key/value heads',
  'heads.kv.mha': 'multi-head: every query head (h = {heads}) has its own K and V',
  'heads.kv.gqa': 'grouped-query: {kvHeads} K/V heads, each shared by {group} query heads',
  'heads.kv.mqa': 'multi-query: all {heads} query heads share one K and one V',
  'heads.kv.summary': 'Query heads: {heads}. Key/value heads: {kvHeads}. Query heads per key/value head: {group}.',
  'heads.kv.queryRow': 'query heads',
  'heads.kv.kvRow': 'K/V heads',

  'heads.split.title': 'Multi-head attention: split, attend, concatenate, mix',
  'heads.split.caption':
    'd_model = {dModel} {dModel|column|columns} = h × d_k = {heads} × {dK}. Each head works on its own d_k columns of Q, K and V. Colour = head; in attention maps, the fill is the weight.',
  'heads.split.heads': 'Query heads h:',
  'heads.split.kv': 'Key/value heads:',
  'heads.split.stages': 'Stages of the split',
  'heads.split.play': '▶ Play',
  'heads.split.stop': '■ Stop',
  'heads.stage.columns': 'Columns',
  'heads.stage.slice': 'Slice',
  'heads.stage.maps': 'Attend',
  'heads.stage.concat': 'Concat',
  'heads.stage.mix': 'Mix (W_O)',
  'heads.stage.all': 'All stages',
  'heads.split.columnsTitle': 'Q, K and V: every column belongs to one head',
  'heads.split.sliceTitle': 'Sliced into h = {heads}: each matrix d_k = {dK} {dK|column|columns} wide',
  'heads.split.columnsCaption':
    'Nothing is computed per head yet: Q = XW_Q is one T × d_model matrix. Its columns are coloured by the head that will use them; press “Slice” to cut them apart.',
  'heads.split.sliceCaption':
    'Q⁽ʰ⁾ is columns (h−1)·d_k + 1 … h·d_k of Q, for h = 1 … {heads}, each d_k = {dK} {dK|column|columns} wide. K and V are cut the same way into key/value heads (h = 1 … {kvHeads}).',
  'heads.split.qFormula': 'Q = XW_Q',
  'heads.split.kFormula': 'K = XW_K',
  'heads.split.vFormula': 'V = XW_V',
  'heads.split.sharedBlock': '{sym} · heads {heads}',
  'heads.split.moreHeads': 'Drawn: the first {shown} of {total} heads.',

  'heads.maps.title': 'The {heads} attention maps side by side (T × T_k = {T} × {Tk})',
  'heads.maps.caption':
    'Each head softmaxes its own scores Q⁽ʰ⁾K⁽ʰ⁾ᵀ/√d_k: rows are query tokens, columns key tokens, brighter = more weight, hatched = masked. Click a map to look at it in detail.',
  'heads.maps.corner': 'Small maps show the first {n} query and key tokens (T = {T}, T_k = {Tk}).',
  'heads.maps.pick': 'Select head {h}',
  'heads.maps.label': 'head {h} · K/V {kv}',
  'heads.maps.detail': 'Head {h} in detail: A{sup}, {T} × {Tk}',

  'heads.concat.title': 'Concatenate: the head outputs side by side are d_model columns again',
  'heads.concat.caption':
    'head_h = A⁽ʰ⁾V⁽ʰ⁾ is T × d_k. Putting the {heads} outputs side by side gives Concat, T × (h·d_k) = {T} × {dModel}: head h fills exactly the columns its Q⁽ʰ⁾ came from.',
  'heads.concat.formula': 'Concat(head₁ … head_h)',

  'heads.mix.title': 'Mix: W_O combines the heads',
  'heads.mix.caption':
    'Output = Concat · W_O. Row block h of W_O (tinted) multiplies head h’s {dK} {dK|column|columns}; every output column adds up all heads, so the output has no head colour.',
  'heads.mix.output': 'Output',

  'heads.tokens.title': 'Token to token: head {h}',
  'heads.tokens.caption':
    'A line joins each query token (left) to each token it attends to (right); thicker and darker = more weight. Point at or focus a token to keep only its lines and read the weights.',
  'heads.tokens.captionCross':
    'Cross-attention: query tokens of the target (left), key tokens of the source (right); thicker and darker = more weight. Point at a token to keep only its lines.',
  'heads.tokens.nan':
    'Naive softmax overflowed: some weights of this head are not numbers (NaN), so they draw no line. Switch naive softmax off to see them.',
  'heads.tokens.heads': 'Head:',
  'heads.tokens.aria': 'Lines from each query token to the key tokens it attends to',
  'heads.tokens.queries': 'queries',
  'heads.tokens.keys': 'keys',
  'heads.tokens.sourceKeys': 'source keys',
  'heads.tokens.cut': 'The token view draws up to {max} tokens a side: showing the first {max} (T = {T}, T_k = {Tk}).',

  'heads.cross.legend': 'Cross-attention',
  'heads.cross.toggle': 'Keys and values from a second sentence (the source)',
  'heads.cross.source': 'Source sentence (keys and values)',
  'heads.cross.count': 'Source tokens: T_s = {S}',
  'heads.cross.padHint': 'Click a source token to mark it as padding (masked as a key).',
  'heads.cross.padTitle': 'padding on/off',
  'heads.cross.causal': 'Causal as well (target position i sees source positions ≤ i)',
  'heads.cross.maskNote': 'In cross-attention these two settings are the mask; the mask workbench’s applies to self-attention.',
  'heads.cross.title': 'Cross-attention: where Q, K and V come from',
  'heads.cross.caption':
    'As in an encoder–decoder: the queries come from the sentence being produced (the target), the keys and values from the encoded input (the source).',
  'heads.cross.fromQ': 'Q = X_target · W_Q: one row per target token, T = {T} {T|row|rows} × d_model = {dModel}.',
  'heads.cross.fromKV': 'K = X_source · W_K and V = X_source · W_V: one row per source token, T_s = {S} {S|row|rows} × {cols}.',
  'heads.cross.shape':
    'So each of the {heads} attention maps is T × T_s = {T} × {S}: one row per target token, one column per source token, and each target token’s output is a weighted mix of source values.',
  'heads.cross.padded': 'Padding: the source tokens {list} are masked as keys.',
  'heads.cross.noPadding': 'No padding: every source token can be attended to.',
  'heads.cross.causalOn':
    'Causal: on — target position i sees source positions j ≤ i only. (In a decoder the causal mask belongs to its self-attention; cross-attention usually sees the whole source.)',
  'heads.cross.causalOff': 'Causal: off — every target token sees the whole source.',
  'heads.cross.positions': 'Positions: sinusoidal encodings are added to both the target and the source.',
  'heads.cross.xTarget': 'X_target',
  'heads.cross.xSource': 'X_source',
  'heads.cross.map': 'A{sup}: target × source',

  'heads.pos.legend': 'Positions',
  'heads.pos.none': 'None',
  'heads.pos.sinusoidal': 'Sinusoidal (“Attention Is All You Need”)',
  'heads.pos.title': 'Positional encoding',
  'heads.pos.noneCaption':
    'No positional encoding: X holds the token vectors only, so attention cannot tell where a token stands. Shuffle the tokens below to see it.',
  'heads.pos.sinCaption': 'X = E + P: the token vectors E plus a fixed vector per position, P (T = {T} {T|position|positions} × d_model = {dModel}).',
  'heads.pos.e': 'E (token vectors)',
  'heads.pos.p': 'P (positions)',
  'heads.pos.x': 'X = E + P',

  'heads.shuffle.title': 'Shuffle the tokens',
  'heads.shuffle.caption':
    'The same tokens in another order, computed twice — without positions and with sinusoidal positions — with no mask (a causal mask is itself about order). Each token’s output row is compared with its row after shuffling.',
  'heads.shuffle.button': 'Shuffle tokens',
  'heads.shuffle.again': 'Shuffle again',
  'heads.shuffle.typed': 'Back to the typed order',
  'heads.shuffle.one': 'One token cannot be shuffled: type at least two.',
  'heads.shuffle.failed': 'The shuffled input could not be computed.',
  'heads.shuffle.typedOrder': 'Typed order:',
  'heads.shuffle.newOrder': 'Shuffled:',
  'heads.shuffle.noneSame': 'Without positions: every output row is unchanged, only moved along with its token (largest difference {max}).',
  'heads.shuffle.noneChanged': 'Without positions: {n} of {T} output rows changed (largest difference {max}).',
  'heads.shuffle.sinSame': 'With positions: no output row changed (largest difference {max}).',
  'heads.shuffle.sinChanged':
    'With positions: {n} of {T} output rows changed (largest difference {max}) — the same token at another position gives another output.',
  'heads.shuffle.token': 'Token',
  'heads.shuffle.position': 'Position: typed → shuffled',
  'heads.shuffle.diffNone': 'Without positions: max |Δ|',
  'heads.shuffle.diffSin': 'With positions: max |Δ|',
  'heads.shuffle.withoutTitle': 'Without positions',
  'heads.shuffle.withTitle': 'With sinusoidal positions',
  'heads.shuffle.outTyped': 'Output, typed order',
  'heads.shuffle.outShuffled': 'Output, shuffled order',
};
