// Helpers that the lesson's measurement scripts (measure-lesson, profile-interaction,
// paint-invalidations, dom-mutations) put into the page as source text: $ (looks in the steps
// shown), fire(node, type, init), cell(name, head, row, col) → { node, clientX, clientY } for a
// table cell or a canvas entry, and point(...), which fires a pointer event at an entry.
export const LESSON_PAGE_HELPERS = `
  // Steps not shown may stay in the page, parked (hidden): look in the ones shown.
  const $ = (s) => document.querySelector(s.replace(/^(td|\\.cg-body)/, '#results section.lesson-step:not(.parked) $1'));
  const fire = (node, type, init = {}) => node.dispatchEvent(new (type.startsWith('key') ? KeyboardEvent : type.startsWith('mouse') || type === 'click' ? MouseEvent : Event)(type, { bubbles: true, cancelable: true, ...init }));
  const cell = (name, head, row, col) => {
    const sel = '[data-matrix="' + name + '"]' + (head === null ? ':not([data-head])' : '[data-head="' + head + '"]');
    const td = $('td' + sel + '[data-row="' + row + '"][data-col="' + col + '"]');
    if (td) { const b = td.getBoundingClientRect(); return { node: td, clientX: b.left + b.width / 2, clientY: b.top + b.height / 2 }; }
    const grid = $('.cg-body' + sel);
    const b = grid.querySelector('canvas').getBoundingClientRect();
    const w = parseFloat(grid.parentNode.style.getPropertyValue('--cw'));
    return { node: grid, clientX: b.left + (col + 0.5) * w, clientY: b.top + (row + 0.5) * 20 };
  };
  const point = (name, head, row, col, type) => { const p = cell(name, head, row, col); fire(p.node, type, { clientX: p.clientX, clientY: p.clientY }); };
`;

/** `body` (source text, `i` = repetition) as the source of a function expression `(i) => { … }`,
 *  to splice into one string that page.evaluate gets: the test driver evaluates that string,
 *  whereas eval and new Function inside the page are forbidden by its Content Security Policy. */
export const interactionSource = (body, helpers = LESSON_PAGE_HELPERS) => `((i) => {\n${helpers}\n${body}\n})`;
