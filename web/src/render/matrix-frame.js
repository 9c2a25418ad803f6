// What every matrix figure has around its cells, whether they are a table (matrix-table.js) or a
// canvas (matrix-canvas.js): the caption (symbol, shape, name, "from step n", tools), the
// colour legend, the inline error of an edit, and for a matrix past the printed corner a note and
// an overview of every entry on a canvas.
import { h, setHidden, setText } from './dom.js';
import { renderHeatmapCanvas } from './heatmap-canvas.js';
import { fmt } from './numbers.js';
import { drawing } from './scheduler.js';

/** "W_Q" → W with a subscript Q; other symbols as text. */
export function symbolNode(text) {
  const match = /^(.*?)_([A-Za-z])$/.exec(text);
  if (!match) return h('span', { className: 'sym', text });
  return h('span', { className: 'sym' }, [match[1], h('sub', { text: match[2] })]);
}

/**
 * spec: see createMatrixView; rows, cols: the printed corner; cells: the element holding them.
 * → { el, setLegend(scale | null), setMaskedKey(on, fillText), drawOverview(matrix), setError(text),
 *     setSymbol(text) }
 */
export function createMatrixFrame(spec, rows, cols, cells) {
  const { name, head = null, rowLabels, t } = spec;
  const tools = (spec.tools ?? []).map((tool) =>
    h('button', { type: 'button', className: 'tool', dataset: { tool: tool.id, target: name }, text: tool.label }),
  );
  let symbol = symbolNode(spec.symbol);
  let symbolText = spec.symbol;
  const caption = h('figcaption', {}, [
    symbol,
    h('span', { className: 'shape', text: `${spec.rows} × ${spec.cols}` }),
    h('span', { className: 'name', text: spec.title }),
    spec.tag ? h('span', { className: 'from', text: spec.tag }) : null,
    tools.length ? h('span', { className: 'tools' }, tools) : null,
  ]);

  const lo = h('span', { className: 'lo' });
  const hi = h('span', { className: 'hi' });
  const bar = h('span', { className: 'bar' });
  const maskedSwatch = h('span', { className: 'swatch masked', 'aria-hidden': 'true' });
  const maskedText = h('span');
  const maskedKey = h('span', { className: 'masked-key', hidden: true }, [maskedSwatch, maskedText]);
  const legend = h('div', { className: 'legend' }, [lo, bar, hi, maskedKey]);
  const error = h('p', { className: 'cell-error', role: 'alert', hidden: true });
  const notes = [];
  // A matrix too large for printed cells is also drawn whole, one pixel block per entry, on a
  // canvas (fast enough to redraw at every keystroke for T = 512).
  const overview = spec.overview !== false && (rows < spec.rows || cols < spec.cols) ? h('div', { className: 'overview' }) : null;
  if (overview) {
    notes.push(h('p', { className: 'truncated', text: t('legend.truncated', { rows, totalRows: spec.rows, cols, totalCols: spec.cols }) }));
    notes.push(overview);
  }
  // (A figure taken from an earlier step says so, and `inputs_hide=1` hides it: share/hide.js.)
  const el = h(
    'figure',
    {
      className: `matrix m-${name}${spec.tag ? ' from-step' : ''}`,
      dataset: { matrixFigure: name, ...(head === null ? {} : { head: String(head) }) },
    },
    [caption, h('div', { className: 'scroll' }, [cells]), legend, error, ...notes],
  );

  let legendKey = '';
  return {
    el,
    /** The colour scale's ends and gradient (null: M, which has no scale). */
    setLegend(scale) {
      const key = scale ? `${scale.domain[0]}|${scale.domain[1]}` : 'mask';
      if (key === legendKey) return;
      legendKey = key;
      if (!scale) {
        lo.textContent = '';
        hi.textContent = '';
        bar.style.display = 'none';
      } else {
        lo.textContent = spec.kind === 'weights' ? '0' : fmt(scale.domain[0]);
        hi.textContent = spec.kind === 'weights' ? '1' : fmt(scale.domain[1]);
        bar.style.background = `linear-gradient(to right, ${scale.stops(9).join(', ')})`;
      }
    },
    /** The key of masked entries, with the fill they take (−∞, or a finite one as 0). */
    setMaskedKey(on, fillText = '−∞') {
      setText(maskedText, t('legend.masked', { fill: fillText }));
      maskedSwatch.classList.toggle('zero', fillText === '0');
      setHidden(maskedKey, !(on && (name === 'masked' || name === 'mask')));
    },
    /** The overview of a matrix past the printed corner, in a task of its own (with the table,
     *  one matrix of T = 512 would take over 50 ms). */
    drawOverview(matrix) {
      if (!overview) return;
      drawing.sliced(overview, () => {
        overview.replaceChildren(
          renderHeatmapCanvas({
            matrix,
            kind: spec.kind === 'signed' ? 'signed' : 'weights',
            label: `${spec.title} ${matrix.rows} × ${matrix.cols}`,
            describe: (r, c, value) => t('legend.canvasCell', { row: r + 1, col: c + 1, token: rowLabels[r] ?? '', value }),
          }),
        );
      }); // (a newer update's replaces it)
    },
    setError(text) {
      setText(error, text ?? '');
      setHidden(error, !text);
    },
    /** A new symbol in the caption (the masked scores' changes with the order of mask and ÷√d_k). */
    setSymbol(text) {
      if (text === symbolText) return;
      symbolText = text;
      const next = symbolNode(text);
      symbol.replaceWith(next);
      symbol = next;
    },
  };
}

/** The cells alone in their scroll box (spec.figure 'bare'): a matrix inside a panel that names
 *  it (the softmax lab), with no caption, legend or overview. → a frame as above. */
export function createBareFrame(spec, rows, cols, cells) {
  const none = () => {};
  const el = h('div', { className: 'matrix-bare' }, [h('div', { className: 'scroll' }, [cells])]);
  return { el, setLegend: none, setMaskedKey: none, drawOverview: none, setError: none, setSymbol: none };
}
