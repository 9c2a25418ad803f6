// 头的拆分、键/值头、token 之间的连线、交叉注意力、位置编码和分词的简体中文文本。
// Same keys as heads-en.js.
export default {
  'heads4.error.editedWeights': '手动编辑的权重矩阵是 d_model × d_model，即每个查询头各有一个键/值头：请把键/值头数设为与头数相同，或重置权重。',
  'heads4.error.value': '链接中 {name} 的值“{text}”无法使用。',
  'heads4.error.noSource': '交叉注意力需要源句子：请至少输入一个源 token。',
  'heads4.error.sourceTooMany': '源 token 太多：{T} 个。计算引擎最多接受 {max} 个。',

  'heads4.cut': '显示 {totalRows} 行中的前 {rows} 行、{totalCols} 列中的前 {cols} 列。',
  'heads4.legend.weight': '注意力权重（viridis 色阶）；头 = 边框颜色',

  'heads4.tok.label': '切分 token：',
  'heads4.tok.whitespace': '按空格',
  'heads4.tok.char': '按字符',
  'heads4.tok.word': '按词（Intl.Segmenter，也适用于中文）',
  'heads4.tok.countChar': 'token（每个字符一个）：T = {T}',
  'heads4.tok.countWord': 'token（按词切分）：T = {T}',

  'heads4.jump.label': '在各步骤之后：',
  'heads4.jump.split': '多头拆分',
  'heads4.jump.tokens': 'token 之间的连线',
  'heads4.jump.cross': '交叉注意力',
  'heads4.jump.positions': '位置编码与打乱顺序',

  'heads4.kv.label': '键/值头数',
  'heads4.kv.mha': '多头注意力：{heads} 个查询头各有自己的 K 和 V',
  'heads4.kv.gqa': '分组查询注意力（GQA）：{kvHeads} 个键/值头，每个由 {group} 个查询头共享',
  'heads4.kv.mqa': '多查询注意力（MQA）：{heads} 个查询头共享同一个 K 和 V',
  'heads4.kv.summary': '{heads} 个查询头读取 {kvHeads} 个键/值头（每个键/值头对应 {group} 个查询头）。',
  'heads4.kv.queryRow': '查询头',
  'heads4.kv.kvRow': '键/值头',

  'heads4.split.title': '多头注意力：拆分、各自计算、拼接、混合',
  'heads4.split.caption':
    'd_model = {dModel} 列 = h × d_k = {heads} × {dK}。每个头只使用 Q、K、V 中属于自己的 d_k 列。颜色表示头；注意力图中的填充色表示权重大小。',
  'heads4.split.heads': '查询头数 h：',
  'heads4.split.kv': '键/值头数：',
  'heads4.split.stages': '拆分的各个阶段',
  'heads4.split.play': '▶ 播放',
  'heads4.split.stop': '■ 停止',
  'heads4.stage.columns': '按列着色',
  'heads4.stage.slice': '切分',
  'heads4.stage.maps': '各头注意力',
  'heads4.stage.concat': '拼接',
  'heads4.stage.mix': '混合（W_O）',
  'heads4.stage.all': '全部阶段',
  'heads4.split.columnsTitle': 'Q、K、V：每一列都属于某一个头',
  'heads4.split.sliceTitle': '切分后：{heads} 个宽度为 d_k = {dK} 的矩阵',
  'heads4.split.columnsCaption':
    '此时还没有按头计算：Q = XW_Q 是一个 T × d_model 的矩阵。各列按将要使用它们的头着色；点“切分”把它们分开。',
  'heads4.split.sliceCaption':
    'Q⁽ʰ⁾ 就是 Q 的第 (h−1)·d_k + 1 到 h·d_k 列：共 {heads} 片，每片 {dK} 列。K 和 V 切成 {kvHeads} 个键/值头，每个 {dK} 列。',
  'heads4.split.qFormula': 'Q = XW_Q',
  'heads4.split.kFormula': 'K = XW_K',
  'heads4.split.vFormula': 'V = XW_V',
  'heads4.split.sharedBlock': '{sym} · 头 {heads}',
  'heads4.split.moreHeads': '只画出了 {total} 个头中的前 {shown} 个。',

  'heads4.maps.title': '{heads} 张注意力图并排（T × T_k = {T} × {Tk}）',
  'heads4.maps.caption':
    '每个头对自己的分数 Q⁽ʰ⁾K⁽ʰ⁾ᵀ/√d_k 做 softmax：行是查询 token，列是键 token，越亮权重越大，斜线表示被掩码遮住。点一张图查看细节。',
  'heads4.maps.corner': '小图只画前 {n} 个查询 token 和键 token（T = {T}，T_k = {Tk}）。',
  'heads4.maps.pick': '选择第 {h} 个头',
  'heads4.maps.label': '头 {h} · 键/值 {kv}',
  'heads4.maps.detail': '第 {h} 个头的细节：A{sup}，{T} × {Tk}',

  'heads4.concat.title': '拼接：各头的输出并排放回，重新得到 d_model 列',
  'heads4.concat.caption':
    'head_h = A⁽ʰ⁾V⁽ʰ⁾ 是 T × d_k。把 {heads} 个输出并排得到 Concat，T × (h·d_k) = {T} × {dModel}：第 h 个头正好填回它的 Q⁽ʰ⁾ 所来自的那些列。',
  'heads4.concat.formula': 'Concat(head₁ … head_h)',

  'heads4.mix.title': '混合：W_O 把各头组合起来',
  'heads4.mix.caption':
    '输出 = Concat · W_O。W_O 的第 h 组行（着色）乘以第 h 个头的 {dK} 列；输出的每一列都汇总了所有头，所以输出不再带有某个头的颜色。',
  'heads4.mix.output': '输出',

  'heads4.tokens.title': 'token 之间的连线：第 {h} 个头',
  'heads4.tokens.caption':
    '每条线把一个查询 token（左）连到它关注的 token（右）；线越粗越深，权重越大。把指针移到（或用键盘聚焦）某个 token 上，只保留它的连线并显示权重。',
  'heads4.tokens.captionCross':
    '交叉注意力：左边是目标句的查询 token，右边是源句的键 token；线越粗越深，权重越大。把指针移到某个 token 上，只保留它的连线。',
  'heads4.tokens.heads': '头：',
  'heads4.tokens.aria': '从每个查询 token 到它所关注的键 token 的连线',
  'heads4.tokens.queries': '查询',
  'heads4.tokens.keys': '键',
  'heads4.tokens.sourceKeys': '源句的键',
  'heads4.tokens.cut': '连线图每边最多画 {max} 个 token：只显示前 {max} 个（T = {T}，T_k = {Tk}）。',

  'heads4.cross.legend': '交叉注意力',
  'heads4.cross.toggle': '键和值来自第二个句子（源句）',
  'heads4.cross.source': '源句（提供键和值）',
  'heads4.cross.count': '源 token：T_s = {S}',
  'heads4.cross.padHint': '点击某个源 token，把它标记为填充（作为键被遮住）。',
  'heads4.cross.padTitle': '填充：开/关',
  'heads4.cross.causal': '同时加因果掩码（目标位置 i 只看源位置 ≤ i）',
  'heads4.cross.maskNote': '交叉注意力的掩码只由这两项决定；掩码工作台的设置用于自注意力。',
  'heads4.cross.title': '交叉注意力：Q、K、V 从哪里来',
  'heads4.cross.caption':
    '和编码器–解码器中一样：查询来自正在生成的句子（目标句），键和值来自编码后的输入（源句）。',
  'heads4.cross.fromQ': 'Q = X_target · W_Q：目标句每个 token 一行，T = {T} 行 × d_model = {dModel}。',
  'heads4.cross.fromKV': 'K = X_source · W_K，V = X_source · W_V：源句每个 token 一行，T_s = {S} 行 × {cols}。',
  'heads4.cross.shape':
    '因此 {heads} 张注意力图都是 T × T_s = {T} × {S}：每个目标 token 一行，每个源 token 一列；每个目标 token 的输出是源句各个值的加权平均。',
  'heads4.cross.padded': '填充：源 token {list} 作为键被遮住。',
  'heads4.cross.noPadding': '没有填充：每个源 token 都可以被关注。',
  'heads4.cross.causalOn':
    '因果掩码：开——目标位置 i 只能看到源位置 j ≤ i。（在解码器中，因果掩码属于它的自注意力；交叉注意力通常能看到整个源句。）',
  'heads4.cross.causalOff': '因果掩码：关——每个目标 token 都能看到整个源句。',
  'heads4.cross.positions': '位置：正弦位置编码同时加在目标句和源句上。',
  'heads4.cross.xTarget': 'X_target',
  'heads4.cross.xSource': 'X_source',
  'heads4.cross.map': 'A{sup}：目标 × 源',

  'heads4.pos.legend': '位置编码',
  'heads4.pos.none': '不加',
  'heads4.pos.sinusoidal': '正弦位置编码（《Attention Is All You Need》）',
  'heads4.pos.title': '位置编码',
  'heads4.pos.noneCaption':
    '没有位置编码：X 只包含 token 向量，注意力无法知道 token 在第几位。在下面打乱 token 的顺序看看。',
  'heads4.pos.sinCaption': 'X = E + P：token 向量 E 加上每个位置一个固定向量 P（T = {T} 个位置 × d_model = {dModel}）。',
  'heads4.pos.e': 'E（token 向量）',
  'heads4.pos.p': 'P（位置）',
  'heads4.pos.x': 'X = E + P',

  'heads4.shuffle.title': '打乱 token 的顺序',
  'heads4.shuffle.caption':
    '同样的 token 换一个顺序，分别在不加位置编码和加正弦位置编码时计算，都不加掩码（因果掩码本身就与顺序有关）。把每个 token 的输出行与它打乱后的那一行比较。',
  'heads4.shuffle.button': '打乱 token',
  'heads4.shuffle.again': '再打乱一次',
  'heads4.shuffle.typed': '恢复输入的顺序',
  'heads4.shuffle.one': '一个 token 无法打乱：请至少输入两个。',
  'heads4.shuffle.failed': '打乱后的输入无法计算。',
  'heads4.shuffle.typedOrder': '输入的顺序：',
  'heads4.shuffle.newOrder': '打乱后：',
  'heads4.shuffle.noneSame': '不加位置编码：每个输出行都没有变，只是跟着自己的 token 换了位置（最大差值 {max}）。',
  'heads4.shuffle.noneChanged': '不加位置编码：{T} 个输出行中有 {n} 个变了（最大差值 {max}）。',
  'heads4.shuffle.sinSame': '加位置编码：没有输出行发生变化（最大差值 {max}）。',
  'heads4.shuffle.sinChanged': '加位置编码：{T} 个输出行中有 {n} 个变了（最大差值 {max}）——同一个 token 换了位置，输出也就不同了。',
  'heads4.shuffle.token': 'token',
  'heads4.shuffle.position': '位置：输入 → 打乱后',
  'heads4.shuffle.diffNone': '不加位置编码：最大 |Δ|',
  'heads4.shuffle.diffSin': '加位置编码：最大 |Δ|',
  'heads4.shuffle.withoutTitle': '不加位置编码',
  'heads4.shuffle.withTitle': '加正弦位置编码',
  'heads4.shuffle.outTyped': '输出，输入的顺序',
  'heads4.shuffle.outShuffled': '输出，打乱后的顺序',
};
