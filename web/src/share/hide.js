// Hiding parts of the page from the link (`heads_hide=1`, `prose_hide=1`, …). A control is found
// by `data-field="<key>"` on its container (any view may mark its controls so), or for the
// first page's controls by the selectors below. Explanations are hidden by CSS, so that text the
// views draw later stays hidden too.
const CONTROLS = {
  // key: [selector of the control, the container to hide (closest), or null for the control itself]
  sentence: ['#sentence', '.field'],
  tokenization: ['#tokenize-mode', null],
  dModel: ['#d-model', '.field'],
  heads: ['#heads', '.field'],
  mask: ['input[name="mask"], #mask-summary', 'label, .mask-summary'],
  scale: ['#scale', 'label'],
  weights: ['input[name="weights"]', 'fieldset'],
  seed: ['#seed', null],
  embeddings: ['input[name="embeddings"]', 'fieldset'],
};

const PARTS = {
  prose: '.subtitle, .caption, .formulas, #preset-note, footer, .note, .share-gallery-intro, .lab-notes, [data-prose]',
  presets: 'nav.presets, #share-gallery, [data-share-open="share-gallery"]',
  lang: '.lang',
  share: '[data-share-open], #share-copy, #share-link, .share-panel',
  export: '#share-export, [data-share-open="share-export"]',
  inputs: 'figure.matrix.from-step',
};

const HIDDEN = 'share-hidden';

/** Applies the hidden set (names from the link) to `doc`; safe to call after every render. */
export function applyHidden(doc, hidden) {
  const names = new Set(hidden);
  let style = doc.getElementById('share-hide-rules');
  if (!style) {
    style = doc.createElement('style');
    style.id = 'share-hide-rules';
    doc.head.append(style);
  }
  const rules = [];
  for (const name of names) {
    if (!/^[A-Za-z][\w-]*$/.test(name)) continue;
    rules.push(`[data-field~="${name}"]`);
    if (PARTS[name]) rules.push(PARTS[name]);
  }
  style.textContent = rules.length ? `${rules.join(',\n')} { display: none !important; }` : '';

  for (const node of doc.querySelectorAll(`.${HIDDEN}`)) node.classList.remove(HIDDEN);
  // Nothing hidden: no need to read computed styles below (that forced the page's first style
  // calculation into the task that opens it).
  if (rules.length === 0) return;
  for (const [key, [selector, container]] of Object.entries(CONTROLS)) {
    if (!names.has(key)) continue;
    for (const control of doc.querySelectorAll(selector)) {
      (container ? control.closest(container) : control)?.classList.add(HIDDEN);
    }
  }
  // A fieldset whose every choice is hidden goes too, then a row with nothing left, then the
  // controls panel if no control is left.
  for (const fieldset of doc.querySelectorAll('form fieldset')) {
    const labels = [...fieldset.querySelectorAll(':scope > label, :scope > p')];
    if (labels.length && labels.every((label) => label.classList.contains(HIDDEN))) fieldset.classList.add(HIDDEN);
  }
  const form = doc.getElementById('controls');
  if (form) {
    const visible = (node) => !node.classList.contains(HIDDEN) && getComputedStyleSafe(node) !== 'none';
    for (const row of form.querySelectorAll('.row')) if (![...row.children].some(visible)) row.classList.add(HIDDEN);
    const fields = [...form.querySelectorAll('.field, fieldset, [data-field]')];
    if (fields.length && !fields.some(visible)) form.closest('section')?.classList.add(HIDDEN);
  }
}

function getComputedStyleSafe(node) {
  try {
    return node.ownerDocument.defaultView.getComputedStyle(node).display;
  } catch {
    return '';
  }
}

/** The hideable controls that exist on this page, in table order. */
export function controlsOnPage(doc, keys) {
  return keys.filter((key) => doc.querySelector(`[data-field~="${key}"]`) || (CONTROLS[key] && doc.querySelector(CONTROLS[key][0])));
}
