// The cross-attention controls: the switch, the source sentence (keys and values) typed apart
// from the target, its tokens as chips that mark padding when clicked, and causal within the
// target (off unless asked). They sit in the page's form: typing recomputes through the form's
// input event; chip clicks go through `change`.
import { h, setAttr, setHidden, setText, unchanged } from '../render/dom.js';

/** callbacks: { change(partial) } */
export function createCrossControls(callbacks) {
  const toggle = h('input', { type: 'checkbox', id: 'cross-mode' });
  const source = h('input', { type: 'text', id: 'source-sentence', spellcheck: 'false' });
  const causal = h('input', { type: 'checkbox', id: 'cross-causal' });
  const count = h('span', { id: 'source-count' });
  const chips = h('span', { id: 'source-chips', className: 'chips' });
  const details = h('div', { className: 'xa-source' }, [
    h('label', { for: 'source-sentence', dataset: { i18n: 'heads.cross.source' } }),
    h('div', { dataset: { field: 'source' } }, [source]),
    h('div', { className: 'tokens', dataset: { field: 'sourcePadding' } }, [count, chips]),
    h('p', { className: 'hint', dataset: { i18n: 'heads.cross.padHint' } }),
    h('label', { className: 'check', dataset: { field: 'crossCausal' } }, [causal, ' ', h('span', { dataset: { i18n: 'heads.cross.causal' } })]),
    h('p', { className: 'hint', dataset: { i18n: 'heads.cross.maskNote' } }),
  ]);
  const el = h('fieldset', { className: 'field xa-controls', dataset: { field: 'cross' } }, [
    h('legend', { dataset: { i18n: 'heads.cross.legend' } }),
    h('label', { className: 'check' }, [toggle, ' ', h('span', { dataset: { i18n: 'heads.cross.toggle' } })]),
    details,
  ]);
  let padding = null;

  chips.addEventListener('click', (event) => {
    const chip = event.target.closest('button[data-pad]');
    if (!chip) return;
    const i = Number(chip.dataset.pad);
    const n = chips.querySelectorAll('button[data-pad]').length;
    const next = Array.from({ length: n }, (_, k) => Boolean(padding?.[k]));
    next[i] = !next[i];
    callbacks.change({ sourcePadding: next.some(Boolean) ? next : null });
  });

  return {
    el,
    read: () => ({ cross: toggle.checked, source: source.value, crossCausal: causal.checked }),
    write(fields) {
      toggle.checked = Boolean(fields.cross);
      if (source.value !== fields.source) source.value = fields.source ?? '';
      causal.checked = Boolean(fields.crossCausal);
      setHidden(details, !fields.cross);
    },
    /** The source's tokens as chips, padding pressed; `invalid` marks the source input. */
    renderTokens(tokens, flags, t, invalid) {
      padding = flags;
      setHidden(details, !toggle.checked);
      setText(count, t('heads.cross.count', { S: tokens.length }));
      const title = t('heads.cross.padTitle');
      const shown = tokens.slice(0, 200);
      if (!unchanged(chips, [title, shown.map((token, i) => `${flags?.[i] ? 1 : 0}${token}`)].join('\u0001'))) {
        chips.replaceChildren(
          ...shown.map((token, i) =>
            h('button', {
              type: 'button',
              className: 'chip',
              dataset: { pad: String(i) },
              'aria-pressed': flags?.[i] ? 'true' : 'false',
              title,
              text: token,
            }),
          ),
        );
      }
      if (invalid) setAttr(source, 'aria-invalid', 'true');
      else if (source.hasAttribute('aria-invalid')) source.removeAttribute('aria-invalid');
    },
  };
}
