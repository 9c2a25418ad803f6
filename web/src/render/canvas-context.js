// The 2D context of a big canvas redrawn in place (the lesson's T×T matrices and its lab): opaque,
// and desynchronized.
//
// Why desynchronized: without a GPU, Chromium copies every 2D canvas on screen into each frame's
// commit, drawn on or not; a desynchronized one is handed over only when drawn on. The hint changes
// no pixel, and browsers that do not know it ignore it (figures: docs/performance.md).

/** → canvas's 2D context: opaque (its background is drawn), desynchronized. */
export const drawingContext = (canvas) => canvas.getContext('2d', { alpha: false, desynchronized: true });
