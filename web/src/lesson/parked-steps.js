// One step at a time, the sections of other steps stay in the page, parked (no height, content
// skipped but its layout kept: lesson.css), so that showing one again, or the next or previous
// step built ahead in idle time, costs little style and layout (a section attached anew is laid
// out whole). While parked their content is not painted, focusable or in the accessibility tree,
// so a lookup of a cell on screen skips them.
import { THRESHOLDS } from '../render/thresholds.js';
import { STEPS, stepIndex } from './steps.js';

// (classList.toggle with its force argument, not add or remove: those write the class attribute
// even when they change nothing, a mutation of each shown step's class on every update)
export const unpark = (el) => el.classList.toggle('parked', false);

export function createParking(container) {
  let shownAt = 0;
  const order = (el) => stepIndex(el.dataset.step);

  // A selection left in a parked step is let go: Chromium computes the selection's bounds before
  // every frame, slowly for a caret in skipped content. The sections holding it are followed as it
  // changes (reading it in a render forced a style and layout there).
  let selectedSections = [];
  document.addEventListener('selectionchange', () => {
    const selection = document.getSelection();
    const nodes = [selection?.anchorNode, selection?.focusNode].filter((node) => node && container.contains(node));
    selectedSections = [...container.children].filter((el) => nodes.some((node) => el.contains(node)));
  });

  /** Inserts `el` among the sections in step order. */
  function insert(el) {
    const after = [...container.children].find((child) => order(child) > order(el)) ?? null;
    container.insertBefore(el, after);
  }

  /** Shows the sections `els`, parking the others: at most parkedSteps, the neighbours of the
   *  steps shown first (prefetch builds them again as soon as they are gone), then the most
   *  recently shown. */
  function show(els) {
    for (const el of els) if (el.parentNode !== container) insert(el);
    for (const el of els) {
      unpark(el);
      el.shownAt = ++shownAt;
    }
    const parked = [...container.children].filter((child) => !els.includes(child));
    const neighbours = new Set(els.flatMap((el) => [STEPS[order(el) - 1]?.id, STEPS[order(el) + 1]?.id]));
    const isNeighbour = (el) => Number(neighbours.has(el.dataset.step));
    parked.sort((a, b) => isNeighbour(b) - isNeighbour(a) || (b.shownAt ?? 0) - (a.shownAt ?? 0));
    parked.forEach((child, n) => {
      if (n < THRESHOLDS.parkedSteps) child.classList.toggle('parked', true);
      else child.remove();
    });
    if (parked.some((el) => selectedSections.includes(el) && el.isConnected)) document.getSelection()?.removeAllRanges();
  }

  /** Parks a section built ahead (prefetch), laid out once before its content is skipped: parked
   *  from the start, its figures were never laid out, and the first showing laid them all out. */
  function parkAhead(el) {
    el.shownAt = 0; // the first to go, once no longer a neighbour, if too many are parked
    el.classList.add('parked', 'prelayout');
    insert(el);
    void el.offsetHeight;
    el.classList.remove('prelayout');
  }

  return { show, parkAhead };
}
