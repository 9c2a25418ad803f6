// Editing a matrix cell in place: type a number, Enter (down) or Tab (right, Shift+Tab left) to
// commit and move on, Escape to cancel. A non-numeric or non-finite entry ("abc", "NaN",
// "Infinity", "1e999") is refused with an inline message under the matrix, and the cell keeps
// its previous value.
import { parseDecimal } from '../state/parse.js';

/** The number a reader typed (a real minus sign allowed), or null. */
export function parseCellInput(text) {
  return parseDecimal(
    String(text)
      .trim()
      .replace(/\u2212/g, '-'),
  );
}

/** The cell `move` leads to from (r, c) in a rows × cols matrix, or null past the edge. */
export function moveFrom(r, c, move, rows, cols) {
  if (move === 'down') return r + 1 < rows ? [r + 1, c] : null;
  if (move === 'right') {
    if (c + 1 < cols) return [r, c + 1];
    return r + 1 < rows ? [r + 1, 0] : null;
  }
  if (move === 'left') {
    if (c > 0) return [r, c - 1];
    return r > 0 ? [r - 1, cols - 1] : null;
  }
  return null;
}

/**
 * Opens an editor over entry (r, c) of a rows × cols matrix whose entry reads `before`.
 * place(input) lays the editor over the entry, unplace() takes it away (the entry showing
 * `before` again), refocus() gives the focus back to the entry (Escape). initial: text to start
 * with (a typed character) or null for the current value. commit(value) applies a valid number;
 * focusCell(r, c) focuses an entry and returns its element (or null); message(text) shows or
 * clears the inline message.
 */
export function startEdit({ r, c, rows, cols, before, place, unplace, refocus, initial, commit, focusCell, message, t }) {
  const input = document.createElement('input');
  input.type = 'text';
  input.className = 'cell-input';
  input.inputMode = 'decimal';
  input.spellcheck = false;
  input.setAttribute('aria-label', t('edit.aria', { row: r + 1, col: c + 1 }));
  input.value = initial ?? before.replace(/\u2212/g, '-');
  place(input);
  input.focus();
  if (initial === null) input.select();

  let done = false;
  function close() {
    done = true;
    unplace();
  }

  function finish(move) {
    if (done) return;
    const text = input.value;
    const value = parseCellInput(text);
    if (value === null) {
      message(t('lesson.error.cell', { text: text.trim().slice(0, 30) || '∅', value: before }));
      input.setAttribute('aria-invalid', 'true');
      if (move === 'blur') close(); // leaving the cell keeps the old value (and the message)
      return;
    }
    message(null);
    // The next cell is focused (and so selected) first, while the page is as it was laid out:
    // focusing lays the page out, which then costs nothing (after the edited cell is closed it
    // costs a layout of its table, after the commit a layout of the page). The commit then draws
    // the new numbers and the new selection in one frame.
    done = true; // the input's blur, when the next cell takes the focus, is not another finish
    const target = move === 'blur' ? null : (moveFrom(r, c, move, rows, cols) ?? [r, c]);
    const focused = target ? focusCell(target[0], target[1]) : null;
    close();
    commit(value);
    if (focused && !focused.isConnected) focusCell(target[0], target[1]); // its matrix was rebuilt
  }

  input.addEventListener('keydown', (event) => {
    event.stopPropagation();
    if (event.key === 'Enter') {
      event.preventDefault();
      finish('down');
    } else if (event.key === 'Tab') {
      event.preventDefault();
      finish(event.shiftKey ? 'left' : 'right');
    } else if (event.key === 'Escape') {
      event.preventDefault();
      message(null);
      close();
      refocus();
    }
  });
  input.addEventListener('blur', () => finish('blur'));
}

/** startEdit's place, unplace and refocus for a table cell `td`. */
export function overCell(td) {
  const before = td.textContent;
  return {
    before,
    // The editor lies over the cell, which keeps its text and so its size (lesson.css): opening
    // and closing it moves nothing on the page.
    place(input) {
      td.classList.add('editing');
      td.append(input);
    },
    unplace() {
      td.classList.remove('editing');
      td.textContent = before; // (the input goes with the old children)
    },
    refocus: () => td.focus(),
  };
}

/** True for a key that starts an edit with itself as the first character: a number's
 *  characters, and letters too, so that "abc" gets its message. */
export function startsEdit(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return false;
  return /^[-+.\d\u2212eEaIN]$/.test(event.key) || /\p{L}/u.test(event.key);
}
