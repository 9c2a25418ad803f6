// The text task's corpus, read from kCorpus in cpp/train/tasks.cpp (the core does not hand it out;
// reading the source keeps one copy), and a passage the task never trains on: the next four
// paragraphs of Alice's Adventures in Wonderland, chapter I (Lewis Carroll, 1865, public domain;
// Millennium Fulcrum edition 3.0, its emphasis in capitals written in lower case), joined by spaces
// as the corpus joins its parts.
import { readFileSync } from 'node:fs';

/** The corpus: kCorpus's string literals joined, their \uXXXX escapes decoded. */
export function readCorpus() {
  const source = readFileSync(new URL('../cpp/train/tasks.cpp', import.meta.url), 'utf8');
  const definition = /kCorpus =([^;]*);/.exec(source);
  if (!definition) throw new Error('kCorpus not found in cpp/train/tasks.cpp');
  const literals = [...definition[1].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
  return literals.join('').replace(/\\u([0-9a-fA-F]{4})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)));
}

export const UNSEEN = [
  'So she was considering in her own mind (as well as she could, for the hot day made her feel very sleepy and stupid), ' +
    'whether the pleasure of making a daisy-chain would be worth the trouble of getting up and picking the daisies, ' +
    'when suddenly a White Rabbit with pink eyes ran close by her.',
  'There was nothing so very remarkable in that; nor did Alice think it so very much out of the way to hear the Rabbit ' +
    "say to itself, 'Oh dear! Oh dear! I shall be late!' (when she thought it over afterwards, it occurred to her that " +
    'she ought to have wondered at this, but at the time it all seemed quite natural); but when the Rabbit actually took ' +
    'a watch out of its waistcoat-pocket, and looked at it, and then hurried on, Alice started to her feet, for it ' +
    'flashed across her mind that she had never before seen a rabbit with either a waistcoat-pocket, or a watch to take ' +
    'out of it, and burning with curiosity, she ran across the field after it, and fortunately was just in time to see ' +
    'it pop down a large rabbit-hole under the hedge.',
  'In another moment down went Alice after it, never once considering how in the world she was to get out again.',
  'The rabbit-hole went straight on like a tunnel for some way, and then dipped suddenly down, so suddenly that Alice ' +
    'had not a moment to think about stopping herself before she found herself falling down a very deep well.',
].join(' ');
