// The learner's sequence in a task's vocabulary: read from what they typed, and shown back. No DOM.

// A sequence per task to start from, in its default vocabulary: the maps show it while training.
// induction: a filler, then a segment of distinct tokens twice (tasks.cpp's shape);
// reverse and sort: tokens, the separator, the answer.
export const EXAMPLES = Object.freeze({
  previous: 'g c k a f i b l e h d j',
  induction: 'k d n m b f o p c m b f o p c',
  reverse: 'c h a e f | f e a h c',
  sort: 'g b i d a | a b d g i',
  text: 'Your journey starts with one',
});

/** How a token is shown: a space as ␣ (a label of a map, a chip). */
export const shownToken = (token) => (token === ' ' ? '␣' : token);

/** The example a task starts with, if its vocabulary has every token of it (else the first tokens). */
export function exampleOf(task, vocab, contextLength) {
  const read = readSequence(EXAMPLES[task] ?? '', vocab, contextLength);
  return read.ok && read.tokens.length > 0 ? read.tokens : vocab.filter((token) => token !== ' ').slice(0, Math.min(contextLength, 8));
}

/**
 * What the learner typed, as tokens of `vocab`: with a space in the vocabulary (text), one token
 * per character; otherwise tokens apart by spaces, a run of one-character tokens may be written
 * together ('abc|cba'). → { ok: true, tokens } | { ok: false, key, params }
 */
export function readSequence(text, vocab, contextLength) {
  const known = new Set(vocab);
  let tokens;
  if (known.has(' ')) {
    tokens = Array.from(text);
  } else {
    tokens = [];
    for (const piece of text.split(/\s+/).filter(Boolean)) {
      if (known.has(piece)) tokens.push(piece);
      else tokens.push(...Array.from(piece));
    }
  }
  const unknown = tokens.find((token) => !known.has(token));
  if (unknown !== undefined)
    return { ok: false, key: 'train.error.unknownToken', params: { token: unknown, vocab: vocab.map(shownToken).join(' ') } };
  if (tokens.length === 0) return { ok: false, key: 'train.error.empty', params: {} };
  if (tokens.length > contextLength) return { ok: false, key: 'train.error.tooLong', params: { T: tokens.length, max: contextLength } };
  return { ok: true, tokens };
}

/** The tokens as the box shows them (the inverse of readSequence). */
export function sequenceText(tokens, vocab) {
  return vocab.includes(' ') ? tokens.join('') : tokens.join(' ');
}
