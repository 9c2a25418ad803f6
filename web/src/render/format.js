// How a matrix entry is printed: 3 decimals, a real minus sign, −∞ for masked scores.
const MINUS = '\u2212';

export function formatCell(value) {
  if (value === -Infinity) return `${MINUS}∞`;
  if (value === Infinity) return '∞';
  if (Number.isNaN(value)) return 'NaN';
  const text = value.toFixed(3);
  if (/^-0\.0+$/.test(text)) return text.slice(1); // −0.0004 prints as 0.000, not −0.000
  return text.replace('-', MINUS);
}

// The text of a printed cell back to a number (used by the browser test, and handy in a console).
export function parseCell(text) {
  const normal = String(text).trim().replace(MINUS, '-');
  if (normal === '-∞') return -Infinity;
  if (normal === '∞') return Infinity;
  return Number(normal);
}
