// The token-to-token view of the selected head (the "head view" of BertViz): query tokens on the
// left, key tokens on the right (the source's in cross-attention), a line for each weight,
// thicker and more opaque the larger it is, in the head's colour. Pointing at (or focusing) a
// token keeps only its lines and prints their weights. Drawn for up to tokenLinesUpTo tokens a side:
// the tokens and a focused token's lines in SVG, all the lines (up to 4 096) on a canvas behind
// it — as SVG elements they took 30–65 ms to build at 64 tokens. Every weight comes from the
// engine's result.
import { formatCell } from '../render/format.js';
import { h, setHidden, setText, svgEl, unchanged } from '../render/dom.js';
import { headColor } from '../render/colors.js';
import { drawing } from '../render/scheduler.js';
import { THRESHOLDS } from '../render/thresholds.js';

const { tokenLinesUpTo: MAX_TOKENS, tokenRowsPerTask: ROWS_PER_TASK } = THRESHOLDS;
const MIN_DRAWN = 0.005; // weights below this draw no line (they would be invisible anyway)
const LABEL_CHARS = 16;

const short = (token) => {
  const chars = [...token];
  return chars.length > LABEL_CHARS ? `${chars.slice(0, LABEL_CHARS - 1).join('')}…` : token;
};

/** callbacks: { select(h) } */
export function createTokenView(callbacks) {
  const el = h('section', { className: 'panel hv-panel tv', id: 'token-view', dataset: { field: 'tokenView' } });
  let svg = null;
  let stage = null; // the canvas of lines with the svg over it
  let geometry = null;
  let weights = null;
  let mask = null;
  let rowsDrawn = 0;
  let colsDrawn = 0;
  const linesKey = { tokenView: 'lines' }; // (the lines' slices in the page's scheduler)
  // Said when the weights are not numbers (naive softmax overflowed): no line can be drawn then.
  const nanNote = h('p', { className: 'tv-nan', role: 'status', hidden: true });
  let lines = null; // the canvas of lines and its draw and clear

  el.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-tv-head]');
    if (button) callbacks.select(Number(button.dataset.tvHead));
  });
  const tokenOf = (target) => target.closest?.('[data-tv-q], [data-tv-k]') ?? null;
  el.addEventListener('mouseover', (event) => {
    const node = tokenOf(event.target);
    if (node) focus(node);
  });
  el.addEventListener('focusin', (event) => {
    const node = tokenOf(event.target);
    if (node) focus(node);
  });
  el.addEventListener('mouseout', (event) => {
    if (tokenOf(event.target) && !tokenOf(event.relatedTarget ?? document.body)) clear();
  });
  el.addEventListener('focusout', () => clear());

  // Highlights the lines of one query (data-tv-q) or one key (data-tv-k) and prints the weights.
  function focus(node) {
    if (!svg || !weights) return;
    clear();
    const isQuery = node.hasAttribute('data-tv-q');
    const index = Number(isQuery ? node.dataset.tvQ : node.dataset.tvK);
    svg.classList.add('focused');
    stage.classList.add('focused');
    node.classList.add('on');
    // Its lines over the dimmed canvas, as SVG lines (class "on") carrying their pair and weight.
    const count = isQuery ? colsDrawn : rowsDrawn;
    let lines = '';
    for (let j = 0; j < count; j += 1) {
      const [i, k] = isQuery ? [index, j] : [j, index];
      lines += lineMarkup(geometry, i, k, weights.data[i * weights.cols + k], 'on');
    }
    svg.querySelector('.tv-lines').innerHTML = lines;
    // The weights next to the tokens on the other side.
    const others = svg.querySelectorAll(isQuery ? '[data-tv-k]' : '[data-tv-q]');
    others.forEach((other) => {
      const j = Number(isQuery ? other.dataset.tvK : other.dataset.tvQ);
      const k = isQuery ? index * weights.cols + j : j * weights.cols + index;
      const w = weights.data[k];
      const label = other.parentNode.querySelector(`[data-tv-w="${isQuery ? 'k' : 'q'}${j}"]`);
      // Masked pairs print 0, like the lesson's weights.
      if (label) label.textContent = mask?.data[k] ? '0' : formatCell(w);
      if (w >= 0.1) other.classList.add('strong');
    });
    el.dataset.focus = `${isQuery ? 'q' : 'k'}${index}`;
  }

  function clear() {
    if (!svg) return;
    svg.classList.remove('focused');
    stage.classList.remove('focused');
    svg.querySelector('.tv-lines').replaceChildren();
    for (const node of svg.querySelectorAll('.on, .strong')) node.classList.remove('on', 'strong');
    for (const label of svg.querySelectorAll('[data-tv-w]')) label.textContent = '';
    delete el.dataset.focus;
  }

  function update({ result, state, t }) {
    const { heads, T, Tk, tokens } = result;
    const selected = Math.min(Math.max(1, state.head ?? 1), heads) - 1;
    const keyTokens = result.source?.tokens ?? tokens;
    const color = headColor(selected, heads);
    weights = result.perHead[selected].weights;
    mask = result.mask;
    rowsDrawn = Math.min(T, MAX_TOKENS);
    colsDrawn = Math.min(Tk, MAX_TOKENS);

    // Keys masked for every query (padding) are greyed and struck through.
    const padded = [];
    for (let j = 0; j < colsDrawn; j += 1) {
      let all = mask.rows > 0;
      for (let i = 0; i < mask.rows && all; i += 1) all = mask.data[i * mask.cols + j] !== 0;
      if (all) padded.push(j);
    }
    // The lines ROWS_PER_TASK query rows at a time, the first ones now and the others in slices
    // (64 × 64 lines take 20 ms and more to draw); a newer update replaces what is left.
    const paintLines = () => {
      let from = 0;
      const paint = () => {
        const to = Math.min(rowsDrawn, from + ROWS_PER_TASK);
        lines.draw(weights, from, to);
        from = to;
        return to < rowsDrawn;
      };
      drawing.cancel(linesKey);
      if (paint()) drawing.sliced(linesKey, paint);
    };
    // A change of the numbers alone (most changes: τ, an edit, the mask of one pair) redraws the
    // lines and leaves the rest as it is: rebuilt, the panel's labels were restyled, laid out and
    // painted anew at every change. The focused token's lines and weights are drawn again.
    const cross = Boolean(result.source);
    const texts = ['heads.tokens.queries', cross ? 'heads.tokens.sourceKeys' : 'heads.tokens.keys', 'heads.tokens.aria', 'heads.tokens.heads'].map(
      (key) => t(key),
    );
    // (Padding only strikes keys through: it is re-marked in place, not a reason to rebuild.)
    const made = JSON.stringify([
      tokens,
      keyTokens,
      T,
      Tk,
      heads,
      selected,
      cross,
      texts,
      t('heads.tokens.title', { h: selected + 1 }),
      t(cross ? 'heads.tokens.captionCross' : 'heads.tokens.caption'),
    ]);
    const markPadded = () => {
      const struck = new Set(padded);
      for (const key of svg.querySelectorAll('[data-tv-k]')) key.classList.toggle('padded', struck.has(Number(key.dataset.tvK)));
    };
    setText(nanNote, t('heads.tokens.nan'));
    // (The rows drawn; an entry an exercise asks for is not there, not NaN.)
    setHidden(nanNote, !weights.data.subarray(0, rowsDrawn * weights.cols).some((v, n) => Number.isNaN(v) && weights.hidden?.[n] !== 1));
    if (unchanged(el, made)) {
      markPadded();
      lines.clear();
      paintLines();
      const focused = svg.querySelector('[data-tv-q].on, [data-tv-k].on');
      if (focused) focus(focused);
      return;
    }

    const choices = [];
    for (let k = 0; k < Math.min(heads, 64); k += 1) {
      choices.push(
        h('button', {
          type: 'button',
          className: 'choice tv-head',
          dataset: { tvHead: String(k) },
          'aria-pressed': k === selected ? 'true' : 'false',
          style: { borderColor: headColor(k, heads), ...(k === selected ? { background: headColor(k, heads) } : {}) },
          text: String(k + 1),
        }),
      );
    }
    const notes = [];
    if (T > MAX_TOKENS || Tk > MAX_TOKENS) notes.push(h('p', { className: 'hv-cut', text: t('heads.tokens.cut', { max: MAX_TOKENS, T, Tk }) }));

    geometry = layout(rowsDrawn, colsDrawn);
    svg = drawLabels({ geometry, tokens, keyTokens, color, t, cross });
    lines = linesCanvas(geometry, color);
    stage = h('div', { className: 'tv-stage' }, [lines.canvas, svg]);
    paintLines();
    markPadded();
    el.replaceChildren(
      h('h2', { text: t('heads.tokens.title', { h: selected + 1 }) }),
      h('p', { className: 'caption', text: t(result.source ? 'heads.tokens.captionCross' : 'heads.tokens.caption') }),
      h('div', { className: 'tv-heads', role: 'group', 'aria-label': t('heads.tokens.heads') }, [
        h('span', { className: 'hs-label', text: t('heads.tokens.heads') }),
        ...choices,
      ]),
      ...notes,
      nanNote,
      h('div', { className: 'tv-scroll' }, [stage]),
    );
    el.dataset.head = String(selected);
  }

  return { el, update };
}

