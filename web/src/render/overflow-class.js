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
