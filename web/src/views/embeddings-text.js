// The embeddings editor's text box: a view of X, the rows the page computes with (the "model"),
// one line per row, numbers rounded to 4 decimals.
//
// - Typing re-reads only the lines that changed: the other rows stay the same arrays, with their
//   exact numbers (a link's are float32 values of up to 9 digits), and whatever is kept by row
//   (the worker's packed X, the link's text of each row) is not made again.
// - From EDITOR_MAX_NUMBERS numbers on, the box holds a window of rows, with buttons to move it:
//   Chromium's own handling of a keystroke in a text box of megabytes blocks the page (the
//   figures: docs/performance.md, "Figures behind the code").
// - When X is edited in the lesson, the new rows reach validation and the engine as numbers at
//   once, and the text box gets their text after the frame that shows the edit, in idle time, or
//   at once when the reader is about to type in it: writing and laying out the box is not part
//   of the edit's frame.
import { asciiNumbers, formatNumber, parseDecimal, roundForEditor } from '../state/parse.js';
import { h, setHidden, setText, unchanged } from '../render/dom.js';
import { drawing, frameComing } from '../render/scheduler.js';
import { THRESHOLDS } from '../render/thresholds.js';
import './embeddings-text.css';

export const EDITOR_MAX_NUMBERS = 16384;

// The text of one row, kept by row (rows are never changed in place).
const lineOf = new WeakMap();
const formatLine = (row) => {
  let line = lineOf.get(row);
  if (line === undefined) {
    line = row.map(formatNumber).join(' ');
    lineOf.set(row, line);
  }
  return line;
};

// One line of the text: → { row } (null for a blank line) or { col, text } of its first bad entry.
function parseLine(line) {
  const fields = asciiNumbers(line).split(/[\s,]+/);
  const row = [];
  for (const field of fields) {
    if (field.length === 0) continue;
    const value = parseDecimal(field);
    if (value === null) return { col: row.length + 1, text: field };
    row.push(value);
  }
  return { row: row.length ? row : null };
}

// Rows that hold the same numbers are the same row.
const sameRow = (a, b) => a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((v, j) => v === b[j]));

/**
 * textarea: the text box; labels: the element beside it that shows each line's token; pager: a
 * container for the window's buttons (made here); t(): the translator.
 */
