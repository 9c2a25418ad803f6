// The page's views (the state's `view`): a row of buttons in the header, one per view, and the
// parts each view shows, marked in the page as data-views="attention heads …". A part of a view
// that is not shown is hidden, so the plan computes nothing for it and the draw pass skips it.
import { h } from '../render/dom.js';
import { VIEW_IDS } from '../state/schema.js';

/** nav: the header's row; open(view): the reader chose a view (the page dispatches it). */
export function createPageViews({ nav, open }) {
  const buttons = VIEW_IDS.map((id) => h('button', { type: 'button', className: 'view-tab', dataset: { view: id, i18n: `views.${id}` } }));
  nav.replaceChildren(...buttons);
  nav.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-view]');
    if (!button) return;
    open(button.dataset.view);
    window.scrollTo(0, 0); // (a view starts at its own first screen)
  });
  let shown = null;
  return {
    /** Shows the parts of `view` and hides the others' (the same view again: nothing to do). */
    show(view) {
      if (view === shown || !VIEW_IDS.includes(view)) return;
      shown = view;
      for (const button of buttons) {
        if (button.dataset.view === view) button.setAttribute('aria-current', 'page');
        else button.removeAttribute('aria-current');
      }
      for (const part of document.querySelectorAll('[data-views]')) part.hidden = !part.dataset.views.split(' ').includes(view);
      document.documentElement.dataset.view = view;
    },
  };
}
