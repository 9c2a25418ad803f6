// Scrolls a panel to the top of the window and keeps it there while the page settles.
//
// Why not one scrollIntoView: the panels under the lesson are skipped while off screen
// (content-visibility: auto) and hold a placeholder size meanwhile: the size they had when last
// on screen, or the default page's (heads.css). Reaching a panel brings it and its neighbours on
// screen; they take their real sizes in the next frames, so a smooth scroll aimed at the old
// position ends above the panel, and the last panel is pushed out of sight. So: jump at
// once, then for a few frames put the panel back at the top whenever it has moved, until it stays
// put or the reader scrolls on their own.
import { drawing } from '../render/scheduler.js';

const SETTLED_FRAMES = 4; // frames without a move before letting go
const MAX_FRAMES = 90; // about 1.5 s: never hold the page longer than that
const READER_SCROLLS = ['wheel', 'touchstart', 'keydown', 'pointerdown'];

/** Scrolls `panel` to the top (as scrollIntoView({ block: 'start' })), or just under `under` (a
 *  sticky bar), and holds it there while what lies around it is laid out; a reader's own
 *  scrolling lets go at once. The jump is instant: no motion for a reader who asks for none. */
export function scrollToPanel(panel, { under = null } = {}) {
  const place = () => window.scrollBy(0, panel.getBoundingClientRect().top - (under ? under.offsetHeight + 8 : 0));
  place();
  let last = panel.getBoundingClientRect().top;
  let still = 0;
  let frames = 0;
  const holdKey = { holding: panel };
  let done = false;
  const letGo = () => {
    done = true;
    for (const type of READER_SCROLLS) window.removeEventListener(type, letGo, true);
  };
  for (const type of READER_SCROLLS) window.addEventListener(type, letGo, { capture: true, passive: true });
  const check = () => {
    if (done) return;
    const top = panel.getBoundingClientRect().top;
    if (Math.abs(top - last) > 1) {
      place();
      still = 0;
    } else {
      still += 1;
    }
    last = panel.getBoundingClientRect().top;
    frames += 1;
    if (still >= SETTLED_FRAMES || frames >= MAX_FRAMES) letGo();
    else drawing.afterFrame(holdKey, check);
  };
  // (the page counts as drawn once the panel holds still)
  drawing.afterFrame(holdKey, check);
}