export function createEmbeddingsText(textarea, { labels = null, pager = null, t = () => (key) => key } = {}) {
  let model = null; // number[][] the page computes with, or null (unknown: the text is all there is)
  let tokens = [];
  let first = 0; // the window's first row
  let ahead = false; // the model is ahead of the text box (written after the frame)
  const writeKey = { editorText: textarea }; // (the rows left to write, in the page's scheduler)
  // What the text box holds, as written or last read: its text, its lines and their rows.
  let shown = { text: null, first: 0, lines: [], lineRows: [] };

  const cols = () => model?.[0]?.length ?? 1;
  const windowed = () => model !== null && model.length * cols() > EDITOR_MAX_NUMBERS;
  const count = () => (windowed() ? Math.max(1, Math.floor(EDITOR_MAX_NUMBERS / cols())) : (model?.length ?? 0));
  const clampFirst = () => {
    first = windowed() ? Math.max(0, Math.min(first, model.length - count())) : 0;
  };

  // The window's buttons: previous rows, where the window is, next rows.
  const back = h('button', { type: 'button', className: 'editor-window-move', dataset: { move: '-1' } });
  const where = h('span', { className: 'editor-window-where', 'aria-live': 'polite' });
  const next = h('button', { type: 'button', className: 'editor-window-move', dataset: { move: '1' } });
  const bar = h('div', { className: 'editor-window', hidden: true }, [back, where, next]);
  pager?.append(bar);
  bar.addEventListener('click', (event) => {
    const step = Number(event.target.closest('[data-move]')?.dataset.move ?? 0);
    if (!step || !model) return;
    read(); // what was typed in this window is kept
    first += step * count();
    clampFirst();
    write(true);
  });

  function renderChrome() {
    const on = windowed();
    setHidden(bar, !on);
    const shownTokens = on ? tokens.slice(first, first + count()) : tokens;
    if (labels && !unchanged(labels, `${first}\u0002${shownTokens.join('\u0001')}`)) {
      labels.replaceChildren(...shownTokens.map((token) => h('div', { text: token, title: token })));
    }
    const lines = Math.min(Math.max(on ? count() : tokens.length, 3), 16);
    if (textarea.rows !== lines) textarea.rows = lines;
    if (!on) return;
    const tr = t();
    setText(
      where,
      tr('embeddings.window', { from: first + 1, to: Math.min(first + count(), model.length), T: model.length, max: EDITOR_MAX_NUMBERS }),
    );
    setText(back, tr('embeddings.windowBack'));
    setText(next, tr('embeddings.windowNext'));
    back.disabled = first === 0;
    next.disabled = first + count() >= model.length;
  }

  // Writes the window's text into the box (only when it is not what the box holds).
  function write(force = false) {
    if (!ahead && !force) return;
    ahead = false;
    clampFirst();
    const rows = model ? model.slice(first, first + count()) : [];
    const lines = rows.map(formatLine);
    const text = lines.join('\n');
    if (text !== shown.text || textarea.value !== text) textarea.value = text;
    // A row that is not all finite is read from its text again, which names the bad entry.
    const finite = rows.map((row) => (row.every(Number.isFinite) ? row : undefined));
    shown = { text, first, lines, lineRows: finite, unread: finite.includes(undefined) };
    renderChrome();
  }

  /**
   * The rows the page computes with: the model, with the window's lines as the text box holds
   * them (only changed lines are read again). → { ok: true, rows } | { ok: false, error } (error:
   * { key, params } naming the row and entry, counted in the whole matrix).
   */
  function read() {
    if (ahead) return { ok: true, rows: model };
    const text = textarea.value;
    if (text === shown.text && model !== null && !shown.unread) return { ok: true, rows: model };
    const lines = text.split('\n');
    const lineRows = [];
    const rows = [];
    const same = shown.first === first;
    for (let i = 0; i < lines.length; i += 1) {
      let row = same && shown.lines[i] === lines[i] ? shown.lineRows[i] : undefined; // (undefined: read it)
      if (row === undefined) {
        const parsed = parseLine(lines[i]);
        if (parsed.col) {
          return { ok: false, error: { key: 'error.embeddingsNumber', params: { row: first + i + 1, col: parsed.col, text: parsed.text } } };
        }
        // A line that reads as the row it replaces is that row (its exact numbers stay).
        const before = shown.lineRows[i];
        row = parsed.row && before && sameRow(parsed.row, before.map(roundForEditor)) ? before : parsed.row;
      }
      lineRows.push(row);
      if (row) rows.push(row);
    }
    const merged = windowed() && shown.text !== null ? [...model.slice(0, first), ...rows, ...model.slice(first + count())] : rows;
    shown = { text, first, lines, lineRows, unread: false };
    model = merged;
    return { ok: true, rows: merged };
  }

  textarea.addEventListener('focusin', () => write());

  return {
    /**
     * X is now `rows` (number[][], or null for "unknown": the box is emptied), its lines labelled
     * with `rowTokens`. later: the text box is written after the frame (see above); round: the
     * rows are taken at the text box's precision, as typed numbers are. Rows holding the same
     * numbers as the model's stay the model's. → the model.
     */
    show(rows, rowTokens, { later = false, round = false } = {}) {
      tokens = rowTokens;
      if (rows === null) {
        model = null;
        ahead = false;
        if (textarea.value !== '') textarea.value = '';
        shown = { text: '', first: 0, lines: [''], lineRows: [null] };
        renderChrome();
        return null;
      }
      const previous = model ?? [];
      const next = rows.map((row, i) => {
        const kept = previous[i];
        if (sameRow(row, kept)) return kept;
        const taken = round ? row.map(roundForEditor) : row;
        return sameRow(taken, kept) ? kept : taken;
      });
      model = next;
      clampFirst();
      // The box shows these rows already (e.g. a token was added below the window): it stays.
      const inWindow = model.slice(first, first + count());
      const shownRows = shown.lineRows.filter(Boolean);
      if (shown.text !== null && shown.first === first && inWindow.length === shownRows.length && inWindow.every((row, i) => row === shownRows[i])) {
        ahead = false;
        renderChrome();
        return model;
      }
      ahead = true;
      if (!later) write();
      else {
        renderChrome();
        frameComing(); // (idle jobs wait for the frame that shows the edit)
        drawing.idle(writeKey, write, { waitMs: THRESHOLDS.editorWriteWaitMs });
      }
      return model;
    },
    read,
    /** The rows the text box does not show yet are written now (before the text is read). */
    write: () => write(),
    /** The reader typed in the box: its text is what counts now. */
    typed() {
      ahead = false;
    },
    /** The tokens changed (their labels follow). */
    setTokens(rowTokens) {
      tokens = rowTokens;
      renderChrome();
    },
    /** The language changed. */
    translate: renderChrome,
    /** Whether the box shows a window of the rows. */
    get windowed() {
      return windowed();
    },
  };
}
