// The skip link (index.html, the first Tab stop) moves the focus past the header and the form: to
// the lesson, or in another view to that view's content. The page's address holds its state, so the
// link must not write "#lesson" into it.
const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

/** Wires every a.skip-link in `doc` to focus the element its href names. */
export function installSkipLinks(doc = document) {
  for (const link of doc.querySelectorAll('a.skip-link')) {
    link.addEventListener('click', (event) => {
      const named = doc.getElementById(link.getAttribute('href').slice(1));
      const target = named?.checkVisibility() ? named : doc.querySelector('.page-view:not([hidden])');
      if (!target) return;
      event.preventDefault();
      target.focus({ preventScroll: true });
      target.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' });
    });
  }
}
