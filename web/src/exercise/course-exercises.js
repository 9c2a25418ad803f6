// Ready exercises from the course material (../shared/course/): its worked example to predict,
// its five self-test questions, and one exercise per misconception it lists. Each is a gallery
// example (share/gallery.js): a preset, the changes it needs, and the exercise's link text. The
// numbers asked are the engine's; only the texts of choices are written here. No DOM.
import { presetState } from '../state/url.js';
import { readExercise, writeExercise } from './exercise-text.js';
import { pinnedTextOf } from './pinned-state.js';

const text = (en, zh) => ({ en, 'zh-CN': zh });

// A gallery example of `exercise` on `preset` with `changes`, its link text as the builder writes
// it: pinned to that state, the right options as checks, not indices.
function example(id, exercise, preset, changes) {
  const read = readExercise(JSON.stringify(exercise)).exercise;
  const state = pinnedTextOf(preset, { ...presetState(preset), ...changes });
  return { id, preset, changes: { ...changes, exercise: writeExercise({ ...read, state }) } };
}

const worked = {
  title: text('The worked example: s₂₁, a₂₁ and o₂', '教程中的例子：s₂₁、a₂₁ 和 o₂'),
  questions: [
    {
      kind: 'number',
      cell: 'scores.1.2.1',
      hint: text('q₂ · k₁ = 0.55·0.43 + 0.87·0.15 + 0.66·0.89, then ÷ √3.', 'q₂ · k₁ = 0.55·0.43 + 0.87·0.15 + 0.66·0.89，再除以 √3。'),
    },
    {
      kind: 'number',
      cell: 'weights.1.2.1',
      hint: text(
        'Row 2 sees keys 1 and 2 only: e^(s₂₁ − max) / (e^(s₂₁ − max) + e^(s₂₂ − max)).',
        '第 2 行只看得到键 1 和 2：e^(s₂₁ − max) / (e^(s₂₁ − max) + e^(s₂₂ − max))。',
      ),
    },
    { kind: 'number', cell: 'context.1.2.1', hint: text('o₂ = a₂₁·v₁ + a₂₂·v₂, and V = X here.', 'o₂ = a₂₁·v₁ + a₂₂·v₂，这里 V = X。') },
    { kind: 'number', cell: 'context.1.2.2', hint: text('The second column: a₂₁·0.15 + a₂₂·0.87.', '第二列：a₂₁·0.15 + a₂₂·0.87。') },
    { kind: 'number', cell: 'context.1.2.3', hint: text('The third column: a₂₁·0.89 + a₂₂·0.66.', '第三列：a₂₁·0.89 + a₂₂·0.66。') },
  ],
};

