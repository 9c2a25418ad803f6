// A step's formula lines brought up to date with the TeX the step asks for now, touching only the
// lines that change. A line with alternatives (typesetStack: naive or stable softmax, M's fill,
// softmax with or without τ) shows another of its forms; a single line is rewritten in place
// (retypeset); a line that comes or goes (τ's value, shown while τ ≠ 1) is added or removed on
// its own: rebuilding every line whenever their number changed restyled all their KaTeX elements
// each time the slider crossed τ = 1 (docs/performance.md).
import { scrollWhenNeeded } from '../render/overflow-class.js';
import { retypeset, showInStack, stackHolds, typeset, typesetStack } from './typeset.js';

const isStack = (line) => line.classList.contains('formula-stack');

/**
 * container: the element holding the lines; texts: the TeX of each line, in order;
 * variantsOf(tex): the forms a line switches among ([tex] for a line without alternatives);
 * className: the lines' class; labelOf(n): a new line's name, for when it scrolls (a phone's width).
 */
export function updateFormulaLines(container, texts, variantsOf, className, labelOf = null) {
  const old = [...container.children];
  const used = new Set();
  let from = 0; // old lines are taken in order: none before the last one taken
  const lines = texts.map((tex) => {
    const variants = variantsOf(tex);
    const stacked = variants.length > 1;
    const fits = (line) => (stacked ? isStack(line) && stackHolds(line, tex) : !isStack(line));
    // A single line with this very TeX first (nothing to rewrite), else the next that fits.
    let k = stacked ? -1 : old.findIndex((line, i) => i >= from && !isStack(line) && line.dataset.tex === tex);
    if (k < 0) k = old.findIndex((line, i) => i >= from && fits(line));
    if (k < 0) {
      const line = stacked ? typesetStack(variants, tex, { display: true, className }) : typeset(tex, { display: true, className });
      const n = container.childElementCount + 1;
      return labelOf ? scrollWhenNeeded(line, () => labelOf(n)) : line;
    }
    from = k + 1;
    const line = old[k];
    used.add(line);
    if (stacked) showInStack(line, tex);
    else retypeset(line, tex, true);
    return line;
  });
  // Lines no longer asked for go; the kept ones stay where they are (moving a node would style
  // and lay out its formula again) and the new ones are put in between.
  for (const line of old) if (!used.has(line)) line.remove();
  let next = container.firstChild;
  for (const line of lines) {
    if (line === next) next = next.nextSibling;
    else container.insertBefore(line, next);
  }
}
