// Where things are in the window, known without laying the page out. A change's handler that read
// an element's place (getBoundingClientRect) or the window's (window.scrollY: Blink lays the page
// out for it too) after the page's DOM changed would have Chromium lay it out there and then, and
// again in the frame. So places are noted where the page is laid out already: at the reports of
// IntersectionObservers (all of the page's are here), and at the window's scroll and resize events.

import { THRESHOLDS } from './thresholds.js';

const { nearPx, sightSteps } = THRESHOLDS;

// The window's top in the page and its height (px), as last noted.
export const windowAt = { top: 0, height: 0 };
let followingWindow = false;
function noteWindow() {
  windowAt.top = window.scrollY;
  windowAt.height = window.innerHeight;
  if (followingWindow) return;
  followingWindow = true;
  window.addEventListener('scroll', noteWindow, { passive: true });
  window.addEventListener('resize', noteWindow, { passive: true });
}

// One observer for every target: where each is in the window (± nearPx), reported each time a
// 1/sightSteps of its height comes in or goes out (17 px of a box 75vh high at 900 px, less than
// a row of a matrix). (It holds its targets weakly: one dropped with its view is not kept.)
let sightObserver = null;
const sightListeners = new WeakMap(); // target → listener(entry)

/** listener(entry) at each report on target (an IntersectionObserverEntry), windowAt noted first. */
export function watchSight(target, listener) {
  sightObserver ??= new IntersectionObserver(
    (entries) => {
      noteWindow();
      for (const entry of entries) sightListeners.get(entry.target)?.(entry);
    },
    { rootMargin: `${nearPx}px 0px`, threshold: Array.from({ length: sightSteps + 1 }, (_, k) => k / sightSteps) },
  );
  sightListeners.set(target, listener);
  sightObserver.observe(target);
}

/** px: the target's top in the page, from a report of watchSight (null when it is not laid out).
 *  If the page above it moves later without a report, it is that much off. */
export function pageTopOf(entry) {
  return entry.boundingClientRect.height > 0 ? entry.boundingClientRect.top + windowAt.top : null;
}

// Whether targets are near the window: one observer per margin (nearPx: near it; 0: in it), for
// every view that waits for its figures to come near before drawing them.
const nearWatches = new Map(); // marginPx → { observer, listeners: target → listener }

/** listener(isNear, entry) each time target comes within marginPx of the window or leaves, and
 *  once it is watched: watched again (it moved), it is reported afresh. */
export function watchNear(target, listener, marginPx = nearPx) {
  let watch = nearWatches.get(marginPx);
  if (!watch) {
    const listeners = new WeakMap();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) listeners.get(entry.target)?.(entry.isIntersecting, entry);
      },
      { rootMargin: `${marginPx}px 0px` },
    );
    watch = { observer, listeners };
    nearWatches.set(marginPx, watch);
  }
  watch.listeners.set(target, listener);
  watch.observer.unobserve(target); // (an observer reports a target only when it is observed anew)
  watch.observer.observe(target);
}

/** No more reports on target at marginPx. */
export function unwatchNear(target, marginPx = nearPx) {
  const watch = nearWatches.get(marginPx);
  watch?.observer.unobserve(target);
  watch?.listeners.delete(target);
}
