// Formulas typeset with KaTeX (bundled from npm; its CSS and fonts are imported by index.js so
// that Vite ships them with the page: nothing is fetched from a CDN). The TeX sources are the
// page's own (formulas.js, explain.js), never reader text. Each is typeset once; its nodes are
// kept and cloned (parsing KaTeX's HTML again took milliseconds per explanation shown).
import katex from 'katex';

const cache = new Map(); // key → HTML
const parsed = new Map(); // key → a span holding the parsed HTML, to clone
const MAX_PARSED = 300; // formulas with numbers in them (τ) come and go: keep the cache bounded

const keyOf = (tex, display) => `${display ? 'D' : 'I'}${tex}`;

/** HTML of a formula; `display` centres it on its own line. */
export function typesetHtml(tex, display = false) {
  const key = keyOf(tex, display);
  let html = cache.get(key);
  if (html === undefined) {
    html = katex.renderToString(tex, { displayMode: display, throwOnError: false, output: 'htmlAndMathml', strict: 'ignore' });
    cache.set(key, html);
  }
  return html;
}

// A fresh copy of the formula's nodes.
function nodesOf(tex, display) {
  const key = keyOf(tex, display);
  let template = parsed.get(key);
  if (!template) {
    if (parsed.size >= MAX_PARSED) parsed.clear();
    template = document.createElement('span');
    template.innerHTML = typesetHtml(tex, display); // KaTeX output of a page-owned TeX source
    parsed.set(key, template);
  }
  return template.cloneNode(true).childNodes;
}

/** A span holding the typeset formula. */
export function typeset(tex, { display = false, className = 'formula' } = {}) {
  const span = document.createElement('span');
  span.className = className;
  span.dataset.tex = tex;
  span.append(...nodesOf(tex, display));
  return span;
}

/** Re-typesets `node` (made by typeset) only when its formula changed. */
export function retypeset(node, tex, display = false) {
  if (node.dataset.tex === tex) return;
  node.dataset.tex = tex;
  node.replaceChildren(...nodesOf(tex, display));
}