const selfTest = {
  title: text('The course’s five self-test questions', '教程的五道自测题'),
  questions: [
    {
      kind: 'choice',
      prompt: text(
        'Question 1. Where do Q, K and V come from in self-attention, and in cross-attention?',
        '题 1：self-attention 和 cross-attention 中，Q、K、V 分别来自哪里？',
      ),
      options: [
        text(
          'Self-attention: all three from the same input. Cross-attention: Q from the decoder, K and V from the encoder’s output.',
          'self-attention：三者同源；cross-attention：Q 来自解码器，K、V 来自编码器输出。',
        ),
        text(
          'Self-attention: Q from the decoder, K and V from the encoder. Cross-attention: all three from the same input.',
          'self-attention：Q 来自解码器，K、V 来自编码器；cross-attention：三者同源。',
        ),
        text('Always all three from the same input.', '总是三者同源。'),
      ],
      answer: 0,
      hint: text(
        'Turn on cross-attention in the settings: which matrices change when you edit the source sentence?',
        '在设置里打开交叉注意力：编辑源句子时，哪些矩阵会变？',
      ),
    },
    {
      kind: 'number',
      cell: 'weights.1.2.1',
      prompt: text(
        'Question 2. d_k = 8, row 2’s scores before scaling are [2, 4, 2] (see QKᵀ). Predict its first weight a₂₁ after ÷ √8 and softmax.',
        '题 2：d_k = 8，第 2 行缩放前的分数是 [2, 4, 2]（见 QKᵀ）。除以 √8 并做 softmax 后，预测第一个权重 a₂₁。',
      ),
      hint: text('[2, 4, 2] / 2.83 ≈ [0.71, 1.41, 0.71]; e^(0.71 − 1.41) ≈ 0.49.', '[2, 4, 2] / 2.83 ≈ [0.71, 1.41, 0.71]；e^(0.71 − 1.41) ≈ 0.49。'),
    },
    {
      kind: 'number',
      cell: 'weights.1.2.2',
      prompt: text('Question 2, continued: predict a₂₂.', '题 2（续）：预测 a₂₂。'),
      hint: text('1 / (0.49 + 1 + 0.49).', '1 / (0.49 + 1 + 0.49)。'),
    },
    {
      kind: 'choice',
      prompt: text(
        'Question 2, the printed answer: the material says “close to [0.09, 0.82, 0.09]”. Which is right?',
        '题 2 的印刷答案：资料说“接近 [0.09, 0.82, 0.09]”。哪个对？',
      ),
      options: [
        text(
          'The page’s row, much flatter: the printed one is far too peaked, even for the scores without ÷ √8',
          '页面上的那一行，平坦得多：印刷的答案过于尖锐，即使不除以 √8 也是如此',
        ),
        text('[0.09, 0.82, 0.09], as printed', '[0.09, 0.82, 0.09]，与印刷的相同'),
        text('Both: they differ only by rounding', '两者都对：只差在四舍五入'),
      ],
      answer: 0,
      hint: text('Compare with row 2 of A on the page.', '与页面上 A 的第 2 行比较。'),
    },
    {
      kind: 'choice',
      prompt: text(
        'Question 3. Training a language model without the causal mask: what happens?',
        '题 3：训练生成式语言模型时忘了加因果掩码，会怎样？',
      ),
      options: [
        text(
          'Each position reads the token it must predict from the keys after it: training looks perfect, and generation, with no future to read, fails.',
          '每个位置都能从后面的键里读到要预测的 token：训练看起来完美，而生成时没有未来可读，质量急剧下降。',
        ),
        text('Nothing: the weights are learned either way.', '没有影响：权重照样能学到。'),
        text('Training fails with NaN.', '训练会出现 NaN 而失败。'),
      ],
      answer: 0,
      hint: text(
        'Open step 5 (+ M): its note shows what each row would read from the future without the mask.',
        '打开第 5 步（+ M）：其说明显示没有掩码时每一行会从未来读到什么。',
      ),
    },
    {
      kind: 'choice',
      prompt: text(
        'Question 4. scores.masked_fill(torch.triu(torch.ones(L, L), diagonal=1).bool(), -1e9), then softmax: self-attention or masked attention?',
        '题 4：scores.masked_fill(torch.triu(torch.ones(L, L), diagonal=1).bool(), -1e9) 后再 softmax：self-attention 还是 masked attention？',
      ),
      options: [
        text(
          'Masked (causal) self-attention: the upper triangle, the future, is filled with −1e9.',
          'masked（因果）self-attention：上三角（未来）被填成 −1e9。',
        ),
        text('Plain self-attention: every position sees every other.', '普通 self-attention：每个位置都看得到所有位置。'),
        text('Cross-attention: the mask picks which encoder positions to read.', 'cross-attention：掩码挑选要读取的编码器位置。'),
      ],
      answer: 0,
      hint: text('In the settings choose the mask “causal” and the fill −1e9, and look at M.', '在设置中选择“因果”掩码和填充值 −1e9，看看 M。'),
    },
    {
      kind: 'choice',
      prompt: text(
        'Question 5. English to Chinese: the decoder’s attention over the encoder has which shape?',
        '题 5：英译中时，解码器对编码器的注意力矩阵是什么形状？',
      ),
      options: [
        text('[batch, heads, target length, source length]', '[batch, heads, 目标长度, 源长度]'),
        text('[batch, heads, source length, target length]', '[batch, heads, 源长度, 目标长度]'),
        text('[batch, heads, target length, target length]', '[batch, heads, 目标长度, 目标长度]'),
      ],
      answer: 0,
      hint: text('Rows are queries (the decoder’s positions), columns keys (the encoder’s).', '行是查询（解码器的位置），列是键（编码器的位置）。'),
    },
  ],
};

const fillZero = {
  title: text('Misconception: “masking sets the scores to 0”', '误区：“掩码就是把分数置 0”'),
  questions: [
    {
      kind: 'pattern',
      row: 'weights.1.1',
      find: 'zeros',
      prompt: text(
        'Here the masked scores are filled with 0, not −∞. Which keys of row 1 (“Your”) get a weight of exactly 0? Mark them (perhaps none).',
        '这里被遮住的分数填的是 0，不是 −∞。第 1 行（“Your”）哪些键的权重恰好为 0？请标出（可能一个也没有）。',
      ),
      hint: text('e^0 = 1: a score of 0 is an ordinary score.', 'e^0 = 1：分数 0 只是一个普通的分数。'),
    },
    {
      kind: 'choice',
      prompt: text('So what must the mask put in the scores?', '那么掩码应该往分数里填什么？'),
      options: [
        text('A very large negative number (−∞ or −1e9), so that e^(score) is 0', '一个很大的负数（−∞ 或 −1e9），使 e^(score) 为 0'),
        text('0', '0'),
        text('1', '1'),
      ],
      answer: 0,
      hint: text('Change the fill in the mask workbench and watch row 1.', '在掩码工作台中改变填充值，观察第 1 行。'),
    },
  ],
};

