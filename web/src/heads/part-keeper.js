// Keeps a redrawn part of a view on screen when it came out the same as the one already there.
//
// The head split rebuilds its parts (Q, K, V sliced, the maps, the concatenation, the mix) on
// every change. Their tables are kept (renderGrid refills them in place), but put into new
// wrappers they were taken out of the page and put back: Chromium restyled, laid out and
// repainted the whole panel (an edit of W_O on the worked example with the panel on screen: 520
// elements styled, 903 objects laid out, 1 452 display items). Now a part is first built with a
// stand-in for each kept table, and compared with the part on screen: when they match, node for
// node, the part on screen stays, and only its canvases are swapped for the new ones (with their
// listeners, which hold the new numbers).

/** root: the view's element (kept tables are those inside it). */
export function createPartKeeper(root) {
  const standIns = new Map(); // stand-in → the kept figure it stands for

  // A figure already in the view stands in the new part as an empty element of its own.
  function stand(figure) {
    if (!root.contains(figure)) return figure;
    const standIn = document.createElement('kept-figure');
    standIns.set(standIn, figure);
    return standIn;
  }

  // Same node for node: names, attributes and texts; a stand-in matches its own figure only.
  // Canvases (their pixels are not compared) are collected in `swaps`.
  function same(old, made, swaps) {
    if (standIns.has(made)) return standIns.get(made) === old;
    if (old.nodeType !== made.nodeType || old.nodeName !== made.nodeName) return false;
    if (made.nodeType !== Node.ELEMENT_NODE) return made.nodeType === Node.TEXT_NODE ? old.data === made.data : old.isEqualNode(made);
    if (old.attributes.length !== made.attributes.length) return false;
    for (const { name, value } of made.attributes) if (old.getAttribute(name) !== value) return false;
    if (made.nodeName === 'CANVAS') {
      swaps.push([old, made]);
      return true;
    }
    if (old.childNodes.length !== made.childNodes.length) return false;
    for (let k = 0; k < made.childNodes.length; k += 1) if (!same(old.childNodes[k], made.childNodes[k], swaps)) return false;
    return true;
  }

  return {
    stand,
    /**
     * The part to show where `old` is (null: none yet): `old` itself when `made` matches it (its
     * canvases swapped for `made`'s), else `made` with its stand-ins replaced by their figures.
     */
    settle(old, made) {
      const swaps = [];
      let kept = null;
      if (old && same(old, made, swaps)) {
        for (const [was, now] of swaps) was.replaceWith(now);
        kept = old;
      } else {
        for (const standIn of made.querySelectorAll('kept-figure')) standIn.replaceWith(standIns.get(standIn));
      }
      return kept ?? made;
    },
    /** Forgets the stand-ins of the last update. */
    clear: () => standIns.clear(),
  };
}
