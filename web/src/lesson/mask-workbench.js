// The mask workbench (step "+ M"): the mask kind, its width (window) or prefix length, padding
// tokens on top of any kind, the fill value of M, and whether M is added before or after the
// division by √d_k. The M matrix itself is drawn by the step view; its cells toggle the custom
// mask. Every number quoted in the notes is read from the engine's result. Below them, what the
// chosen row would read from the future without the mask (future-peek.js).
import { h, keyedChildren, setAlternatives, setAttr, setHidden, setText } from '../render/dom.js';
import { parseWholeNumber } from '../state/parse.js';
import { compareMaskOf } from './companions.js';
import { createFuturePeek } from './future-peek.js';
import { FILL_VALUES, MASK_KINDS, MAX_WIDTH } from '../state/schema.js';
import { fillText } from './explain.js';
import { fmt, indices } from '../render/numbers.js';

function radios(name, values, labelKey, t) {
  return values.map((value) =>
    h('label', { className: 'opt' }, [
      h('input', { type: 'radio', name, value }),
      ' ',
      h('span', { dataset: { i18n: `${labelKey}.${value}` }, text: t(`${labelKey}.${value}`) }),
    ]),
  );
}

/**
 * callbacks: { change(partial lesson), t() }. → { el, update(ctx) }
 * ctx: { result, state, t } (companions.js + state).
 */
