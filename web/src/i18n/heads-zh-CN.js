// 头的拆分、键/值头、token 之间的连线、交叉注意力、位置编码和分词的简体中文文本。
// Same keys as heads-en.js.
export default {
  'heads.error.editedWeights': '手动编辑的权重矩阵是 d_model × d_model，即每个查询头各有一个键/值头：请把键/值头数设为与头数相同，或重置权重。',
  'heads.error.value': '链接中 {name} 的值“{text}”无法使用。',
  'heads.error.noSource': '交叉注意力需要源句子：请至少输入一个源 token。',
  'heads.error.sourceTooMany': '源 token 太多：{T} 个。计算引擎最多接受 {max} 个。',

  'heads.cut': '显示 {totalRows} 行中的前 {rows} 行、{totalCols} 列中的前 {cols} 列。',
  'heads.legend.weight': '注意力权重（viridis 色阶）；头 = 边框颜色',

  'heads.tok.label': '切分 token：',
  'heads.tok.whitespace': '按空格',
  'heads.tok.char': '按字符',
  'heads.tok.word': '按词（Intl.Segmenter，也适用于中文）',
  'heads.tok.countChar': 'token（每个字符一个）：T = {T}',
  'heads.tok.countWord': 'token（按词切分）：T = {T}',

  'heads.jump.label': '在各步骤之后：',
  'heads.jump.split': '多头拆分',
  'heads.jump.tokens': 'token 之间的连线',
  'heads.jump.cross': '交叉注意力',
  'heads.jump.positions': '位置编码与打乱顺序',

  'heads.kv.label': '键/值头数',
  'heads.kv.mha': '多头注意力：每个查询头（h = {heads}）各有自己的 K 和 V',
  'heads.kv.gqa': '分组查询注意力（GQA）：{kvHeads} 个键/值头，每个由 {group} 个查询头共享',
  'heads.kv.mqa': '多查询注意力（MQA）：{heads} 个查询头共享同一个 K 和 V',
  'heads.kv.summary': '查询头：{heads}。键/值头：{kvHeads}。每个键/值头对应的查询头：{group}。',
  'heads.kv.queryRow': '查询头',
  'heads.kv.kvRow': '键/值头',

  'heads.split.title': '多头注意力：拆分、各自计算、拼接、混合',
  'heads.split.caption':
    'd_model = {dModel} 列 = h × d_k = {heads} × {dK}。每个头只使用 Q、K、V 中属于自己的 d_k 列。颜色表示头；注意力图中的填充色表示权重大小。',
  'heads.split.heads': '查询头数 h：',
  'heads.split.kv': '键/值头数：',
  'heads.split.stages': '拆分的各个阶段',
  'heads.split.play': '▶ 播放',
  'heads.split.stop': '■ 停止',
  'heads.stage.columns': '按列着色',
  'heads.stage.slice': '切分',
  'heads.stage.maps': '各头注意力',
  'heads.stage.concat': '拼接',
  'heads.stage.mix': '混合（W_O）',
  'heads.stage.all': '全部阶段',
  'heads.split.columnsTitle': 'Q、K、V：每一列都属于某一个头',
  'heads.split.sliceTitle': '切分为 h = {heads} 份：每个矩阵宽 d_k = {dK} 列',
  'heads.split.columnsCaption':
    '此时还没有按头计算：Q = XW_Q 是一个 T × d_model 的矩阵。各列按将要使用它们的头着色；点“切分”把它们分开。',
  'heads.split.sliceCaption':
    'Q⁽ʰ⁾ 就是 Q 的第 (h−1)·d_k + 1 到 h·d_k 列，h = 1 … {heads}，每片宽 d_k = {dK} 列。K 和 V 以同样方式切成键/值头（h = 1 … {kvHeads}）。',
  'heads.split.qFormula': 'Q = XW_Q',
  'heads.split.kFormula': 'K = XW_K',
  'heads.split.vFormula': 'V = XW_V',
  'heads.split.sharedBlock': '{sym} · 头 {heads}',
  'heads.split.moreHeads': '只画出了 {total} 个头中的前 {shown} 个。',

  'heads.maps.title': '{heads} 张注意力图并排（T × T_k = {T} × {Tk}）',
  'heads.maps.caption':
    '每个头对自己的分数 Q⁽ʰ⁾K⁽ʰ⁾ᵀ/√d_k 做 softmax：行是查询 token，列是键 token，越亮权重越大，斜线表示被掩码遮住。点一张图查看细节。',
  'heads.maps.corner': '小图只画前 {n} 个查询 token 和键 token（T = {T}，T_k = {Tk}）。',
  'heads.maps.pick': '选择第 {h} 个头',
  'heads.maps.label': '头 {h} · 键/值 {kv}',
  'heads.maps.detail': '第 {h} 个头的细节：A{sup}，{T} × {Tk}',

  'heads.concat.title': '拼接：各头的输出并排放回，重新得到 d_model 列',
  'heads.concat.caption':
    'head_h = A⁽ʰ⁾V⁽ʰ⁾ 是 T × d_k。把 {heads} 个输出并排得到 Concat，T × (h·d_k) = {T} × {dModel}：第 h 个头正好填回它的 Q⁽ʰ⁾ 所来自的那些列。',
  'heads.concat.formula': 'Concat(head₁ … head_h)',

  'heads.mix.title': '混合：W_O 把各头组合起来',
  'heads.mix.caption':
    '输出 = Concat · W_O。W_O 的第 h 组行（着色）乘以第 h 个头的 {dK} 列；输出的每一列都汇总了所有头，所以输出不再带有某个头的颜色。',
  'heads.mix.output': '输出',

  'heads.tokens.title': 'token 之间的连线：第 {h} 个头',
  'heads.tokens.caption':
    '每条线把一个查询 token（左）连到它关注的 token（右）；线越粗越深，权重越大。把指针移到（或用键盘聚焦）某个 token 上，只保留它的连线并显示权重。',
  'heads.tokens.captionCross':
    '交叉注意力：左边是目标句的查询 token，右边是源句的键 token；线越粗越深，权重越大。把指针移到某个 token 上，只保留它的连线。',
  'heads.tokens.nan': '朴素 softmax 溢出了：这个头的一些权重不是数（NaN），所以画不出连线。关掉朴素 softmax 就能看到它们。',
  'heads.tokens.heads': '头：',
  'heads.tokens.aria': '从每个查询 token 到它所关注的键 token 的连线',
  'heads.tokens.queries': '查询',
  'heads.tokens.keys': '键',
  'heads.tokens.sourceKeys': '源句的键',
  'heads.tokens.cut': '连线图每边最多画 {max} 个 token：只显示前 {max} 个（T = {T}，T_k = {Tk}）。',

  'heads.cross.legend': '交叉注意力',
  'heads.cross.toggle': '键和值来自第二个句子（源句）',
  'heads.cross.source': '源句（提供键和值）',
  'heads.cross.count': '源 token：T_s = {S}',
  'heads.cross.padHint': '点击某个源 token，把它标记为填充（作为键被遮住）。',
  'heads.cross.padTitle': '填充：开/关',
  'heads.cross.causal': '同时加因果掩码（目标位置 i 只看源位置 ≤ i）',
  'heads.cross.maskNote': '交叉注意力的掩码只由这两项决定；掩码工作台的设置用于自注意力。',
  'heads.cross.title': '交叉注意力：Q、K、V 从哪里来',
  'heads.cross.caption':
    '和编码器–解码器中一样：查询来自正在生成的句子（目标句），键和值来自编码后的输入（源句）。',
  'heads.cross.fromQ': 'Q = X_target · W_Q：目标句每个 token 一行，T = {T} 行 × d_model = {dModel}。',
  'heads.cross.fromKV': 'K = X_source · W_K，V = X_source · W_V：源句每个 token 一行，T_s = {S} 行 × {cols}。',
  'heads.cross.shape':
    '因此 {heads} 张注意力图都是 T × T_s = {T} × {S}：每个目标 token 一行，每个源 token 一列；每个目标 token 的输出是源句各个值的加权平均。',
  'heads.cross.padded': '填充：源 token {list} 作为键被遮住。',
  'heads.cross.noPadding': '没有填充：每个源 token 都可以被关注。',
  'heads.cross.causalOn':
    '因果掩码：开——目标位置 i 只能看到源位置 j ≤ i。（在解码器中，因果掩码属于它的自注意力；交叉注意力通常能看到整个源句。）',
  'heads.cross.causalOff': '因果掩码：关——每个目标 token 都能看到整个源句。',
  'heads.cross.positions': '位置：正弦位置编码同时加在目标句和源句上。',
  'heads.cross.xTarget': 'X_target',
  'heads.cross.xSource': 'X_source',
  'heads.cross.map': 'A{sup}：目标 × 源',

  'heads.pos.legend': '位置编码',
  'heads.pos.none': '不加',
  'heads.pos.sinusoidal': '正弦位置编码（《Attention Is All You Need》）',
  'heads.pos.title': '位置编码',
  'heads.pos.noneCaption':
    '没有位置编码：X 只包含 token 向量，注意力无法知道 token 在第几位。在下面打乱 token 的顺序看看。',
  'heads.pos.sinCaption': 'X = E + P：token 向量 E 加上每个位置一个固定向量 P（T = {T} 个位置 × d_model = {dModel}）。',
  'heads.pos.e': 'E（token 向量）',
  'heads.pos.p': 'P（位置）',
  'heads.pos.x': 'X = E + P',

  'heads.shuffle.title': '打乱 token 的顺序',
  'heads.shuffle.caption':
    '同样的 token 换一个顺序，分别在不加位置编码和加正弦位置编码时计算，都不加掩码（因果掩码本身就与顺序有关）。把每个 token 的输出行与它打乱后的那一行比较。',
  'heads.shuffle.button': '打乱 token',
  'heads.shuffle.again': '再打乱一次',
  'heads.shuffle.typed': '恢复输入的顺序',
  'heads.shuffle.one': '一个 token 无法打乱：请至少输入两个。',
  'heads.shuffle.failed': '打乱后的输入无法计算。',
  'heads.shuffle.typedOrder': '输入的顺序：',
  'heads.shuffle.newOrder': '打乱后：',
  'heads.shuffle.noneSame': '不加位置编码：每个输出行都没有变，只是跟着自己的 token 换了位置（最大差值 {max}）。',
  'heads.shuffle.noneChanged': '不加位置编码：{T} 个输出行中有 {n} 个变了（最大差值 {max}）。',
  'heads.shuffle.sinSame': '加位置编码：没有输出行发生变化（最大差值 {max}）。',
  'heads.shuffle.sinChanged': '加位置编码：{T} 个输出行中有 {n} 个变了（最大差值 {max}）——同一个 token 换了位置，输出也就不同了。',
  'heads.shuffle.token': 'token',
  'heads.shuffle.position': '位置：输入 → 打乱后',
  'heads.shuffle.diffNone': '不加位置编码：最大 |Δ|',
  'heads.shuffle.diffSin': '加位置编码：最大 |Δ|',
  'heads.shuffle.withoutTitle': '不加位置编码',
  'heads.shuffle.withTitle': '加正弦位置编码',
  'heads.shuffle.outTyped': '输出，输入的顺序',
  'heads.shuffle.outShuffled': '输出，打乱后的顺序',
};
