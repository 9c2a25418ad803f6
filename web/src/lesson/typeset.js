// Formulas typeset with KaTeX (bundled from npm; its CSS and fonts are imported by index.js so
// that Vite ships them with the page: nothing is fetched from a CDN). The TeX sources are the
// page's own (formulas.js, explain.js), never reader text; each is typeset once and cached.
import katex from 'katex';

const cache = new Map();

/** HTML of a formula; `display` centres it on its own line. */
export function typesetHtml(tex, display = false) {
  const key = `${display ? 'D' : 'I'}${tex}`;
  let html = cache.get(key);
  if (html === undefined) {
    html = katex.renderToString(tex, { displayMode: display, throwOnError: false, output: 'htmlAndMathml', strict: 'ignore' });
    cache.set(key, html);
  }
  return html;
}

/** A span holding the typeset formula. */
export function typeset(tex, { display = false, className = 'formula' } = {}) {
  const span = document.createElement('span');
  span.className = className;
  span.dataset.tex = tex;
  span.innerHTML = typesetHtml(tex, display); // KaTeX output of a page-owned TeX source
  return span;
}

/** Re-typesets `node` (made by typeset) only when its formula changed. */
export function retypeset(node, tex, display = false) {
  if (node.dataset.tex === tex) return;
  node.dataset.tex = tex;
  node.innerHTML = typesetHtml(tex, display);
}