// Where things go: rows and cols tokens a side, rows of rowH pixels, lines from leftX to rightX.
function layout(rows, cols) {
  const n = Math.max(rows, cols);
  const rowH = n <= 24 ? 24 : n <= 40 ? 18 : 14;
  const labelW = 150;
  const valueW = 44;
  const leftX = labelW + valueW; // where the lines start
  const rightX = leftX + 220;
  const top = 30;
  return {
    rows,
    cols,
    font: n <= 24 ? 14 : n <= 40 ? 12 : 10,
    valueW,
    leftX,
    rightX,
    width: rightX + valueW + labelW,
    height: top + n * rowH + 8,
    // The middle of token i out of count (the shorter side is centred).
    y: (i, count) => top + (i + 0.5) * rowH + ((n - count) * rowH) / 2,
  };
}

// A line's width and opacity grow with its weight; weights below MIN_DRAWN draw nothing.
const strokeOf = (w) => ({ width: 0.4 + 5.6 * w, opacity: 0.12 + 0.88 * w });

// The SVG line of query i → key k (for the focused token's lines), '' when not drawn.
function lineMarkup({ leftX, rightX, y, rows, cols }, i, k, w, className) {
  if (!(w >= MIN_DRAWN)) return '';
  const { width, opacity } = strokeOf(w);
  return `<line class="${className}" x1="${leftX}" y1="${y(i, rows).toFixed(1)}" x2="${rightX}" y2="${y(k, cols).toFixed(1)}" stroke-width="${width.toFixed(2)}" stroke-opacity="${opacity.toFixed(3)}" data-q="${i}" data-k="${k}" data-w="${w.toFixed(4)}"></line>`;
}

