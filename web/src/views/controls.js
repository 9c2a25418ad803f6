// The control panel: reading the raw values (the draft), writing them back, and the small
// derived displays next to the controls (token chips, head choices, row labels).
import { divisors, parseWholeNumber } from '../state/parse.js';
import { h, setHidden, unchanged } from '../render/dom.js';
import { THRESHOLDS } from '../render/thresholds.js';

const FIELD_CONTROLS = {
  sentence: 'sentence',
  dModel: 'd-model',
  heads: 'heads',
  seed: 'seed',
  embeddings: 'embeddings-text',
};

function checked(form, name) {
  return form.querySelector(`input[name="${name}"]:checked`)?.value;
}

export function readDraft(form) {
  return {
    sentence: form.querySelector('#sentence').value,
    dModel: form.querySelector('#d-model').value,
    heads: form.querySelector('#heads').value,
    scale: form.querySelector('#scale').checked,
    weights: checked(form, 'weights') ?? 'random',
    seed: form.querySelector('#seed').value,
    embeddingsMode: checked(form, 'embeddings') ?? 'token',
    embeddingsText: form.querySelector('#embeddings-text').value,
  };
}

// (Only what differs is written: the control being typed in keeps its caret.)
export function writeDraft(form, draft) {
  const text = (id, value) => {
    const input = form.querySelector(id);
    if (value !== undefined && input.value !== String(value)) input.value = String(value);
  };
  const check = (selector, on) => {
    const input = form.querySelector(selector);
    if (input && input.checked !== on) input.checked = on;
  };
  text('#sentence', draft.sentence);
  text('#d-model', draft.dModel);
  text('#heads', draft.heads);
  check('#scale', draft.scale !== false);
  check(`input[name="weights"][value="${draft.weights ?? 'random'}"]`, true);
  text('#seed', draft.seed);
  check(`input[name="embeddings"][value="${draft.embeddingsMode ?? 'token'}"]`, true);
  // (The text box of X is the editor's: views/embeddings-text.js.)
  syncEnabled(form);
}

// Seed only with random weights; the number editor only in "edit" mode.
export function syncEnabled(form) {
  const draft = readDraft(form);
  const seed = form.querySelector('#seed');
  if (seed.disabled !== (draft.weights !== 'random')) seed.disabled = draft.weights !== 'random';
  setHidden(form.querySelector('#embeddings-editor'), draft.embeddingsMode !== 'edit');
}

// aria-invalid on the control named by a validation error's `field` (or on none), described by
// the message box (`messageId`). Returns that control, or null.
export function markInvalid(form, field, messageId) {
  let invalid = null;
  for (const [name, id] of Object.entries(FIELD_CONTROLS)) {
    const control = form.querySelector(`#${id}`);
    if (name === field) {
      control.setAttribute('aria-invalid', 'true');
      control.setAttribute('aria-describedby', messageId);
      invalid = control;
    } else {
      control.removeAttribute('aria-invalid');
      if (control.getAttribute('aria-describedby') === messageId) control.removeAttribute('aria-describedby');
    }
  }
  return invalid;
}

// The page re-renders these on every update (every slider step): unchanged() (dom.js) skips
// building the same elements again, which cost style and layout for nothing.

// At most this many token chips; a longer sentence ends in one chip saying how many are left.
// The chips sit in a box two lines high (.tokens): at 1280 px 32 chips of short words fit in it,
// so the last chip is seen without scrolling the box; the split shows in the first few anyway.
// (A pasted sentence of 2,000 tokens made 200 chips, the first 50 or so visible.)
export const MAX_CHIPS = 32;

// The tokens as chips under the sentence, so the split at spaces is visible. t: the translator
// (the "… +N more" chip).
export function renderTokens(container, tokens, t) {
  const rest = tokens.length > MAX_CHIPS ? tokens.length - MAX_CHIPS : 0;
  const more = rest ? t('controls.moreTokens', { n: rest }) : '';
  if (unchanged(container, `${tokens.join('\u0001')}\u0002${more}`)) return;
  const chips = tokens.slice(0, MAX_CHIPS).map((token) => h('span', { className: 'chip', text: token }));
  if (rest) chips.push(h('span', { className: 'chip more', text: more }));
  container.replaceChildren(...chips);
}

// Buttons for the divisors of d_model; the current head count is pressed.
export function renderHeadChoices(container, dModelText, headsText) {
  const dModel = parseWholeNumber(dModelText);
  const heads = parseWholeNumber(headsText);
  const choices = dModel && dModel <= THRESHOLDS.divisorChoicesUpTo ? divisors(dModel) : [];
  if (unchanged(container, `${choices.join(',')}|${heads}`)) return;
  container.replaceChildren(
    ...choices.map((d) =>
      h('button', {
        type: 'button',
        className: 'choice',
        dataset: { heads: String(d) },
        'aria-pressed': d === heads ? 'true' : 'false',
        text: String(d),
      }),
    ),
  );
}
