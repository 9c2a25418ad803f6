// Marks a scroll box with the class `overflows` while what it holds does not fit in it, so that
// CSS can keep a table's labels sticky only where the table can scroll under them (main.css).
//
// Why not always: Chromium makes each sticky label over a composited figure a layer of its own and
// sorts the page into layers again on every frame that changes them (docs/performance.md).
//
// One ResizeObserver per box: it watches the box (its size follows the window) and what it holds
// (its size follows the numbers). Held as long as the box is, and dropped with it: nothing else
// refers to the observer, and whether a browser keeps one that script cannot reach is not said.
const observers = new WeakMap(); // box → its observer
// changed(over): told each time the box starts or stops overflowing (and with true where no observer is).
export function watchOverflow(box, changed = null) {
  if (typeof ResizeObserver !== 'function') {
    box.classList.add('overflows'); // sticky everywhere, as before
    changed?.(true);
    return;
  }
  const observer = new ResizeObserver(() => {
    // Sizes are laid out when the observer reports: reading them costs no layout of its own.
    const over = box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight;
    if (box.classList.contains('overflows') === over) return;
    box.classList.toggle('overflows', over);
    changed?.(over);
  });
  observer.observe(box);
  for (const child of box.children) observer.observe(child);
  observers.set(box, observer);
}

/**
 * A box that scrolls sideways where what it holds does not fit (a phone's width): while it does, it
 * can take the focus, so that the arrow keys scroll it, and is a region named `label` (a text, or a
 * function read then: the language may have changed since); a shadow
 * shows where more is (.scroll-shadow.scrolls, main.css). → box
 */
export function scrollWhenNeeded(box, label) {
  box.classList.add('scroll-shadow');
  watchOverflow(box, (overflowing) => {
    // (content a pixel past a box that does not scroll, as KaTeX's often is, is no scroll box)
    const over = overflowing && /auto|scroll/.test(getComputedStyle(box).overflowX);
    box.classList.toggle('scrolls', over);
    for (const [name, value] of [
      ['tabindex', '0'],
      ['role', 'region'],
      ['aria-label', typeof label === 'function' ? label() : label],
    ]) {
      if (over) box.setAttribute(name, value);
      else box.removeAttribute(name);
    }
  });
  return box;
}
