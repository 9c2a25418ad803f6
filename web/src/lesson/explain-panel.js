// The explanation beside the matrices: the cell in words, the general formula (KaTeX), the same
// formula with the real numbers, and notes. Text goes in through textContent only.
//
// The panel's parts are built once and rewritten in place, each only where it changed: the
// general formula is the same for every cell of a matrix, and replacing its couple of hundred
// KaTeX nodes on every pointer move or selection cost style and layout for nothing.
import { h, placeChildren, setAttr, setText, showAlternative } from '../render/dom.js';
import { retypeset, typeset } from './typeset.js';

const parts = new WeakMap(); // panel node → its parts

function partsOf(node) {
  let p = parts.get(node);
  if (p && p.title.parentNode === node) return p;
  const symbol = h('strong', { className: 'explain-symbol' });
  const headingText = document.createTextNode('');
  // On a phone the panel is a strip at the screen's foot: this button lets it take more room.
  const more = h('button', { type: 'button', className: 'explain-more', 'aria-expanded': 'false' });
  more.addEventListener('click', () => {
    const open = node.classList.toggle('expanded');
    more.setAttribute('aria-expanded', String(open));
  });
  p = {
    title: h('h2'),
    more,
    empty: h('p', { className: 'explain-empty' }),
    mode: h('p', { className: 'explain-mode' }),
    heading: h('p', { className: 'explain-heading' }, [symbol, ' ', headingText]),
    symbol,
    headingText,
    tex: null, // the formula's stack, made with the first formula
    matrix: null, // of the formulas in it
    lines: h('div', { className: 'explain-lines' }),
    notes: h('ul', { className: 'explain-notes' }),
  };
  node.replaceChildren(p.title, p.more);
  parts.set(node, p);
  return p;
}

// The children of `list` as one element per text (tag), rewritten in place.
function setList(list, texts, tag, className) {
  while (list.childElementCount > texts.length) list.lastElementChild.remove();
  texts.forEach((text, k) => {
    const child = list.children[k] ?? list.appendChild(h(tag, { className }));
    setText(child, text);
  });
}

// The general formula: its forms met while explaining one matrix (a weight with naive softmax on
// or off, an entry of M with another fill) are kept on top of each other, one shown
// (showAlternative), so that switching back and forth restyles and lays out nothing, where typesetting
// the formula anew did (docs/performance.md). A form is
// its TeX with the numbers left out (another entry, another τ): the kept one is rewritten for
// them (retypeset). Another matrix starts the stack again; it holds MAX_FORMS at most.
const MAX_FORMS = 6;
const formOf = (tex) => tex.replace(/\d+(\.\d+)?/g, '#');
function showFormula(p, tex, matrix) {
  if (!p.tex) p.tex = h('div', { className: 'explain-stack' });
  if (p.matrix !== matrix) {
    p.matrix = matrix;
    p.tex.replaceChildren();
  }
  const form = formOf(tex);
  let shown = [...p.tex.children].find((node) => node.form === form);
  if (shown) retypeset(shown, tex, true);
  else {
    shown = typeset(tex, { display: true, className: 'explain-tex' });
    shown.form = form;
    if (p.tex.childElementCount >= MAX_FORMS) p.tex.firstElementChild.remove(); // the oldest
    p.tex.append(shown);
  }
  showAlternative(p.tex, shown);
}

// node's children: its title and button, then `wanted` in order (only those not in place are moved).
const showParts = (node, p, wanted) => placeChildren(node, [p.title, p.more, ...wanted]);

/**
 * node: the panel element. explained: explainCell(...) output or null.
 * mode: 'selected' (a cell the reader picked), 'preview' (under the pointer) or 'last' (the last
 * cell pointed at, once the pointer has left the matrices).
 */
export function renderExplanation(node, explained, mode, t) {
  const p = partsOf(node);
  setText(p.title, t('explain.title'));
  setText(p.more, t('explain.more'));
  if (!explained) {
    setText(p.empty, t('explain.empty'));
    showParts(node, p, [p.empty]);
    setAttr(node, 'data-cell', '');
    return;
  }
  setText(p.mode, t(`explain.${mode}`)); // explain.selected, explain.preview, explain.last
  setText(p.symbol, explained.symbol);
  if (p.headingText.data !== explained.heading) p.headingText.data = explained.heading;
  showFormula(p, explained.tex, (explained.ref ?? '').split('.')[0]);
  setList(p.lines, explained.lines, 'p', 'explain-line');
  // (The notes are shown only when there are any.)
  const notes = explained.notes.filter(Boolean);
  setList(p.notes, notes, 'li');
  showParts(node, p, notes.length ? [p.mode, p.heading, p.tex, p.lines, p.notes] : [p.mode, p.heading, p.tex, p.lines]);
  setAttr(node, 'data-cell', explained.ref ?? '');
}

/**
 * The one sentence a move to another selected cell says (the heading, the symbol, the printed
 * value) into `say`, the page's only live region for moves: the panel is not live (its formula
 * was re-read at every arrow press) and neither are the canvases' readouts. Pointing says nothing.
 */
export function announceCell(say, explained, value, mode, t) {
  if (!say || mode !== 'selected') return;
  const ref = explained?.ref ?? '';
  if (say.dataset.cell === ref) return; // the same cell recomputed: no move, nothing to say
  say.dataset.cell = ref;
  setText(say, ref ? t('explain.say', { heading: explained.heading, symbol: explained.symbol, value }) : '');
}
