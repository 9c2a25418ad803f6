// The state an exercise is about. The `ex` text carries it (its `state`: the link text of every
// field that computes, as a link writes it), so that its questions are checked against that
// state's results whatever the reader changes afterwards, and a link whose state was edited still
// checks against the exercise's own. No DOM.
import { LIMITS, ALL_FIELDS } from '../state/schema.js';
import { decodeHash, draftOf, encodeHash } from '../state/url.js';
import { toEngineConfig, validateDraft } from '../state/validate.js';
import { configKey } from '../views/config-key.js';

// Where the reader looks (the step, the cell, the exercise itself) is not part of what is asked.
const COMPUTING_FIELDS = ALL_FIELDS.filter((field) => !field.look);

/** The link text (without '#') of what `state` computes, in `presetId`'s terms. */
export const pinnedTextOf = (presetId, state) => encodeHash({ presetId, state }, { fields: COMPUTING_FIELDS }).replace(/^#/, '');

/**
 * An exercise's pinned state text → { ok: true, presetId, state, draft } (state validated as the
 * store validates it), or { ok: false } when the text is not a state the page can compute.
 */
export function readPinned(text, limits = LIMITS) {
  if (typeof text !== 'string') return { ok: false };
  const read = decodeHash(text ? `#${text}` : '', { fields: COMPUTING_FIELDS });
  if (!read.known || read.ignored.length) return { ok: false };
  const checked = validateDraft(read.draft, limits);
  return checked.ok ? { ok: true, presetId: read.presetId, state: checked.state, draft: read.draft } : { ok: false };
}

/** A state the page holds, pinned as it is (an exercise of an older page names none). */
export const pinnedAsIs = (presetId, state) => ({ ok: true, presetId, state, draft: draftOf(state) });

/** What a state computes, as a key: two states with the same key have the same results. */
export const computedKey = (state) => configKey(toEngineConfig(state));
