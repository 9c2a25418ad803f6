// The steps on screen: one step (with the matrices it reads) or all of them, each with its
// formula typeset beside its matrices, the mask workbench in step "+ M" and the softmax lab in
// step "softmax". Matrix views are cached by what they show and updated in place, so a new
// result rewrites numbers, not the page. Each matrix (render/matrix.js) reports what the learner
// points at, focuses, edits and toggles through the callbacks.
import { createMatrix } from '../render/matrix.js';
import { lessonPage, skipOffScreen } from '../render/policy.js';
import { drawing, frameComing } from '../render/scheduler.js';
import { THRESHOLDS } from '../render/thresholds.js';
import { unwatchNear, watchNear } from '../render/window-sight.js';
import { createFirstLayout } from './first-layout.js';
import { createParking, unpark } from './parked-steps.js';
import { createSection, sectionParts, writeSectionText } from './step-section.js';
import { STEPS, stepIndex } from './steps.js';
import { drawOptions, figureSpec, marksFor, matrixOf, shownHeads, stepCells, stepPlan } from './step-plan.js';

const { nearPx, idleJobMs, lessonIdleWaitMs, prefetchWaitMs, spareViews } = THRESHOLDS;
let useCounter = 0;
let serialCounter = 0;

/** callbacks: { preview(ref|null), select(ref), toggleMask(r, c), edit(name, r, c, value), tool(target, id), setHead(h) } */
export function createStepsView(container, callbacks) {
  const views = new Map(); // key → matrix view
  const sections = new Map(); // step id → { el, sig, parts }
  let live = []; // the views on screen now
  let shown = new Set(live); // the same, to look up
  let ctx = null;
  let tokensKey = '';
  let allSteps = false; // a page of all steps: what is far from the screen waits (updateView)
  let huge = false; // matrices past the printed corner: draw views in slices (render/policy.js)
  let rowsOnCanvas = false; // matrices with a row per token on canvases at any T (render/policy.js)
  const firstLayout = createFirstLayout(container);
  const parking = createParking(container);
  let parkOthers = false; // sections of other steps stay in the page, parked (parked-steps.js)
  // What waits (for the frame, idle time or a slice): panels first (one takes a millisecond or two,
  // and a reader scrolling there expects it), then what is near, then what is shown.
  const rankOf = (key) => () => (key.el.lessonPanel === key ? 0 : key.near ? 1 : shown.has(key) ? 2 : 3);
  const later = (key) => ({ waitMs: lessonIdleWaitMs, costCapMs: idleJobMs, rank: rankOf(key) });

  function runUpdate(view, matrix, options) {
    try {
      view.update(matrix, options);
    } catch (error) {
      console.warn('redrawing a matrix failed', error); // the old numbers stay
    }
  }

  // Draws what a view was left to draw later (view.pending: when it comes near, in idle time,
  // before printing), in slices past the printed corner. A view's first drawing there: its
  // canvas's bitmaps are allocated in one slice (view.prepare) and drawn in a later one.
  function drawPending(view) {
    const { matrix, options } = view.pending;
    view.pending = null;
    drawing.cancel(view);
    if (huge) sliceIn(view, matrix, options);
    else runUpdate(view, matrix, options);
  }
  const sliceIn = (view, matrix, options) => drawing.sliced(view, () => view.prepare() || runUpdate(view, matrix, options), later(view));
  // The job of a view left for later; when it only went to the slices, what it took is not noted.
  const drawLater = (view) => () => {
    if (!view.pending) return false;
    view.fresh = false;
    drawPending(view);
    return !huge;
  };

  // On a page of all steps, a matrix far from the viewport is redrawn when it comes near, or in
  // idle time after the frame, not in the frame of every change: what is off screen costs nothing
  // then. A new matrix is always drawn at once.
  function cameNear(view, isNear) {
    view.near = isNear;
    view.nearKnown = true;
    showCanvases(view, isNear);
    if (isNear && view.pending) drawPending(view);
  }

  // Which tables are in the window itself, no margin (view.inWindow; undefined while not known).
  // A table out of the window that does not wait for idle time (updateView) is redrawn in a task
  // just after the frame that shows a change, and at once when it comes into the window.
  const IN_WINDOW = 0; // px around the window
  function cameInWindow(view, isIn) {
    view.inWindow = isIn;
    if (isIn && view.pending) drawPending(view);
  }
  // Where a view is is known again once it is reported, which it is at once when watched anew (a
  // moved figure's last report may no longer hold).
  function relocate(view) {
    view.nearKnown = false;
    if (view.isCanvas) return;
    view.inWindow = undefined;
    watchNear(view.el, (isIn) => cameInWindow(view, isIn), IN_WINDOW);
  }

  // What a matrix reports (render/matrix.js).
  const matrixEvents = {
    preview: (ref) => callbacks.preview(ref),
    select: (ref) => callbacks.select(ref),
    toggle: (r, c) => callbacks.toggleMask(r, c),
    edit: (ref, value) => callbacks.edit(ref.name, ref.row, ref.col, value),
    focusEntry: (ref) => focusCell(ref.name, ref.head, ref.row, ref.col),
  };

  // ---- figures -------------------------------------------------------------------------------

  // A figure's spec (labels, symbol, title, tools) is the same from one result to the next unless
  // what it is made of changes: it is made again only then.
  let specs = new Map(); // signature → spec; emptied when the tokens or the language change
  let specsFor = '';
  let specsT = null;
  function specFor(name, head, role) {
    const matrix = matrixOf(name, head, ctx);
    if (!matrix) return null;
    const { state, t } = ctx;
    if (specsFor !== tokensKey || specsT !== t) {
      specs = new Map();
      specsFor = tokensKey;
      specsT = t;
    }
    // What specOf reads besides the tokens and the language (symbolOf: the mask, its order and the
    // scaling, a comparison).
    const sig = [
      role,
      name,
      head,
      matrix.rows,
      matrix.cols,
      state.mask,
      state.maskBeforeScale,
      state.scale,
      Boolean(state.alibi),
      Boolean(ctx.compare),
      rowsOnCanvas,
    ].join('|');
    let made = specs.get(sig);
    if (!made) {
      made = figureSpec(name, head, role, ctx, { tokensKey, tokensOnCanvas: rowsOnCanvas });
      specs.set(sig, made);
    }
    return { spec: made.spec, matrix };
  }

  function viewFor(name, head, role) {
    const made = specFor(name, head, role);
    if (!made) return null;
    let view = views.get(made.spec.key);
    if (!view) {
      view = createMatrix(made.spec, matrixEvents);
      view.isCanvas = view.kind === 'canvas';
      view.serial = ++serialCounter;
      view.fresh = true;
      watchNear(view.el, (isNear) => cameNear(view, isNear));
      if (!view.isCanvas) watchNear(view.el, (isIn) => cameInWindow(view, isIn), IN_WINDOW); // (a canvas draws by rows near the window)
      views.set(made.spec.key, view);
    } else if (view.spec !== made.spec) {
      // The same figure under another symbol (the masked scores, when the mask moves before or
      // after ÷√d_k): made again, it would be a new canvas to place, measure and draw whole.
      view.setSymbol(made.spec.symbol);
      view.spec = made.spec;
    }
    view.matrix = made.matrix;
    return view;
  }

  const optionsOf = (view) => drawOptions(view.spec, view.rows, ctx);

  // A canvas far from the screen is not painted either (lesson.css, figure.far): each frame's
  // commit costs time per painted canvas pixel, and a far canvas may hold its old numbers.
  function showCanvases(view, shown) {
    if (view.isCanvas && view.el.classList.contains('far') === shown) view.el.classList.toggle('far', !shown);
  }

  // A far canvas (farCanvases), and a built table last seen far on a page of all steps, wait for
  // idle time (or until they come near, or printing); a table just out of the window is drawn
  // just after the frame; the rest now.
  function updateView(view, far = false) {
    const options = optionsOf(view);
    if ((view.isCanvas && far) || (allSteps && view.near === false && !view.fresh)) {
      view.pending = { matrix: view.matrix, options };
      drawing.idle(view, drawLater(view), later(view));
    } else if (view.inWindow === false && !view.isCanvas && !view.fresh) {
      view.pending = { matrix: view.matrix, options };
      drawing.afterFrame(view, drawLater(view));
    } else {
      view.fresh = false;
      view.pending = null;
      drawing.cancel(view);
      if (huge) sliceIn(view, view.matrix, options);
      else view.update(view.matrix, options);
    }
  }

  // The mask workbench and the softmax lab far from the screen on a page of all steps are brought
  // up to date when they come near or in idle time, as the far canvases are.
  const panelNear = new WeakMap(); // panel → whether the observer last saw it near the screen

  // panelCtx: the lesson's context when it is newer than the last render's (a new lab row).
  function updatePanel(panel, single, panelCtx = ctx) {
    if (!panel.el.lessonPanel) {
      panel.el.lessonPanel = panel;
      watchNear(panel.el, (isNear) => panelCameNear(panel, isNear));
    }
    // Only where the last render was a page of all steps too, with the panel in it: then the
    // observer's word on where it is holds for this render.
    const stayed = !container.classList.contains('single') && container.contains(panel.el);
    if (!single && allSteps && stayed && panelNear.get(panel) === false) {
      drawing.idle(panel, () => panel.update(panelCtx), { ...later(panel), anyRoom: true }); // (a millisecond or two)
      return;
    }
    drawing.cancel(panel);
    panel.update(panelCtx);
  }

  function panelCameNear(panel, isNear) {
    panelNear.set(panel, isNear);
    if (isNear) drawing.flush(panel);
  }

  // ---- steps -----------------------------------------------------------------------------------

  const planOf = (step, single) => stepPlan(step, single, ctx);
  const cellsOf = (step, single, rowsOnly = false) => stepCells(step, single, ctx, rowsOnly);

  function sectionFor(step, single) {
    let section = sections.get(step.id);
    if (!section) {
      section = createSection(step.id);
      sections.set(step.id, section);
    }
    writeSectionText(section, step.id, ctx);
    const plan = planOf(step, single);
    const groupViews = plan.groups.map((group) => ({
      head: group.head,
      views: group.figures.map(([name, head, role]) => viewFor(name, head, role)).filter(Boolean),
    }));
    const panel = step.id === 'mask' ? callbacks.workbench() : step.id === 'softmax' ? callbacks.lab() : null;
    const { result, state, t } = ctx;
    const sig = JSON.stringify([
      groupViews.map((g) => [g.head, g.views.map((v) => v.serial)]), // a view made again is a new figure
      plan.tabs ? [result.heads, state.head, t('lab.head', { h: 1 })] : null,
      Boolean(panel),
    ]);
    if (sig !== section.sig) {
      section.sig = sig;
      firstLayout.forget(section.el); // of another height now: laid out again (render)
      for (const g of groupViews) for (const view of g.views) relocate(view); // moved: measure
      section.body.replaceChildren(...sectionParts({ groupViews, tabs: plan.tabs, panel, ctx }));
    }
    if (panel) updatePanel(panel, single);
    return { el: section.el, section, views: groupViews.flatMap((g) => g.views) };
  }

  const layOutOnce = (els) => firstLayout.layOut(els);
  // A font loaded later (KaTeX's, after the first frame) changes the height of the formulas, and a
  // step skipped meanwhile kept the height it had without it: 1.3 px more once scrolled to.
  document.fonts?.addEventListener('loadingdone', () => {
    if (allSteps) layOutOnce([...container.children].filter((el) => el.classList.contains('lesson-step')));
  });

  function render(next) {
    frameComing(); // idle work waits for the frame that shows this
    ctx = next;
    tokensKey = `${ctx.result.tokens.join('\u0001')}\u0002${ctx.result.source?.tokens.join('\u0001') ?? ''}`;
    const single = ctx.state.step !== 'all';
    const steps = single ? STEPS.filter((s) => s.id === ctx.state.step) : STEPS;
    ({ sliced: huge, tokensOnCanvas: rowsOnCanvas } = lessonPage({
      tokens: ctx.result.T,
      keys: ctx.result.Tk,
      dModel: ctx.result.dModel,
      single,
      stepCells: () => Math.max(...STEPS.map((step) => cellsOf(step, true, true))),
      pageCells: () => STEPS.reduce((cells, step) => cells + cellsOf(step, false), 0),
    }));
    const built = steps.map((step) => sectionFor(step, single));
    live = built.flatMap((b) => b.views);
    shown = new Set(live);
    const shownCells = live.reduce((n, v) => n + v.rows * v.cols, 0);
    allSteps = !single;
    for (const view of views.values()) if (!shown.has(view)) drawing.cancel(view, 'sliced');
    const els = built.map((b) => b.el);
    parkOthers = single && !huge;
    // The views of a section just shown (attached, or no longer parked): where they are is not
    // known until the observer reports again.
    for (const b of built) {
      if (b.el.parentNode !== container || b.el.classList.contains('parked')) for (const view of b.views) relocate(view);
    }
    if (parkOthers) {
      parking.show(els);
    } else {
      for (const el of els) unpark(el);
      const same = els.length === container.children.length && els.every((el, k) => container.children[k] === el);
      if (!same) container.replaceChildren(...els);
    }
    container.classList.toggle('single', single);
    // Steps and figures off screen skip style, layout and paint (lesson.css): a change rewrites
    // most of them, and most are off screen. Printing renders them all.
    container.classList.toggle('all-steps', allSteps);
    container.classList.toggle('many', skipOffScreen({ single, shownCells }));
    // A figure or step skipped before it was ever laid out would take lesson.css's guess of a size
    // and jump when scrolled to: new ones are laid out once (first-layout.js). A canvas says its own.
    const newFigures = live.filter((v) => !v.isCanvas && !firstLayout.laidOut(v.el) && !firstLayout.waiting(v.el)).map((v) => v.el);
    // (A step shown one at a time loses its remembered size: the rule is not on it then.)
    if (single) for (const section of sections.values()) firstLayout.forget(section.el);
    const newSteps = allSteps ? els.filter((el) => !firstLayout.laidOut(el) || newFigures.some((f) => el.contains(f))) : [];
    layOutOnce([...newFigures, ...newSteps]);
    const far = farCanvases();
    for (const view of live) updateView(view, far.has(view));
    if (parkOthers) schedulePrefetch();
    // Keep the views of recently shown steps (going back a step then costs no rebuild); forget the
    // least recently shown past a limit.
    const keep = new Set(live);
    for (const view of live) view.used = ++useCounter;
    const spare = [...views.entries()].filter(([, view]) => !keep.has(view));
    spare.sort((a, b) => b[1].used - a[1].used);
    spare.forEach(([key, view], n) => {
      if (n < spareViews) return;
      unwatchNear(view.el);
      unwatchNear(view.el, IN_WINDOW);
      drawing.forget(view);
      views.delete(key);
    });
  }

  // In idle time, after what is shown (the lowest rank): the next step, then the previous one,
  // built and drawn, parked. The latest request wins. Nothing waits for it to count as drawn.
  const prefetchKey = { prefetch: container };
  function schedulePrefetch() {
    drawing.idle(prefetchKey, prefetch, { waitMs: prefetchWaitMs, costCapMs: idleJobMs, rank: () => 4, background: true });
  }
  function prefetch() {
    if (!parkOthers) return;
    const i = stepIndex(ctx.state.step);
    // Not again for one parked already: a parked section is brought up to date when shown.
    const step = [STEPS[i + 1], STEPS[i - 1]].find((s) => s && sections.get(s.id)?.el.parentNode !== container);
    if (!step) return;
    const built = sectionFor(step, true);
    for (const view of built.views) {
      view.used = ++useCounter;
      view.pending = { matrix: view.matrix, options: optionsOf(view) };
      drawing.idle(view, drawLater(view), later(view));
    }
    if (built.el.parentNode !== container) parking.parkAhead(built.el);
    schedulePrefetch(); // the other neighbour
  }

  // Canvases farther than nearPx from the window: drawing them all in the frame of a change would
  // not fit it. Where they are is read once per render (one layout, which the frame needs anyway).
  function farCanvases() {
    const far = new Set();
    const canvases = live.filter((v) => v.isCanvas);
    if (!canvases.length) return far;
    const top = -nearPx;
    const bottom = window.innerHeight + nearPx;
    // Where the observer said (it follows scrolling), unless the view was just put on the page:
    // then measured, which costs a layout. All are measured before any class changes: a class
    // changed between two measures made each of them a layout of its own.
    // Past the printed corner, not measured: each box asked for in a step skipped off screen was
    // a layout of that step; the observer says soon enough which are near.
    const boxes = new Map(canvases.filter((view) => !view.nearKnown && !huge).map((view) => [view, view.el.getBoundingClientRect()]));
    for (const view of canvases) {
      if (view.nearKnown || huge) {
        if (!view.near) far.add(view);
        continue;
      }
      const box = boxes.get(view);
      const away = box.height === 0 || box.bottom < top || box.top > bottom;
      if (away) far.add(view);
      showCanvases(view, !away); // now, not a frame later when the observer says so
      // Known from now on: the observer reports only changes, so a view that stayed far would be
      // measured on every change; where the observer differs from this, it corrects it.
      view.near = !away;
      view.nearKnown = true;
    }
    return far;
  }

  // Before printing, whatever waits is drawn now: a printout shows every step and figure.
  window.addEventListener('beforeprint', () => drawing.flush());

  // ---- highlights --------------------------------------------------------------------------------

  // The explained cell and what it depends on, in each matrix on screen (as marks per view: the
  // table marks its cells, the canvas lays outlines over itself).
  let highlightedViews = new Set();
  function highlight(ref, deps) {
    const next = new Set();
    for (const view of ref ? live : []) {
      const marks = marksFor(view.spec, ref, deps ?? []);
      if (!marks) continue;
      view.highlight(marks);
      next.add(view);
    }
    for (const view of highlightedViews) if (!next.has(view)) view.highlight(null);
    highlightedViews = next;
  }

  // ---- events ------------------------------------------------------------------------------------

  // Focuses entry (r, c) of a matrix on screen and returns the focused element, or null. Of a
  // matrix shown twice (X as a step's output and as the next step's input), the editable one: an
  // editor moving on asks for it.
  function focusCell(name, head, r, c) {
    const shownTwice = live.filter((v) => v.spec.name === name && v.spec.head === head);
    const view = shownTwice.find((v) => v.spec.editable) ?? shownTwice[0];
    return view ? view.focusEntry(r, c) : null;
  }

  container.addEventListener('mouseleave', () => callbacks.preview(null));
  container.addEventListener('click', (event) => {
    const tool = event.target.closest('button[data-tool]');
    if (tool) {
      callbacks.tool(tool.dataset.target, tool.dataset.tool);
      return;
    }
    const tab = event.target.closest('button[data-head-tab]');
    if (tab) callbacks.setHead(Number(tab.dataset.headTab));
  });

  return {
    render,
    highlight,
    focusCell,
    /** Redraws the workbench or the lab from `panelCtx`, later if it is far from the screen on a
     *  page of all steps (as a render would). */
    updatePanel: (panel, panelCtx) => updatePanel(panel, !ctx || ctx.state.step !== 'all', panelCtx),
    /** True when the steps show every head side by side (no head tabs): the chosen head then
     *  changes only the softmax lab, not the figures. */
    allHeadsShown: () => Boolean(ctx) && shownHeads(ctx).all,
    liveViews: () => live,
  };
}
