// How the lesson prints numbers: matrix cells, factors in an explanation, vectors, index
// subscripts, and long sums shortened without ever being wrong. Printing only: every value
// printed here was computed by the engine. No DOM.
import { formatCell } from './format.js';

const MINUS = '\u2212';
const BIG = 1e5;

// 3 significant digits with an exponent, e.g. −5.77e8, 3.06e37.
function exponential(value) {
  const [mantissa, exponent] = value.toExponential(2).split('e');
  return `${mantissa}e${Number(exponent)}`.replaceAll('-', MINUS);
}

/** A matrix cell or a result: 3 decimals; ±∞, NaN; an exponent past 10⁵. */
export function fmt(value) {
  if (!Number.isFinite(value) || Math.abs(value) < BIG) return formatCell(value);
  return exponential(value);
}

/** A factor in a sum: like fmt but without trailing zeros (0.55, 1, −0.2). */
export function factor(value) {
  const text = fmt(value);
  if (!/^−?\d+\.\d+$/.test(text)) return text;
  return text.replace(/\.?0+$/, '') || '0';
}

/** A factor that may follow an operator: negatives in parentheses, 0.55·(−0.43). */
export function operand(value) {
  const text = factor(value);
  return text.startsWith(MINUS) ? `(${text})` : text;
}

/** (0.499, 0.566, 0.757); with more than `max` entries the middle becomes '…'. */
export function vector(values, max = 8) {
  const all = Array.from(values, fmt);
  const shown = all.length > max ? [...all.slice(0, max - 2), '…', all[all.length - 1]] : all;
  return `(${shown.join(', ')})`;
}

const SUBSCRIPT = '₀₁₂₃₄₅₆₇₈₉';
const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
export const sub = (n) => String(n).replace(/\d/g, (d) => SUBSCRIPT[d]);
export const sup = (n) => String(n).replace(/\d/g, (d) => SUPERSCRIPT[d]);

/** 1-based indices as a subscript: ₂₁, or ₁₂,₃ when one of them has two digits. */
export function indices(...values) {
  const oneBased = values.map((v) => v + 1);
  return oneBased.every((v) => v < 10) ? oneBased.map(sub).join('') : oneBased.map(sub).join(',');
}

/**
 * Terms of a sum joined by ' + '. Past `max` terms the middle is left out:
 *   t₁ + t₂ + t₃ + … + t₈   (8 terms)
 * The caller prints the engine's total after it, so the shortening never changes a result.
 */
export function sum(terms, max = 6) {
  if (terms.length === 0) return '0';
  if (terms.length <= max) return terms.join(' + ');
  return `${terms.slice(0, 3).join(' + ')} + … + ${terms[terms.length - 1]}`;
}

/** True when `sum` shortened these terms (the caller then says how many there are). */
export const shortened = (terms, max = 6) => terms.length > max;
