// The tokenization control under the sentence: at spaces, per character, or into words
// (Intl.Segmenter, for Chinese and other text without spaces). Radios inside the page's form, so
// the form's input event recomputes; texts through data-i18n.
import { h } from '../render/dom.js';
import { TOKENIZE_MODES } from '../state/schema.js';

export function createTokenizeControl() {
  const el = h('div', { className: 'tokenize-mode', role: 'radiogroup', 'aria-labelledby': 'tokenize-label', dataset: { field: 'tokenization' } }, [
    h('span', { id: 'tokenize-label', className: 'hs-label', dataset: { i18n: 'heads.tok.label' } }),
    ...TOKENIZE_MODES.map((mode) =>
      h('label', { className: 'check' }, [
        h('input', { type: 'radio', name: 'tokenization', value: mode }),
        ' ',
        h('span', { dataset: { i18n: `heads.tok.${mode}` } }),
      ]),
    ),
  ]);
  return {
    el,
    read: () => el.querySelector('input[name="tokenization"]:checked')?.value ?? 'whitespace',
    write(mode) {
      for (const input of el.querySelectorAll('input[name="tokenization"]')) input.checked = input.value === mode;
    },
  };
}

/** The i18n key of the token count next to the sentence, by tokenization mode. */
export const tokenCountKey = (mode) => (mode === 'char' ? 'heads.tok.countChar' : mode === 'word' ? 'heads.tok.countWord' : 'controls.tokens');
