// Every number that decides how a matrix is drawn (a table or a canvas, its printed corner,
// numbers or bare cells, skipped off screen) and when (in the frame, just after it, near the
// window, in idle time). render/policy.js turns the first kind into decisions; the schedulers read
// the second. Why each value: one line here; the figures behind it: docs/performance.md.
export const THRESHOLDS = Object.freeze({
  // ---- how: the lesson's matrices (lesson/view.js) ----
  printedCorner: 48, // rows and columns a lesson matrix prints at most; past it, its top-left corner and a canvas overview
  canvasFromTokens: 8, // matrices with a row per token, and the softmax lab, are canvases from this many tokens: their tables no longer fit a change's frame
  weightCanvasFromDModel: 16, // the W matrices (d_model × d_model) are canvases from this d_model
  stepTableCells: 150, // one step at a time: more cells than this in the largest step's token matrices puts them on canvases below canvasFromTokens too
  allStepsTableCells: 1000, // the same for a page of all steps, counting every cell of the page
  manyCells: 3000, // one step at a time, figures off screen skip layout and paint from this many cells shown (lesson.css "many"); all steps always do
  headCellBudget: 4 * 32 * 32, // per-head steps show every head up to this many T × T cells in a row of figures, else one head with tabs
  allHeadsUpTo: 4, // and at most this many heads side by side
  labShown: 64, // the softmax lab lists this many queries and keys at most

  // ---- how: the head grids (heads/, cross/) ----
  gridRows: 12, // rows a head grid prints unless told otherwise
  gridCols: 48, // columns a head grid prints unless told otherwise; the head split's Q, concat and W_O too
  numbersUpTo: 12, // a head grid prints numbers up to this many columns (d_model in the split, keys in a map); wider: bare coloured cells
  mapsDrawn: 64, // small multiples (one map per head) drawn at most
  mapTokens: 96, // rows and columns of a small map drawn at most
  mapPx: 150, // a small map is about this many pixels a side…
  mapCellMinPx: 2, // …with cells of at least this many pixels…
  mapCellMaxPx: 22, // …and at most this many
  detailDrawn: 64, // rows and columns of the selected map (and the cross-attention map) drawn at most
  splitByPartFrom: 64 * 64, // past this many T × Tk entries the head split draws its parts one per task
  tokenLinesUpTo: 64, // the token-to-token view draws this many tokens a side at most
  shuffleRows: 64, // the shuffle experiment lists this many tokens and rows at most…
  shuffleCols: 8, // …and this many output columns
  ropeShiftTokens: 128, // the RoPE panel's shift demonstration (four more computations of the page's config) up to this many tokens

  // ---- where: the page or the worker (perf/work-estimate.js, compute/plan.js) ----
  workerFlops: 1e8, // a run past this many FLOPs (a few ms of wasm SIMD, plus copying every T × T matrix) goes to the worker
  workerEntries: 1e5, // …and one past this many entries per T × Tk intermediate (all heads): copying them out blocks the page past 50 ms
  traceTiles: 8192, // a FlashAttention trace past this many tiles (objects and a cell each, a few µs) waits for a click
  keyTaskEntries: 1 << 14, // past this many T × d_model a key's change is computed in a task of its own after the key's (a burst of keys: one computation)
  slicedLinkChars: 8192, // a link this long (or compressed) is read in slices of decodeSliceMs
  linkTrainingSeconds: 3, // a link's training estimated longer than this waits for a click
  rateFromFlops: 1e7, // the performance panel gives FLOP/s from this many FLOPs: below, a call's own cost (settings in, matrices out) outweighs its arithmetic

  // ---- how: the other figures ----
  overviewPx: 384, // a matrix's overview canvas (past the printed corner) is at most this many CSS pixels a side
  svgShown: 64, // an exported SVG heatmap draws this many rows and columns at most
  divisorChoicesUpTo: 4096, // heads are offered as d_model's divisors up to this d_model (finding them is a loop over d_model)

  // ---- when (render/scheduler.js and the views it draws) ----
  nearPx: 150, // what is this close to the window counts as near it: drawn just after the frame, not in idle time
  sightSteps: 40, // the window's scrolling is followed in 1/40ths of a box's height (less than a row of a matrix)
  nearRows: 2, // a canvas draws this many rows beyond the window just after the frame…
  nearCols: 2, // …and this many columns beyond its box's view
  canvasRestEntries: 400, // a canvas draws the rest of its entries this many (about a millisecond) per idle step…
  canvasRestWaitMs: 500, // …and all of them at the latest this long after the change
  sliceMs: 20, // a matrix past the printed corner is made ready and drawn, and a link encoded, in tasks of about this long, so none blocks for 50 ms
  idleJobMs: 8, // what an idle job is guessed to take before it ran once, and the longest a batch of them runs
  idleFitCapMs: 40, // an idle period never needs more room than this (browsers grant 50 ms at most)
  frameWaitMs: 1000, // a change's frame that has not come by then (not rendered) no longer holds idle work
  emulatedIdleMs: 50, // where there is no requestIdleCallback, an idle period counts down from this
  lessonIdleWaitMs: 1000, // lesson work put off for idle time runs at the latest this long after (far canvases, first layouts)
  prefetchWaitMs: 2000, // the next and previous steps are built ahead at the latest this long after
  headsIdleWaitMs: 250, // a head view off screen is drawn at the latest this long after a change
  warmupMs: 20, // warming the explanation's fonts takes about this long: it waits for an idle period that long (or lessonIdleWaitMs)
  noteShownMs: 2000, // a passing note ("Copied") stays this long
  playStepMs: 2000, // Play (the lesson's steps, the head split's stages) moves on this often: time to read a step's change
  tokenRowsPerTask: 16, // the token-to-token view draws this many query rows' lines (up to 1 024) per task
  packFromEntries: 4096, // a matrix of this many numbers or more goes to the worker as one Float32Array, not nested arrays
  decodeSliceMs: 8, // a long link is decoded in tasks of about this long
  linkWriteDelayMs: 250, // the address waits this long for the reader to stop typing before it is rewritten…
  linkWriteWaitMs: 1000, // the address is rewritten in idle time, at the latest this long after the reader stops
  editorWriteWaitMs: 500, // the embeddings box shows X's new numbers in idle time after an edit of X, at the latest this long after
  editorLaterNumbers: 4096, // a change of X with more numbers than this writes the box's text just after the frame, not in it
  downloadUrlMs: 10000, // an export's object URL is released this long after its download started
  linkStepMs: 8, // the link's encoding runs this long per idle period where the browser grants no deadline
  layoutBatchElements: 1500, // steps laid out for the first time in one frame: about this many elements
  parkedSteps: 4, // sections of other steps kept built and parked, one step at a time
  spareViews: 24, // matrix views of steps not shown kept for going back
});
