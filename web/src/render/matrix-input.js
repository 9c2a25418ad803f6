// What a learner's pointer and keys do to a matrix, written once for a table and a canvas (the
// surface: matrix-table.js, matrix-canvas.js, which only say where an entry is):
//   - pointing at an entry explains it (events.preview);
//   - a click focuses it, which selects it (events.select), and toggles it in M (events.toggle);
//   - one entry per matrix is in the tab order: the arrows, Home and End move it, Enter or Space
//     toggles an entry of M;
//   - an editable matrix (X, the W matrices) opens an editor over the entry on a typed number,
//     Enter, F2 or a double click (matrix-edit.js).
// A matrix read row by row (spec.unit 'row': the softmax lab's keys) has Home and End go to its
// first and last row, and the page keys move by a page of rows.
import { startEdit, startsEdit } from './matrix-edit.js';
import { drawing } from './scheduler.js';

const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1], Home: [0, -Infinity], End: [0, Infinity] };
const ROW_MOVES = { ...MOVES, Home: [-Infinity, 0], End: [Infinity, 0], PageUp: [-8, 0], PageDown: [8, 0] };

/**
 * surface: { root (the element its events reach), rows, cols,
 *   entryAt(event) → { r, c } | null: the entry under the pointer;
 *   focusedEntry(event) → { r, c } | null: the entry that a focus or key event is on;
 *   onFocus(entry) (optional): marks the entry focused (a table's tab stop, a canvas's readout);
 *   target(r, c) → { el, box } | null: the element to focus for (r, c), and the box to scroll into
 *     view (null: none);
 *   editorAt(r, c) → { before, place(input), unplace(), refocus() } | null, and
 *   setError(text | null): for an editable matrix };
 * spec: { name, head, editable, toggle, unit, t }; events: { preview(ref), select(ref), toggle(r, c),
 *   edit(ref, value), focusEntry(ref) → element | null (whichever view shows the matrix then) },
 *   each optional (a matrix only read with the keys has none).
 * → focusEntry(r, c, scroll = true): focuses (r, c), which selects it; returns the focused element.
 */
export function attachMatrixInput(surface, spec, events) {
  const { name, head = null } = spec;
  const { root } = surface;
  const ref = (r, c) => ({ name, head, row: r, col: c });
  let editor = null; // the open editor's input
  const inEditor = (event) => editor !== null && editor.contains(event.target);

  function focusEntry(r, c, scroll = true) {
    const target = surface.target(r, c);
    if (!target) return null;
    const { el, box } = target;
    if (document.activeElement === el) events.select?.(ref(r, c));
    else el.focus({ preventScroll: true }); // selects it (focusin below)
    // Into view with the frame's own layout: scrolling now would lay the page out before the new
    // numbers are even styled.
    if (scroll) {
      drawing.afterFrame(
        el,
        () => {
          if (document.activeElement === el) box?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
        },
        { background: true },
      );
    }
    return el;
  }

  function edit({ r, c }, initial) {
    const over = editor ? null : surface.editorAt(r, c);
    if (!over) return;
    startEdit({
      r,
      c,
      rows: surface.rows,
      cols: surface.cols,
      before: over.before,
      place(input) {
        editor = input;
        over.place(input);
      },
      unplace() {
        over.unplace();
        editor = null;
      },
      refocus: over.refocus,
      initial,
      t: spec.t,
      message: surface.setError,
      commit: (value) => events.edit(ref(r, c), value),
      focusCell: (row, col) => events.focusEntry(ref(row, col)),
    });
  }

  let hovered = -1;
  root.addEventListener('mousemove', (event) => {
    const at = inEditor(event) ? null : surface.entryAt(event);
    const k = at ? at.r * surface.cols + at.c : -1;
    if (k === hovered) return;
    hovered = k;
    if (at) events.preview?.(ref(at.r, at.c));
  });
  root.addEventListener('mouseleave', () => {
    hovered = -1;
  });
  root.addEventListener('focusin', (event) => {
    const at = surface.focusedEntry(event);
    if (!at) return;
    surface.onFocus?.(at);
    // Selected once focus() has returned: focusing lays the page out (before and after this
    // event), and a new explanation drawn in between would be laid out there and again in the frame.
    drawing.soon(() => {
      if (document.activeElement === event.target) events.select?.(ref(at.r, at.c));
    });
  });
  root.addEventListener('click', (event) => {
    const at = inEditor(event) ? null : surface.entryAt(event);
    if (!at) return;
    if (spec.toggle) events.toggle(at.r, at.c);
    focusEntry(at.r, at.c); // (scrolled only if under the sticky stepper or explanation: scroll-padding, main.css)
  });
  root.addEventListener('dblclick', (event) => {
    const at = spec.editable && !inEditor(event) ? surface.entryAt(event) : null;
    if (at) edit(at, null);
  });
  root.addEventListener('keydown', (event) => {
    const at = surface.focusedEntry(event);
    if (!at) return;
    const move = (spec.unit === 'row' ? ROW_MOVES : MOVES)[event.key];
    if (move) {
      event.preventDefault();
      const clamp = (value, n) => Math.min(n - 1, Math.max(0, value));
      focusEntry(clamp(at.r + move[0], surface.rows), clamp(at.c + move[1], surface.cols));
    } else if (spec.toggle && (event.key === ' ' || event.key === 'Enter')) {
      event.preventDefault();
      events.toggle(at.r, at.c);
    } else if (spec.editable && (event.key === 'Enter' || event.key === 'F2')) {
      event.preventDefault();
      edit(at, null);
    } else if (spec.editable && startsEdit(event)) {
      event.preventDefault();
      edit(at, event.key); // typing starts an edit with that character
    }
  });

  return { focusEntry };
}
