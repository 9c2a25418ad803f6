// The 2D context of a big canvas redrawn in place (the lesson's T×T matrices and its lab): opaque,
// and desynchronized.
//
// Why desynchronized: in Chromium without a GPU (software compositing), every frame's commit copied
// each 2D canvas on screen into a new resource for the compositor, whether it had been drawn on or
// not: 0.7–1 ms for a matrix of T = 32 (1 792 × 640 pixels), 2.8 ms of a hover's 3.4 ms commit on
// the softmax step, though a hover draws nothing on them (traced 2026-12-01). A desynchronized
// canvas hands its picture over when it is drawn on, at the same cost, and not again. Side by side
// (T = 32, busy time, the two orders' ratios), hover took 0.63 and 0.73 of the time, toggling M
// 0.82 and 0.76, selecting a weight 0.84 and 0.79; the others were within the noise (0.89–1.08).
// (An OffscreenCanvas, transferControlToOffscreen, saved as much while static but cost more per
// redraw: fill 1.16–1.20.) The hint changes no pixel; browsers that do not know it ignore it.

/** → canvas's 2D context: opaque (its background is drawn), desynchronized. */
export const drawingContext = (canvas) => canvas.getContext('2d', { alpha: false, desynchronized: true });
