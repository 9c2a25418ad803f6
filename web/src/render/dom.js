// A tiny element builder. Text goes in through textContent only, so user text (tokens) can never
// become HTML.
export function h(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = value;
    else if (name === 'className') node.className = value;
    else if (name === 'style') Object.assign(node.style, value);
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of [].concat(children)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The same for SVG: attributes as strings, texts as text nodes (never markup). */
export function svgEl(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  for (const child of [].concat(children)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

/** Writes a node's text. A node holding one text keeps it and gets the new data: a new text node
 *  is a new object to style and lay out, and Chromium drops the old one's too (the lab's numbers
 *  and the explanation's lines, on every change). */
export function writeText(node, text) {
  const only = node.firstChild;
  if (text && only && only === node.lastChild && only.nodeType === Node.TEXT_NODE) only.data = text;
  else node.textContent = text;
}

/** Sets a node's text only when it differs: rewriting the same text still replaces the text
 *  node, and the browser then lays out its box (and its container) again. */
export function setText(node, text) {
  if (node.textContent !== text) writeText(node, text);
}

/** The same for an attribute. */
export function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/** The same for `hidden`. */
export function setHidden(node, hidden) {
  if (node.hidden !== hidden) node.hidden = hidden;
}

/** Shows `shown`, a child of `node`, and leaves its other children unseen: class "off" (the CSS
 *  of each use hides them, keeping their place) and aria-hidden. Alternatives stacked in one grid
 *  cell this way keep the cell the size of the largest, so a switch moves nothing around it.
 *  Only what changes is written. */
export function showAlternative(node, shown) {
  for (const alt of node.children) {
    const off = alt !== shown;
    if (alt.classList.contains('off') === off) continue;
    alt.classList.toggle('off', off);
    if (off) alt.setAttribute('aria-hidden', 'true');
    else alt.removeAttribute('aria-hidden');
  }
}

/** Texts as such alternatives: one span per text in `node` (made when their number changes), the
 *  one at index `shown` seen. */
export function setAlternatives(node, texts, shown) {
  if (node.children.length !== texts.length) node.replaceChildren(...texts.map(() => h('span')));
  texts.forEach((text, k) => setText(node.children[k], text));
  showAlternative(node, node.children[shown]);
}

/**
 * Keeps one child of `parent` per key of `keys`, in that order, before any other child: made by
 * `make(key)` the first time and kept in `items` (a Map, key → element) after; the elements of
 * keys no longer listed are removed. Returns them in the order of `keys`. Lists rewritten in
 * place this way are not laid out again as a whole on every change, as replaced ones were.
 */
export function keyedChildren(parent, items, keys, make) {
  const wanted = new Set(keys);
  for (const [key, node] of items) {
    if (!wanted.has(key)) {
      node.remove();
      items.delete(key);
    }
  }
  let before = parent.firstChild;
  return keys.map((key) => {
    let node = items.get(key);
    if (!node) {
      node = make(key);
      items.set(key, node);
    }
    if (node !== before) parent.insertBefore(node, before);
    else before = before.nextSibling;
    return node;
  });
}

/** Makes `wanted` the children of `parent`, in order: a child already in its place is not moved
 *  (moved, it leaves the page and comes back: restyled, laid out and painted anew); the others are
 *  removed. */
export function placeChildren(parent, wanted) {
  const kept = new Set(wanted);
  for (const child of [...parent.children]) if (!kept.has(child)) child.remove();
  wanted.forEach((node, k) => {
    if (parent.children[k] !== node) parent.insertBefore(node, parent.children[k] ?? null);
  });
}

// What each container was last built from (a key), for unchanged().
const builtFrom = new WeakMap();

/** True when `container` was last built from the same `key` (its elements can stay); else
 *  remembers `key` and returns false. Views re-rendered on every update use it to skip building
 *  the same elements again: new elements cost style and layout even when they look the same. */
export function unchanged(container, key) {
  if (builtFrom.get(container) === key) return true;
  builtFrom.set(container, key);
  return false;
}
