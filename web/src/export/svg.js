// One matrix as a standalone SVG heatmap, drawn like the page draws it (same colour scales, same
// 3-decimal numbers, −∞ in grey). No DOM: the page turns the text into a download, or into a
// PNG through a canvas. Every label is XML-escaped: tokens come from whoever made the link.
import { COLORS, MASKED_CELL, colorScale } from '../render/colors.js';
import { formatCell } from '../render/format.js';
import { THRESHOLDS } from '../render/thresholds.js';
import { visibleText } from './visible-text.js';

// The largest heatmap drawn; bigger matrices show their top-left corner and say so.
export const SVG_MAX_SHOWN = THRESHOLDS.svgShown;

const CELL_W = 58;
const COL_MAX_W = 120; // px: a longer key token is clipped with …
const CELL_H = 26;
const FONT = "system-ui, 'Noto Sans', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif";

// Text as XML 1.0 character data or attribute value: markup escaped, and the characters XML does
// not allow at all (a NUL, a lone surrogate… in a token) shown as visible-text.js says.
export function escapeXml(text) {
  return visibleText(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]);
}

// Rough width of a label in px at 13px: CJK and other wide characters count double.
function textWidth(text, size = 13) {
  let units = 0;
  for (const ch of String(text)) units += /[\u1100-\uffff]/.test(ch) && !/[\u2000-\u206f]/.test(ch) ? 1 : 0.6;
  return units * size;
}

function clip(raw, maxWidth) {
  const text = visibleText(raw);
  if (textWidth(text) <= maxWidth) return text;
  const chars = [...text];
  let out = '';
  for (const ch of chars) {
    if (textWidth(`${out}${ch}…`) > maxWidth) return `${out}…`;
    out += ch;
  }
  return out;
}

// entry: one item of export/matrices.js matrixCatalog; title: a caption (e.g. the matrix's name in
// the reader's language). → SVG text.
export function heatmapSVG(entry, { title = '' } = {}) {
  const { matrix, rowLabels, colLabels, kind, symbol } = entry;
  const rows = Math.min(matrix.rows, SVG_MAX_SHOWN);
  const cols = Math.min(matrix.cols, SVG_MAX_SHOWN);
  const scale = colorScale(kind, matrix.data);
  const labelW = Math.min(160, Math.max(40, ...rowLabels.slice(0, rows).map((l) => textWidth(visibleText(l)) + 16)));
  // A column as wide as its key token (up to a cap), so that a word like "journey" is not clipped.
  const tokenW = Math.max(0, ...colLabels.slice(0, cols).map((label, c) => (label === String(c + 1) ? 0 : textWidth(visibleText(label)) + 8)));
  const cellW = Math.min(COL_MAX_W, Math.max(CELL_W, Math.ceil(tokenW)));
  const headH = 40;
  const top = 34;
  const left = labelW;
  const width = Math.max(left + cols * cellW + 12, 320);
  const truncated = rows < matrix.rows || cols < matrix.cols;
  const height = top + headH + rows * CELL_H + (truncated ? 30 : 12);

  const parts = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${escapeXml(FONT)}" font-size="13">`,
    `<rect width="100%" height="100%" fill="${COLORS.panel}"/>`,
    `<text x="8" y="22" font-size="15" font-weight="600" fill="${COLORS.ink}">${escapeXml(symbol)}` +
      `<tspan fill="${COLORS.muted}" font-weight="400">  ${matrix.rows} × ${matrix.cols}${title ? `  ·  ${escapeXml(title)}` : ''}</tspan></text>`,
  );
  // Column labels: the index, and the key token under it for T×T matrices.
  for (let c = 0; c < cols; c += 1) {
    const x = left + c * cellW + cellW / 2;
    const label = colLabels[c] ?? String(c + 1);
    const isIndex = label === String(c + 1);
    parts.push(`<text x="${x}" y="${top + 16}" text-anchor="middle" fill="${COLORS.muted}">${c + 1}</text>`);
    if (!isIndex) {
      parts.push(`<text x="${x}" y="${top + 32}" text-anchor="middle" fill="${COLORS.ink}">${escapeXml(clip(label, cellW - 4))}</text>`);
    }
  }
  for (let r = 0; r < rows; r += 1) {
    const y = top + headH + r * CELL_H;
    parts.push(
      `<text x="${left - 8}" y="${y + CELL_H / 2 + 4}" text-anchor="end" fill="${COLORS.ink}">${escapeXml(clip(rowLabels[r] ?? String(r + 1), labelW - 12))}</text>`,
    );
    for (let c = 0; c < cols; c += 1) {
      const value = matrix.data[r * matrix.cols + c];
      const x = left + c * cellW;
      const masked = value === -Infinity;
      const cell = masked ? MASKED_CELL : scale.cell(Number.isFinite(value) ? value : 0);
      parts.push(
        `<rect x="${x}" y="${y}" width="${cellW}" height="${CELL_H}" fill="${cell.background}" stroke="${COLORS.panel}" stroke-width="1"/>`,
        `<text x="${x + cellW - 6}" y="${y + CELL_H / 2 + 4}" text-anchor="end" fill="${cell.text}" font-variant-numeric="tabular-nums">${escapeXml(formatCell(value))}</text>`,
      );
    }
  }
  if (truncated) {
    parts.push(
      `<text x="8" y="${height - 10}" fill="${COLORS.muted}">first ${rows} of ${matrix.rows} rows, ${cols} of ${matrix.cols} columns</text>`,
    );
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
