// An entry and a row as the page names them to a teacher: "a₃₂ of head 1", "row 3 (“starts”) of
// A, head 1". The symbol is the explanation panel's (lesson/explain.js), from the result on screen.
import { explainCell } from '../lesson/explain.js';
import { parseCellRef } from '../state/schema.js';
import { parseRowRef } from './exercise-text.js';

/**
 * shown: { state, results } on screen (page/controller.js), or null before the first result; t
 * the translator. → { cell(text), row(text) } names, or the link's own text when there is no
 * result to name it from.
 */
export function cellNames(shown, t) {
  const result = shown?.results.get('main') ?? null;

  function symbolOf(ref) {
    if (!result) return null;
    // (any run does for QKᵀ and the comparison: only the symbol is read)
    const ctx = { result, dots: result, stable: result, compare: result, state: shown.state, t };
    try {
      return explainCell(ref, ctx)?.symbol ?? null;
    } catch {
      return null; // (a result of other shapes, while the state's is being computed)
    }
  }

  function cell(text) {
    const ref = parseCellRef(text);
    const symbol = ref && symbolOf(ref);
    if (!symbol) return text;
    const named = ref.head === null ? symbol : t('builder.cell.head', { symbol, head: ref.head + 1 });
    return ref.name.startsWith('cmp-') ? t('builder.cell.compare', { cell: named }) : named;
  }

  function row(text) {
    const ref = parseRowRef(text);
    const token = ref && result?.tokens[ref.row];
    if (token === undefined || token === null) return text;
    return ref.name === 'mask'
      ? t('builder.row.mask', { row: ref.row + 1, token })
      : t('builder.row.weights', { row: ref.row + 1, token, head: ref.head + 1 });
  }

  return { cell, row };
}