export function createMaskWorkbench(callbacks) {
  const t = (...args) => callbacks.t()(...args);
  const windowInput = h('input', { id: 'lesson-window', type: 'number', min: '1', step: '1', inputmode: 'numeric' });
  const prefixInput = h('input', { id: 'lesson-prefix', type: 'number', min: '0', step: '1', inputmode: 'numeric' });
  const windowField = h('label', { className: 'param' }, [h('span', { dataset: { i18n: 'mask.window.label' } }), windowInput]);
  const prefixField = h('label', { className: 'param' }, [h('span', { dataset: { i18n: 'mask.prefix.label' } }), prefixInput]);
  // The window's and the prefix's fields share one place, kept whichever kind is chosen (unseen
  // when neither applies): a field appearing made the workbench taller and moved all the page
  // below it, laid out and painted again (a change of mask kind at T = 15: 1 708 elements moved).
  const paramSlot = h('span', { className: 'wb-param' }, [windowField, prefixField]);
  const kindSet = h('fieldset', { className: 'wb-kind' }, [
    h('legend', { dataset: { i18n: 'mask.kind.legend' } }),
    ...radios('lesson-mask', MASK_KINDS, 'mask.kind', t),
    paramSlot,
  ]);
  const padChips = h('span', { className: 'pad-chips' });
  const padSet = h('fieldset', { className: 'wb-padding' }, [
    h('legend', { dataset: { i18n: 'mask.padding.legend' } }),
    h('p', { className: 'hint', dataset: { i18n: 'mask.padding.hint' } }),
    padChips,
  ]);
  const fillSet = h('fieldset', { className: 'wb-fill' }, [
    h('legend', { dataset: { i18n: 'mask.fill.legend' } }),
    ...radios('lesson-fill', FILL_VALUES, 'mask.fill', t),
  ]);
  const orderSet = h('fieldset', { className: 'wb-order' }, [
    h('legend', { dataset: { i18n: 'mask.order.legend' } }),
    ...radios('lesson-order', ['after', 'before'], 'mask.order', t),
  ]);
  const compareBox = h('input', { id: 'lesson-compare', type: 'checkbox' });
  const compareLabel = h('span');
  const compareField = h('label', { className: 'opt compare' }, [compareBox, ' ', compareLabel]);
  const message = h('p', { className: 'lesson-error', role: 'alert', hidden: true });
  const notes = h('ul', { className: 'wb-notes' });
  const peek = createFuturePeek({ change: (partial) => callbacks.change(partial) });
  // While an exercise asks which keys the mask hides, the workbench (which says it) waits.
  const secret = h('p', { className: 'note wb-secret', dataset: { i18n: 'exercise.maskWaits' }, hidden: true });
  const body = [h('div', { className: 'wb-grid' }, [kindSet, padSet, fillSet, orderSet]), compareField, message, notes, peek.el];
  const el = h('details', { className: 'workbench', id: 'mask-workbench', open: true }, [
    h('summary', {}, [h('h3', { dataset: { i18n: 'mask.title' } })]),
    secret,
    ...body,
  ]);

  let lastTokens = null;
  let ctx = null;

  function say(key, params) {
    setText(message, key ? t(key, params) : '');
    setHidden(message, !key);
  }

  function commitWidth(input, key, min) {
    const value = parseWholeNumber(input.value);
    if (value === null || value < min || value > MAX_WIDTH) {
      say(key === 'window' ? 'lesson.error.window' : 'lesson.error.prefix', { T: ctx?.result.T ?? '' });
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    input.removeAttribute('aria-invalid');
    say(null);
    callbacks.change({ [key]: value });
  }

  el.addEventListener('change', (event) => {
    const target = event.target;
    if (target.name === 'lesson-mask') {
      say(null);
      const change = { mask: target.value };
      // Custom starts from the pattern on screen, so that one click changes one cell.
      if (target.value === 'custom' && ctx) change.customMask = currentMaskGrid(ctx.result, ctx.state);
      callbacks.change(change);
    } else if (target.name === 'lesson-fill') callbacks.change({ maskFill: target.value });
    else if (target.name === 'lesson-order') callbacks.change({ maskBeforeScale: target.value === 'before' });
    else if (target === compareBox) callbacks.change({ compare: compareBox.checked });
  });
  windowInput.addEventListener('input', () => commitWidth(windowInput, 'window', 1));
  prefixInput.addEventListener('input', () => commitWidth(prefixInput, 'prefix', 0));
  padChips.addEventListener('click', (event) => {
    const chip = event.target.closest('button[data-pad]');
    if (!chip || !ctx) return;
    const j = Number(chip.dataset.pad);
    const padding = Array.from({ length: ctx.result.T }, (_, k) => Boolean(ctx.state.padding?.[k]));
    padding[j] = !padding[j];
    callbacks.change({ padding });
  });

  function update(next) {
    ctx = next;
    const { result, state } = ctx;
    const tr = ctx.t;
    for (const node of el.querySelectorAll('[data-i18n]')) setText(node, tr(node.dataset.i18n));
    const asked = Boolean(ctx.hidesMask);
    secret.hidden = !asked;
    for (const part of body) part.hidden = asked;
    for (const input of el.querySelectorAll('input[name="lesson-mask"]')) input.checked = !asked && input.value === state.mask;
    if (asked) {
      renderNotes([]); // (cleared, not only hidden)
      return;
    }
    for (const input of el.querySelectorAll('input[name="lesson-fill"]')) input.checked = input.value === state.maskFill;
    for (const input of el.querySelectorAll('input[name="lesson-order"]')) input.checked = (input.value === 'before') === state.maskBeforeScale;
    showField(windowField, state.mask === 'window');
    showField(prefixField, state.mask === 'prefix');
    if (document.activeElement !== windowInput) windowInput.value = String(state.window);
    if (document.activeElement !== prefixInput) prefixInput.value = String(state.prefix);
    // In cross-attention the mask comes from the cross-attention controls (causal or not, padding
    // on the source); the workbench shows M but its controls rest.
    const cross = Boolean(result.source);
    for (const fieldset of el.querySelectorAll('fieldset')) fieldset.disabled = cross;
    compareBox.disabled = cross;
    compareBox.checked = state.compare;
    setText(compareLabel, tr('mask.compare', { other: tr(`mask.kind.${compareMaskOf(state.mask)}`) }));

    const tokensKey = result.tokens.join('\u0001');
    if (tokensKey !== lastTokens) {
      lastTokens = tokensKey;
      padChips.replaceChildren(
        ...result.tokens.map((token, j) => h('button', { type: 'button', className: 'chip pad', dataset: { pad: String(j) }, text: token })),
      );
    }
    // (setAttr: unchanged chips are left alone, not rewritten on every change of the mask)
    padChips.querySelectorAll('button[data-pad]').forEach((chip, j) => setAttr(chip, 'aria-pressed', state.padding?.[j] ? 'true' : 'false'));
    renderNotes(maskNotes(ctx));
    peek.update(ctx);
  }

  // A field of the shared place shown, or unseen (and out of the tab order: visibility: hidden).
  function showField(field, shown) {
    if (field.classList.contains('off') !== shown) return;
    field.classList.toggle('off', !shown);
    if (shown) field.removeAttribute('aria-hidden');
    else field.setAttribute('aria-hidden', 'true');
  }

  // The notes, one <li> per kind, kept and rewritten in place. A note with several texts (the
  // fill's, the fully masked rows') holds them all on top of each other and shows one: its height
  // is the tallest one's, so changing the fill or the order of mask and scaling does not move the
  // page below (it moved by a line or two each time, and all of it was laid out and painted again).
  const noteItems = new Map(); // kind → <li>
  function renderNotes(list) {
    const items = keyedChildren(
      notes,
      noteItems,
      list.map((note) => note.kind),
      () => h('li'),
    );
    list.forEach(({ texts, shown = 0 }, k) => {
      const li = items[k];
      if (texts.length === 1) return setText(li, texts[0]);
      // (a kind always has the same number of texts)
      if (!li.firstChild) li.append(h('span', { className: 'wb-alt' }));
      setAlternatives(li.firstChild, texts, shown);
    });
  }

  return { el, update };
}

/** The current mask as boolean[][] (true = masked), from the engine's result. */
export function currentMaskGrid(result) {
  return Array.from({ length: result.T }, (_, i) => Array.from({ length: result.Tk }, (_, j) => result.mask.data[i * result.Tk + j] === 1));
}

// The workbench's remarks about the current mask, with numbers from the result: [{ kind, texts,
// shown }], `texts[shown]` being the one to read (the others only keep the note's size).
function maskNotes({ result, state, t }) {
  const note = (kind, text) => ({ kind, texts: [text] });
  if (result.source) return [note('cross', t('mask.note.cross'))];
  const notes = [note('kind', t(`mask.desc.${state.mask}`, { w: state.window, p: state.prefix }))];
  const anyMasked = result.mask.data.some((m) => m === 1);
  if (state.padding?.some(Boolean)) notes.push(note('padding', t('mask.note.padding')));
  if (state.mask === 'custom') notes.push(note('custom', t('mask.note.custom')));
  if (!anyMasked) return notes;

  // The first masked entry of the first head, to quote S + M there.
  const n = result.mask.data.indexOf(1);
  const i = Math.floor(n / result.Tk);
  const j = n % result.Tk;
  const head = result.perHead[0];
  const cell = `(S + M)${indices(i, j)} = ${fmt(head.masked.data[n])}, a${indices(i, j)} = ${fmt(head.weights.data[n])}`;
  const fillShown = state.maskFill === '0' ? 1 : state.maskFill === '-1e9' ? (state.maskBeforeScale ? 3 : 2) : 0;
  notes.push({
    kind: 'fill',
    texts: [
      t('mask.note.inf', { cell, fill: fillText(state.maskFill) }),
      t('mask.note.fillZero', { cell }),
      t('mask.note.orderAfter', { cell }),
      t('mask.note.orderBefore', { cell }),
    ],
    shown: fillShown,
  });

  // Rows with no visible key.
  const full = [];
  for (let r = 0; r < result.T; r += 1) {
    let all = true;
    for (let c = 0; c < result.Tk && all; c += 1) all = result.mask.data[r * result.Tk + c] === 1;
    if (all) full.push(`“${result.tokens[r]}”`);
  }
  if (full.length) {
    const tokens = full.join(', ');
    notes.push({
      kind: 'allMasked',
      texts: [t('mask.note.allMasked', { tokens }), t('mask.note.allMaskedFinite', { tokens })],
      shown: state.maskFill === '-inf' ? 0 : 1,
    });
  }
  return notes;
}
