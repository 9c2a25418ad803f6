// The text task's next-character accuracy (figures only), for the page's default recipe, at a few
// step counts: on the windows of the corpus it trains on (what the Train panel reports) and on a
// passage it never sees, against what counting characters in the corpus predicts.
//   node bench/text-accuracy.mjs [--steps 0,100,250,500,1000,2000,3000] [--build simd|scalar] [--seed 1]
// The text task has no shipped checkpoint. CPU heavy: run it alone.
import { createAttention } from '../web/src/engine/attention.js';
import { formatTrainText } from '../web/src/state/schema.js';
import { readCorpus, UNSEEN } from './text-passages.mjs';

const argument = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const STEPS = argument('--steps', '0,100,250,500,1000,2000,3000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const build = argument('--build', 'simd');
const seed = Number(argument('--seed', 1));

const engine = await createAttention({ build });
const trainer = engine.createTrainer({ task: 'text', seed });
const { vocab, contextLength: T } = trainer.config;
const idOf = new Map(vocab.map((token, id) => [token, id]));
const corpus = [...readCorpus()];
if (JSON.stringify([...new Set(corpus)]) !== JSON.stringify(vocab)) throw new Error('the corpus read from tasks.cpp is not the trainer’s');
const corpusIds = corpus.map((c) => idOf.get(c));

// The corpus windows as evaluate() draws them (start uniform in [0, N − T)), every start once:
// each position predicts the next character from the window's characters up to it.
const windows = Array.from({ length: corpusIds.length - T }, (_, s) => corpusIds.slice(s, s + T + 1));
const windowCases = windows.flatMap((w) => Array.from({ length: T }, (_, t) => ({ context: w.slice(0, t + 1), target: w[t + 1] })));

// The unseen passage: each character in the vocabulary predicted from the up to T characters before
// it, back to the last character outside the vocabulary (which no model of the task can read).
const unseenCases = [];
{
  const text = [...UNSEEN];
  let runStart = 0;
  text.forEach((c, i) => {
    if (!idOf.has(c)) runStart = i + 1;
    else if (i > runStart) unseenCases.push({ context: text.slice(Math.max(runStart, i - T), i).map((x) => idOf.get(x)), target: idOf.get(c) });
  });
}

// Counting baselines from the corpus: the most frequent character, the most frequent follower of
// the last character (bigram), of the last two (trigram, else the bigram's), of the longest end of
// the context the corpus holds. Ties: the lower id.
function argmax(counts) {
  return counts.reduce((best, n, id) => (n > counts[best] ? id : best), 0);
}
const unigram = argmax(corpusIds.reduce((counts, id) => (++counts[id], counts), new Array(vocab.length).fill(0)));
const followers = new Map();
for (let i = 0; i + 1 < corpusIds.length; ++i) {
  for (const key of [`${corpusIds[i]}`, i > 0 ? `${corpusIds[i - 1]},${corpusIds[i]}` : null].filter(Boolean)) {
    if (!followers.has(key)) followers.set(key, new Array(vocab.length).fill(0));
    followers.get(key)[corpusIds[i + 1]]++;
  }
}
// (The longest match is the corpus learnt by heart: on its own windows, about the most any model gets.)
const corpusText = String.fromCharCode(...corpusIds.map((id) => id + 0x100));
function longestMatch(context) {
  const text = String.fromCharCode(...context.map((id) => id + 0x100));
  for (let k = text.length; k > 0; --k) {
    const end = text.slice(-k);
    const counts = new Array(vocab.length).fill(0);
    for (let at = corpusText.indexOf(end); at >= 0 && at + k < corpusText.length; at = corpusText.indexOf(end, at + 1)) counts[corpusIds[at + k]]++;
    if (counts.some((n) => n > 0)) return argmax(counts);
  }
  return unigram;
}
const BASELINES = {
  'most frequent character': () => unigram,
  bigram: (context) => (followers.has(`${context.at(-1)}`) ? argmax(followers.get(`${context.at(-1)}`)) : unigram),
  'trigram (else bigram)': (context) => {
    const two = context.length > 1 ? followers.get(`${context.at(-2)},${context.at(-1)}`) : null;
    return two ? argmax(two) : BASELINES.bigram(context);
  },
  'longest match in the corpus': longestMatch,
};
const accuracyOf = (cases, predict) => cases.filter(({ context, target }) => predict(context) === target).length / cases.length;

// The model: on the corpus, one run per window (predictions are causal: position t sees 0…t).
function modelOnWindows() {
  let right = 0;
  for (const w of windows) {
    const { predictions } = trainer.run(w.slice(0, T));
    right += predictions.filter((id, t) => id === w[t + 1]).length;
  }
  return right / (windows.length * T);
}
const modelOn = (cases) => accuracyOf(cases, (context) => trainer.run(context).predictions.at(-1));

// FNV-1a of every parameter's bits: run on both builds, the column must read the same.
function fingerprint() {
  let hash = 0x811c9dc5;
  for (const { data } of Object.values(trainer.parameters())) {
    for (const byte of new Uint8Array(data.buffer, data.byteOffset, data.byteLength)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

const percent = (x) => `${(100 * x).toFixed(1)} %`;
console.log(`text task, ${build} build, the page's default recipe with seed ${seed}:`);
console.log(`  ${formatTrainText({ task: 'text', config: trainer.config, steps: STEPS.at(-1) })}`);
console.log(`corpus: ${corpus.length} characters, ${windows.length} windows of ${T}; unseen passage: ${unseenCases.length} characters scored`);
console.log('\n| steps | loss, evaluate(1024) | accuracy, evaluate(1024) | accuracy, every corpus window | accuracy, unseen passage | parameters |');
console.log('| ---: | ---: | ---: | ---: | ---: | --- |');
const perCall = Math.max(1, Math.floor(1 / trainer.stepSeconds)); // (a call may take about 2 s)
for (const steps of STEPS) {
  while (trainer.steps < steps) trainer.step(Math.min(perCall, steps - trainer.steps));
  // 1 024 sequences in calls of 256 (the scalar build may not take them in one); every text
  // sequence scores T positions, so the mean of the four is the mean of all.
  const parts = Array.from({ length: 4 }, () => trainer.evaluate(256));
  const [loss, accuracy] = ['loss', 'accuracy'].map((key) => parts.reduce((sum, part) => sum + part[key], 0) / parts.length);
  console.log(
    `| ${steps} | ${loss.toFixed(3)} | ${percent(accuracy)} | ${percent(modelOnWindows())} | ${percent(modelOn(unseenCases))} | ${fingerprint()} |`,
  );
}
for (const [name, predict] of Object.entries(BASELINES)) {
  console.log(`| ${name} | | | ${percent(accuracyOf(windowCases, predict))} | ${percent(accuracyOf(unseenCases, predict))} | |`);
}
trainer.dispose();
