// The presets gallery: curated examples, each a link with a paragraph in English and Chinese
// (share-en.js / share-zh-CN.js: gallery.<id>.title and gallery.<id>.text). An example is a
// preset of web/src/presets/ (read from the preset list, never copied) plus changes; presets
// that no example names are listed after them with their own label and note. No DOM here.
import { COURSE_EXERCISES } from '../exercise/course-exercises.js';
import { DEFAULT_IN_LANGUAGE, PRESETS } from '../state/presets.js';
import { encodeHash, presetState } from '../state/url.js';

const SENTENCE = 'Your journey starts with one step';

export const GALLERY = Object.freeze([
  // The course's worked example (attention-worked-example.zh.txt, section 6).
  { id: 'journey', preset: 'journey' },
  { id: 'journey-bidirectional', preset: 'journey', changes: { mask: 'none' } },
  { id: 'journey-unscaled', preset: 'journey', changes: { scale: false } },
  // "The cat sat" and self-test question 2 of attention-with-self-test.zh.md: the lesson's
  // presets (web/src/presets/), with the gallery's own paragraphs.
  { id: 'cat-sat', preset: 'cat' },
  { id: 'self-test-2', preset: 'selftest' },
  { id: 'default', preset: 'default' },
  { id: 'four-heads', preset: 'default', changes: { dModel: 8, heads: 4, seed: 1 } },
  { id: 'one-head', preset: 'default', changes: { dModel: 8, heads: 1, seed: 1 } },
  { id: 'other-seed', preset: 'default', changes: { seed: 42 } },
  {
    id: 'it-was-tired',
    preset: 'default',
    changes: { sentence: "The animal didn't cross the street because it was too tired", dModel: 12, heads: 3, seed: 7 },
  },
  { id: 'chinese', preset: 'default', changes: { ...DEFAULT_IN_LANGUAGE['zh-CN'], mask: 'none' } },
  // Exercises from the course: predict, then check (web/src/exercise/).
  ...COURSE_EXERCISES,
  // The shipped checkpoints (web/src/presets/checkpoints/), opened in the Train panel at once;
  // their paragraphs are in train-en.js / train-zh-CN.js.
  { id: 'trained-previous', preset: 'default', changes: { train: 'previous_v2_ckpt_s0', view: 'train' } },
  { id: 'trained-induction', preset: 'default', changes: { train: 'induction_v2_ckpt_s0', view: 'train' } },
  { id: 'trained-sort', preset: 'default', changes: { train: 'sort_v2_ckpt_s0', view: 'train' } },
  // Today's attention (web/src/modern/): each opens its panel's example at a telling step.
  { id: 'flash-worked', preset: 'journey', changes: { flashRows: 2, flashKeys: 2, flashTile: 5 } },
  { id: 'kv-journey', preset: 'journey', changes: { kvStep: 4 } },
  { id: 'rope-distance', preset: 'default', changes: { positional: 'rope', dModel: 16, ropeToken: 4 } }, // d_k = 8: four pairs, four speeds
  { id: 'alibi', preset: 'default', changes: { dModel: 8, heads: 4, alibi: true, step: 'mask' } },
]);

export { SENTENCE as GALLERY_SENTENCE };

/**
 * The gallery as shown: [{ id, preset, titleKey, textKey, hash, state }]. Curated examples first,
 * then every preset no curated example is based on unchanged (with its labelKey and noteKey).
 */
export function galleryItems() {
  const items = GALLERY.filter((item) => Object.hasOwn(PRESETS, item.preset)).map((item) => {
    const state = { ...presetState(item.preset), ...(item.changes ?? {}) };
    return {
      id: item.id,
      preset: item.preset,
      titleKey: `gallery.${item.id}.title`,
      textKey: `gallery.${item.id}.text`,
      state,
      hash: encodeHash({ presetId: item.preset, state }),
    };
  });
  const covered = new Set(GALLERY.filter((item) => !item.changes).map((item) => item.preset));
  for (const [id, preset] of Object.entries(PRESETS)) {
    if (covered.has(id)) continue;
    const state = presetState(id);
    items.push({
      id: `preset-${id}`,
      preset: id,
      titleKey: preset.labelKey,
      textKey: preset.noteKey ?? null,
      state,
      hash: encodeHash({ presetId: id, state }),
    });
  }
  return items;
}
