// A canvas context's font, set only when it changes. Setting it brings the page's style up to
// date first, even to the same font (Chromium): with the page's other changes made between two
// canvases' updates, a style recalculation per canvas. A resize resets the context's state:
// call reset() after one.

/** → { use(font), reset() } for a 2D context. */
export function fontSetter(context) {
  let current = null;
  return {
    use(font) {
      if (current === font) return;
      context.font = font;
      current = font;
    },
    reset() {
      current = null;
    },
  };
}