const largeWeight = {
  title: text('Misconception: “a large weight means a strong relation”', '误区：“注意力权重越大，关系越强”'),
  questions: [
    {
      kind: 'pattern',
      row: 'weights.1.1',
      find: 'largest',
      prompt: text('Which key gets the largest weight in row 1 (“Your”)?', '第 1 行（“Your”）中哪个键的权重最大？'),
    },
    {
      kind: 'choice',
      prompt: text('Why does “Your” put all its weight there?', '为什么“Your”把全部权重放在那里？'),
      options: [
        text(
          'The causal mask leaves it only itself: the weights of a row share 1 among the keys it sees, whatever their relation.',
          '因果掩码只让它看到自己：一行的权重在它看得到的键之间分配 1，与关系强弱无关。',
        ),
        text('“Your” is strongly related to itself.', '“Your”与自己关系最强。'),
        text('Its score there is the largest of the whole matrix.', '它在那里的分数是整个矩阵中最大的。'),
      ],
      answer: 0,
      hint: text('Weights are relative within their row.', '权重只在同一行内相对比较。'),
    },
  ],
};

const softmaxAxis = {
  title: text('Misconception: “softmax runs over the columns”', '误区：“softmax 是按列做的”'),
  questions: [
    {
      kind: 'number',
      cell: 'weights.1.3.3',
      prompt: text('Predict a₃₃: row 3 (“starts”) sees keys 1 to 3.', '预测 a₃₃：第 3 行（“starts”）看得到键 1 到 3。'),
    },
    {
      kind: 'choice',
      prompt: text('Which entries of A sum to 1?', 'A 的哪些元素之和为 1？'),
      options: [
        text('Each row: one query’s weights over its keys', '每一行：一个查询在其各个键上的权重'),
        text('Each column: one key’s weights over the queries', '每一列：一个键在各个查询上的权重'),
        text('All the entries of A together', 'A 的全部元素加在一起'),
      ],
      answer: 0,
      hint: text(
        'In the softmax lab, switch “normalise over” to queries and read the row sums.',
        '在 softmax 实验室里把“归一化方向”改为查询，看看每行的和。',
      ),
    },
  ],
};

const order = {
  title: text('Misconception: “self-attention knows the word order”', '误区：“self-attention 自带词序信息”'),
  questions: [
    {
      kind: 'choice',
      prompt: text(
        'No mask, no positional encoding. Swap “journey” and “step” in the sentence: what happens to the output rows?',
        '没有掩码，也没有位置编码。在句子里交换“journey”和“step”：输出的各行会怎样？',
      ),
      options: [
        text(
          'The same rows, swapped with their tokens: attention alone does not see the order',
          '相同的行，只是随 token 一起交换了位置：单靠注意力看不到顺序',
        ),
        text('Every row changes', '每一行都会变'),
        text('Every row stays where it was: each position keeps its output', '每一行都留在原处：每个位置保留自己的输出'),
      ],
      answer: 0,
      hint: text(
        'Try it: edit the sentence and compare output rows 2 and 6 (the tokens carry their own vectors).',
        '动手试试：编辑句子，比较输出的第 2 行和第 6 行（每个 token 带着自己的向量）。',
      ),
    },
  ],
};

/** The gallery's exercises: { id, preset, changes }; texts gallery.<id>.title / .text. */
export const COURSE_EXERCISES = Object.freeze([
  example('exercise-worked', worked, 'journey', { step: 'all' }),
  example('exercise-self-test', selfTest, 'selftest', { step: 'softmax' }),
  example('exercise-fill-zero', fillZero, 'journey', { step: 'softmax', maskFill: '0' }),
  example('exercise-large-weight', largeWeight, 'journey', { step: 'softmax' }),
  example('exercise-softmax-axis', softmaxAxis, 'journey', { step: 'softmax' }),
  example('exercise-order', order, 'default', { mask: 'none', weights: 'identity', dModel: 4, heads: 1, step: 'output' }),
]);
