// Rotary positions (RoPE): how one pair of a chosen token's query turns, and that the scores then
// depend on the distance i − j only. The pair before the turn is the head's columns of result.q
// (the projection), after it perHead[h].q (what the scores use); the angle is ropeAngles. The
// demonstration runs the page's config again with every position shifted (positionOffset), with
// RoPE and with sinusoidal positions, and prints the largest change of any score. Positions and
// pairs are counted from 1 as everywhere on the page; the engine counts positions from 0 (m = n − 1),
// which the panel says where it prints an angle. A head of fewer than DEMO_DK dimensions turns too
// few pairs to show RoPE's many speeds: the panel says so and offers d_k = DEMO_DK in one click.
import { subscript } from '../i18n/index.js';
import { h, placeChildren, setText, svgEl } from '../render/dom.js';
import { THRESHOLDS } from '../render/thresholds.js';
import { ROPE_SHIFT as SHIFT } from '../compute/plan.js';
import { finiteFill, gridView, smallText } from './figure.js';

const PLOT = 160; // the pair's plot, CSS pixels a side
const DEMO_DK = 8; // four pairs, each turning at its own speed: the least that shows the speeds fall

// Largest |a − b| over every head's scores (both from the engine).
function largestChange(a, b) {
  let worst = 0;
  a.perHead.forEach((head, k) => {
    const other = b.perHead[k].scores.data;
    head.scores.data.forEach((value, n) => {
      worst = Math.max(worst, Math.abs(value - other[n]));
    });
  });
  return worst;
}

