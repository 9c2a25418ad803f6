// Idle work that must not delay a frame. Chromium also grants idle periods in the few
// milliseconds between an input's handler and the frame that shows it: a job started there, however
// short its deadline, runs to its end and pushes that frame back. So a job starts only when the
// idle period left covers what it took last time (capped: idle periods last 50 ms at most), or
// when it has waited long enough (or its callback timed out): every job runs in the end.
const LONGEST_FIT_MS = 40;

/** True when an idle callback's `deadline` has room for a job that took `costMs` last time, or
 *  the job has waited `waitedMs` ≥ `maxWaitMs`. No deadline (a setTimeout fallback): true. */
export function idleHasRoom(deadline, costMs, waitedMs, maxWaitMs) {
  if (!deadline?.timeRemaining || deadline.didTimeout || waitedMs >= maxWaitMs) return true;
  return deadline.timeRemaining() >= Math.min(costMs, LONGEST_FIT_MS);
}