// A canvas for every line, over the strip between the two columns of tokens (a canvas's first
// drawing allocates its pixels: 20 ms for the whole svg's area at 64 tokens, a third of that for
// the strip); sharp on high-density screens. draw(weights, from, to) draws the lines of query
// rows from…to−1.
function linesCanvas(geometry, color) {
  const { height, leftX, rightX, y, rows, cols } = geometry;
  const pad = 4; // room for the widest line's round caps
  const width = rightX - leftX + 2 * pad;
  const ratio = Math.min(2, globalThis.devicePixelRatio || 1);
  const canvas = h('canvas', { className: 'tv-canvas', 'aria-hidden': 'true' });
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  canvas.style.left = `${leftX - pad}px`;
  const g = canvas.getContext('2d');
  if (g) {
    g.scale(ratio, ratio);
    g.translate(pad - leftX, 0);
    g.strokeStyle = color;
    g.lineCap = 'round';
  }
  const draw = (weights, from, to) => {
    if (!g) return;
    for (let i = from; i < to; i += 1) {
      for (let j = 0; j < cols; j += 1) {
        const w = weights.data[i * weights.cols + j];
        if (!(w >= MIN_DRAWN)) continue;
        const { width: lineWidth, opacity } = strokeOf(w);
        g.lineWidth = lineWidth;
        g.globalAlpha = opacity;
        g.beginPath();
        g.moveTo(leftX, y(i, rows));
        g.lineTo(rightX, y(j, cols));
        g.stroke();
      }
    }
  };
  // Rubs the lines out (for new weights over the same tokens).
  const clear = () => {
    if (!g) return;
    g.save();
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, canvas.width, canvas.height);
    g.restore();
  };
  return { canvas, draw, clear };
}

// The tokens on both sides, the places for their weights, and an empty group for the lines of a
// focused token.
function drawLabels({ geometry, tokens, keyTokens, color, t, cross }) {
  const { width, height, leftX, rightX, valueW, font, y, rows, cols } = geometry;
  const svg = svgEl('svg', { class: 'tv-svg', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': t('heads.tokens.aria') }, [
    svgEl('g', { class: 'tv-lines', stroke: color, 'stroke-linecap': 'round' }),
  ]);
  const text = (attrs, content) => svgEl('text', attrs, content);
  svg.append(text({ x: leftX - valueW, y: 16, 'text-anchor': 'end', class: 'tv-head-label' }, t('heads.tokens.queries')));
  svg.append(
    text({ x: rightX + valueW, y: 16, 'text-anchor': 'start', class: 'tv-head-label' }, t(cross ? 'heads.tokens.sourceKeys' : 'heads.tokens.keys')),
  );
  const side = (count, list, kind) => {
    const group = svgEl('g', { class: `tv-side tv-${kind}` });
    for (let i = 0; i < count; i += 1) {
      const yy = y(i, count) + font * 0.35;
      const label =
        kind === 'q'
          ? text({ x: leftX - valueW, y: yy, 'text-anchor': 'end', 'font-size': font, tabindex: 0, 'data-tv-q': i }, short(list[i]))
          : text({ x: rightX + valueW, y: yy, 'text-anchor': 'start', 'font-size': font, tabindex: 0, 'data-tv-k': i }, short(list[i]));
      label.append(svgEl('title', {}, list[i]));
      const value =
        kind === 'q'
          ? text({ x: leftX - 6, y: yy, 'text-anchor': 'end', 'font-size': font - 2, class: 'tv-w', 'data-tv-w': `q${i}` }, '')
          : text({ x: rightX + 6, y: yy, 'text-anchor': 'start', 'font-size': font - 2, class: 'tv-w', 'data-tv-w': `k${i}` }, '');
      group.append(label, value);
    }
    svg.append(group);
  };
  side(rows, tokens, 'q');
  side(cols, keyTokens, 'k');
  return svg;
}
