// The drawing pass of the panels under the lesson: each is a view of the page's (state, results)
// that the pass draws when what it depends on changed — a view near the window just after the
// frame that shows the change, any other of the shown view in idle time (one per task), a view the
// reader acted in at once — all through the page's one scheduler, so that whenDrawn() covers them.
import { drawing, frameComing } from './scheduler.js';
import { THRESHOLDS } from './thresholds.js';
import { watchSight } from './window-sight.js';

const { headsIdleWaitMs } = THRESHOLDS;

// A panel the page shows (its runs are planned): not in another view, not hidden by the link or by itself.
const isShown = (view) => view.el.isConnected && !view.el.closest('[hidden], .share-hidden');

export function createDrawPass() {
  const views = new Map(); // name → { el, draw(ctx), keyOf(ctx), drawn (the key last drawn) }
  const onScreen = new Set();
  const sightKnown = typeof IntersectionObserver === 'function';

  // A User Timing measure per drawn view ('view:split'…), for profiles; only the latest kept.
  const measured = (name, run) => () => {
    const start = performance.now();
    try {
      run();
    } finally {
      performance.clearMeasures(`view:${name}`);
      performance.measure(`view:${name}`, { start });
    }
  };

  return {
    /**
     * A panel: `draw(ctx)` draws it; `keyOf(ctx)` says what it depends on (the same key again is
     * not redrawn). Not displayed until first drawn (.hv-undrawn).
     */
    add(name, el, draw, keyOf) {
      views.set(name, { el, draw, keyOf, drawn: null, redaction: '' });
      el.classList.add('hv-undrawn');
      if (!sightKnown) return;
      watchSight(el, (entry) => {
        if (entry.isIntersecting) onScreen.add(el);
        else onScreen.delete(el);
      });
    },
    /** The panels the page shows (not hidden by the link, not folded away): they need their runs. */
    shown() {
      return new Set([...views].filter(([, view]) => isShown(view)).map(([name]) => name));
    },
    /** Draws every panel whose key changed; `now`: the one the reader acted in, in this task. */
    show(ctx, { now = null } = {}) {
      frameComing();
      for (const [name, view] of views) {
        const key = view.keyOf(ctx);
        if (key === view.drawn) {
          drawing.cancel(view); // (back to what is on screen: an older pending draw is stale)
          continue;
        }
        // An exercise now hides entries this view may show: drawn at once, never left stale.
        const hidesMore = Boolean(ctx.redacted) && view.redaction !== ctx.redacted;
        // A panel of another view waits for its view (opening one is a change: it comes here). A
        // panel hidden by itself, as cross-attention's when off, is drawn: it says when it shows.
        if (!hidesMore && view.el.closest('[data-views][hidden]')) {
          drawing.cancel(view);
          continue;
        }
        const job = measured(name, () => {
          view.drawn = key;
          view.redaction = ctx.redacted;
          view.el.classList.remove('hv-undrawn'); // (shown even if drawing fails)
          view.draw(ctx);
        });
        if (name === now || !sightKnown || hidesMore) drawing.now(view, job);
        else if (onScreen.has(view.el)) drawing.afterFrame(view, job);
        else drawing.idle(view, job, { waitMs: headsIdleWaitMs, rank: () => (onScreen.has(view.el) ? 0 : 1) });
      }
    },
    /** Draws `name` again at its next show (its look changed without a change of key). */
    stale(name) {
      const view = views.get(name);
      if (view) view.drawn = null;
    },
  };
}
