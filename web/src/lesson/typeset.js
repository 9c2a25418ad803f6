// Formulas typeset with KaTeX (bundled from npm; its CSS and fonts are imported by index.js so
// that Vite ships them with the page: nothing is fetched from a CDN). The TeX sources are the
// page's own (formulas.js, explain.js), never reader text. Each is typeset once; its nodes are
// kept and cloned (parsing KaTeX's HTML again took milliseconds per explanation shown).
import katex from 'katex';
import { setAttr, showAlternative } from '../render/dom.js';

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
  const before = node.dataset.tex;
  if (before === tex) return;
  node.dataset.tex = tex;
  if (!renumber(node, before, tex)) node.replaceChildren(...nodesOf(tex, display));
}

// A formula that changed in one number only (τ = 0.25 → τ = 0.3 as the slider moves): KaTeX
// prints a run of digits as one text node in its HTML (a .mord) and one in its MathML (an <mn>),
// laid out by the browser with nothing measured by KaTeX (all digits are as tall), so rewriting
// those two texts gives what typesetting anew would. That took 1.5 ms and new elements to style
// and lay out per move of the slider. False (typeset anew) unless the number is found exactly
// there, once in each.
const DIGITS = /[\d.]/;
function renumber(node, before, after) {
  if (before === undefined) return false;
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start += 1;
  let end = 0; // characters in common at the end
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end += 1;
  // Widen the difference to whole numbers on both sides.
  while (start > 0 && DIGITS.test(before[start - 1])) start -= 1;
  while (end > 0 && DIGITS.test(before[before.length - end])) end -= 1;
  const from = before.slice(start, before.length - end);
  const to = after.slice(start, after.length - end);
  if (!/^\d+(\.\d+)?$/.test(from) || !/^\d+(\.\d+)?$/.test(to)) return false;
  const found = [];
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) if (text.data === from) found.push(text);
  const html = found.filter((text) => text.parentNode.closest('.katex-html') && text.parentNode.classList.contains('mord'));
  const mathml = found.filter((text) => text.parentNode.localName === 'mn');
  const annotation = node.querySelector('annotation');
  if (found.length !== 2 || html.length !== 1 || mathml.length !== 1 || annotation?.textContent !== before) return false;
  html[0].data = to;
  mathml[0].data = to;
  annotation.textContent = after;
  return true;
}

/** A span holding the formulas `texs` typeset on top of each other, `tex` (one of them) shown and
 *  the others unseen (showAlternative): a line that a control switches among a few forms (naive
 *  or stable softmax, M's fill −∞ / −10⁹ / 0) is then as large as the largest, and switching lays
 *  nothing out again (a new formula's elements took milliseconds to style and lay out, and moved
 *  the page below). */
export function typesetStack(texs, tex, { display = false, className = 'formula' } = {}) {
  const span = document.createElement('span');
  span.className = `${className} formula-stack`;
  span.append(
    ...texs.map((source) => {
      const alt = document.createElement('span');
      alt.className = 'formula-alt';
      alt.dataset.tex = source;
      alt.append(...nodesOf(source, display));
      return alt;
    }),
  );
  showInStack(span, tex);
  return span;
}

/** True when `tex` is one of the formulas of a stack made by typesetStack. */
export function stackHolds(node, tex) {
  return [...node.children].some((alt) => alt.dataset.tex === tex);
}

/** Shows `tex` in a stack made by typesetStack; false when it is not one of its formulas. */
export function showInStack(node, tex) {
  if (!stackHolds(node, tex)) return false;
  setAttr(node, 'data-tex', tex);
  showAlternative(
    node,
    [...node.children].find((alt) => alt.dataset.tex === tex),
  );
  return true;
}