/** callbacks: { change(partial), setPositional(kind), setDModel(n), t } */
export function createRopePanel(callbacks) {
  const el = h('section', { className: 'panel hv-panel md rp', id: 'rope-view', dataset: { field: 'ropeView' }, 'aria-labelledby': 'rope-title' });
  const views = new Map();
  const tokenPicker = h('select', { id: 'rope-token' });
  const pairPicker = h('select', { id: 'rope-pair' });
  tokenPicker.addEventListener('change', () => callbacks.change({ ropeToken: Number(tokenPicker.value) }));
  pairPicker.addEventListener('change', () => callbacks.change({ ropePair: Number(pairPicker.value) }));
  const useRope = h('button', { type: 'button', className: 'choice', dataset: { ropeUse: '1' } });
  useRope.addEventListener('click', () => callbacks.setPositional('rope'));
  const useDemo = h('button', { type: 'button', className: 'choice' });
  useDemo.addEventListener('click', () => callbacks.setDModel(Number(useDemo.dataset.ropeDemo)));
  // The page's config again, with RoPE and with sinusoidal positions, every position shifted by
  // ROPE_SHIFT: the plan's runs (compute/plan.js); the largest change of any score.
  function shiftOf({ results }) {
    const out = { rope: null, sinusoidal: null, error: null };
    for (const kind of ['rope', 'sinusoidal']) {
      const [a, b] = [results.get(`rope.${kind}`), results.get(`rope.${kind}.shifted`)];
      if (!a || !b) {
        out.error = (results.error(`rope.${kind}`) ?? results.error(`rope.${kind}.shifted`))?.message ?? '';
        return out;
      }
      out[kind] = largestChange(a, b);
    }
    return out;
  }

  // The pair before and after its turn, as two arrows from the origin.
  function plot(before, after, t) {
    const reach = Math.max(1e-6, Math.hypot(...before), Math.hypot(...after)) * 1.15;
    const at = ([x, y]) => [PLOT / 2 + (x / reach) * (PLOT / 2), PLOT / 2 - (y / reach) * (PLOT / 2)];
    const node = svgEl('svg', { viewBox: `0 0 ${PLOT} ${PLOT}`, width: PLOT, height: PLOT, role: 'img', 'aria-label': t('modern.rope.plotLabel') });
    node.append(
      svgEl('line', { x1: 0, y1: PLOT / 2, x2: PLOT, y2: PLOT / 2, class: 'axis' }),
      svgEl('line', { x1: PLOT / 2, y1: 0, x2: PLOT / 2, y2: PLOT, class: 'axis' }),
      svgEl('circle', { cx: PLOT / 2, cy: PLOT / 2, r: (Math.hypot(...before) / reach) * (PLOT / 2), class: 'orbit' }),
    );
    for (const [vector, cls] of [
      [before, 'before'],
      [after, 'after'],
    ]) {
      const [x, y] = at(vector);
      node.append(
        svgEl('line', { x1: PLOT / 2, y1: PLOT / 2, x2: x, y2: y, class: `arrow ${cls}` }),
        svgEl('circle', { cx: x, cy: y, r: 4, class: `tip ${cls}` }),
      );
    }
    return node;
  }

  // d_k below DEMO_DK: what it leaves out, and d_model = DEMO_DK × heads (the heads kept) a click away.
  function fewPairsNote({ result, t, limits }) {
    const pairs = result.ropeAngles.cols;
    const text = t(pairs === 0 ? 'modern.rope.noPairs' : 'modern.rope.fewPairs', { dK: result.dK, pairs, demo: DEMO_DK, demoPairs: DEMO_DK / 2 });
    const dModel = DEMO_DK * result.heads;
    if (dModel > limits.maxDModel) return h('p', { className: 'note', dataset: { ropeFew: String(pairs) }, text });
    useDemo.dataset.ropeDemo = String(dModel);
    setText(useDemo, t('modern.rope.demo', { dModel, heads: result.heads, dK: DEMO_DK }));
    return h('p', { className: 'note', dataset: { ropeFew: String(pairs) } }, [text, ' ', useDemo]);
  }

  function rotationPart(ctx) {
    const { result, state, t } = ctx;
    const parts = [h('h3', { text: t('modern.rope.pairTitle') })];
    if (!result.ropeAngles) {
      setText(useRope, t('modern.rope.use'));
      parts.push(h('p', { className: 'note' }, [t('modern.rope.notOn'), ' ', useRope]));
      return parts;
    }
    const pairs = result.ropeAngles.cols;
    if (pairs === 0) return parts;
    const token = Math.min(state.ropeToken, result.T) - 1; // = m, the engine's position (from 0)
    const pair = Math.min(state.ropePair, pairs) - 1;
    const head = Math.min(state.head, result.heads) - 1;
    tokenPicker.replaceChildren(...result.tokens.map((tok, n) => h('option', { value: String(n + 1), text: `${n + 1}: ${tok}` })));
    tokenPicker.value = String(token + 1);
    pairPicker.replaceChildren(
      ...Array.from({ length: pairs }, (_, p) =>
        h('option', { value: String(p + 1), text: t('modern.rope.pairName', { a: 2 * p + 1, b: 2 * p + 2 }) }),
      ),
    );
    pairPicker.value = String(pair + 1);
    const { dK } = result;
    const col = head * dK + 2 * pair;
    const before = [result.q.data[token * result.q.cols + col], result.q.data[token * result.q.cols + col + 1]];
    const rotated = result.perHead[head].q;
    const after = [rotated.data[token * dK + 2 * pair], rotated.data[token * dK + 2 * pair + 1]];
    const angle = result.ropeAngles.data[token * pairs + pair];
    const vec = ([x, y]) => `(${x.toFixed(4)}, ${y.toFixed(4)})`.replaceAll('-', '\u2212');
    parts.push(
      h('div', { className: 'md-controls' }, [
        h('label', { for: 'rope-token', text: t('modern.rope.token') }),
        tokenPicker,
        h('label', { for: 'rope-pair', text: t('modern.rope.pair') }),
        pairPicker,
      ]),
      h('div', { className: 'rp-pair' }, [
        plot(before, after, t),
        h('ul', { className: 'rp-numbers' }, [
          h('li', {
            dataset: { ropeAngle: String(angle), ropePosition: String(token + 1), ropeM: String(token) },
            text: t('modern.rope.angle', {
              n: token + 1,
              m: token,
              p: subscript(pair + 1),
              angle: angle.toFixed(4),
              degrees: ((angle * 180) / Math.PI).toFixed(1),
            }),
          }),
          h('li', { className: 'before', dataset: { ropeBefore: before.join(',') }, text: t('modern.rope.before', { h: head + 1, v: vec(before) }) }),
          h('li', { className: 'after', dataset: { ropeAfter: after.join(',') }, text: t('modern.rope.after', { h: head + 1, v: vec(after) }) }),
        ]),
      ]),
    );
    const angles = result.ropeAngles;
    const view = gridView(
      views,
      {
        name: 'rope-angles',
        caption: t('modern.rope.angles'),
        rowLabels: result.tokens,
        colLabels: Array.from({ length: pairs }, (_, p) => `θ${subscript(p + 1)}`),
        t,
      },
      angles,
    );
    view.update(angles, { fill: finiteFill(angles) });
    view.highlight({ self: [token, pair], cells: [], rows: [], cols: [] });
    parts.push(view.el);
    return parts;
  }

  function shiftPart(ctx) {
    const { result, t } = ctx;
    const parts = [
      h('h3', { text: t('modern.rope.shiftTitle') }),
      h('p', { className: 'caption', text: t('modern.rope.shiftCaption', { shift: SHIFT, first: SHIFT + 1, second: SHIFT + 2 }) }),
    ];
    if (result.T > THRESHOLDS.ropeShiftTokens) {
      parts.push(h('p', { className: 'note md-limit', text: t('modern.rope.shiftTooLong', { T: result.T, max: THRESHOLDS.ropeShiftTokens }) }));
      return parts;
    }
    const run = shiftOf(ctx);
    if (run.error !== null) {
      parts.push(h('p', { className: 'note', text: t('modern.engineSays', { message: run.error ?? '' }) }));
      return parts;
    }
    parts.push(
      h('ul', { className: 'pe-summary' }, [
        h('li', {
          className: run.rope <= 1e-4 ? 'same' : 'changed',
          dataset: { ropeShift: String(run.rope) },
          text: t('modern.rope.shiftRope', { max: smallText(run.rope) }),
        }),
        h('li', {
          className: run.sinusoidal <= 1e-4 ? 'same' : 'changed',
          dataset: { sinShift: String(run.sinusoidal) },
          text: t('modern.rope.shiftSin', { max: smallText(run.sinusoidal) }),
        }),
      ]),
    );
    return parts;
  }

  function update(ctx) {
    const { t, result } = ctx;
    const parts = [
      h('h2', { id: 'rope-title', text: t('modern.rope.title') }),
      h('p', { className: 'caption', text: t('modern.rope.caption') }),
      h('p', {
        className: 'caption',
        dataset: { ropeOdd: result.dK % 2 ? '1' : '0' },
        text: result.dK % 2 ? t('modern.rope.odd', { dK: result.dK, last: result.dK }) : t('modern.rope.even', { dK: result.dK }),
      }),
      result.ropeAngles && result.dK < DEMO_DK ? fewPairsNote(ctx) : null,
      ...rotationPart(ctx),
      ...shiftPart(ctx),
    ];
    placeChildren(el, parts.filter(Boolean));
  }

  return { el, update };
}
