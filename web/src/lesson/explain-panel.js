// The explanation beside the matrices: the cell in words, the general formula (KaTeX), the same
// formula with the real numbers, and notes. Text goes in through textContent only.
import { h } from '../views/dom.js';
import { typeset } from './typeset.js';

/**
 * node: the panel element. explained: explainCell(...) output or null.
 * mode: 'selected' (a cell the reader picked) or 'preview' (under the pointer).
 */
export function renderExplanation(node, explained, mode, t) {
  if (!explained) {
    node.replaceChildren(
      h('h2', { text: t('explain.title') }),
      h('p', { className: 'explain-empty', text: t('explain.empty') }),
    );
    node.dataset.cell = '';
    return;
  }
  node.replaceChildren(
    h('h2', { text: t('explain.title') }),
    h('p', { className: 'explain-mode', text: t(mode === 'preview' ? 'explain.preview' : 'explain.selected') }),
    h('p', { className: 'explain-heading' }, [h('strong', { className: 'explain-symbol', text: explained.symbol }), ' ', explained.heading]),
    typeset(explained.tex, { display: true, className: 'explain-tex' }),
    h('div', { className: 'explain-lines' }, explained.lines.map((line) => h('p', { className: 'explain-line', text: line }))),
  );
  // (replaceChildren would print a null argument as the text "null": the notes are appended only
  // when there are any.)
  const notes = explained.notes.filter(Boolean);
  if (notes.length) node.append(h('ul', { className: 'explain-notes' }, notes.map((note) => h('li', { text: note }))));
  node.dataset.cell = explained.ref ?? '';
}
