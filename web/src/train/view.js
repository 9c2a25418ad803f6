// The Train panel's elements and how they are drawn: the controls, the status, the loss and
// accuracy curve, the predictions under the learner's sequence and every layer × head's map.
// It holds no model and no worker (train/panel.js does); each draw gets what it shows.
import './train.css';
import { h, setHidden, setText, svgEl } from '../render/dom.js';
import { COLORS, colorScale, weightFill } from '../render/colors.js';
import { renderGrid } from '../heads/grid.js';
import { scrollWhenNeeded } from '../render/overflow-class.js';
import { curvePoints } from './curve.js';
import { recipeItem, TRAIN_RECIPE } from '../state/schema.js';
import { durationText } from './duration.js';
import { shownToken } from './sequence.js';

const CURVE = { width: 320, height: 120 };
const percent = (x) => `${(100 * x).toFixed(1)} %`;

// The causal mask of T tokens (1 = masked): what the maps grey out.
function causalMask(T) {
  const data = new Uint8Array(T * T);
  for (let r = 0; r < T; r += 1) for (let c = r + 1; c < T; c += 1) data[r * T + c] = 1;
  return { rows: T, cols: T, data };
}

const field = (labelKey, control, className = 'field small') => {
  const label = h('label', { for: control.id, dataset: { trainI18n: labelKey } });
  return h('div', { className }, [label, control]);
};
const check = (id, labelKey) => {
  const box = h('input', { type: 'checkbox', id });
  return [box, h('label', { className: 'check' }, [box, ' ', h('span', { dataset: { trainI18n: labelKey } })])];
};
const swatch = (color) => h('span', { className: 'swatch', style: { background: color }, 'aria-hidden': 'true' });

/** node: the panel's section (its children are made here); t(): the translator. */
export function createTrainView(node, t) {
  const taskSelect = h(
    'select',
    { id: 'train-task' },
    TRAIN_RECIPE.tasks.map((task) => h('option', { value: task, dataset: { trainI18n: `train.task.${task}` } })),
  );
  const taskNote = h('p', { className: 'hint train-task-note' });
  const whole = (id, key) =>
    h('input', { id, type: 'number', min: recipeItem(key).range[0], max: recipeItem(key).range[1], step: 1, inputMode: 'numeric' });
  const [fewestLayers, mostLayers] = recipeItem('layers').range;
  const layers = h(
    'select',
    { id: 'train-layers' },
    Array.from({ length: mostLayers - fewestLayers + 1 }, (_, i) => h('option', { value: String(fewestLayers + i), text: String(fewestLayers + i) })),
  );
  const heads = whole('train-heads', 'heads');
  const dModel = whole('train-d-model', 'dModel');
  const [mlp, mlpLabel] = check('train-mlp', 'train.mlp');
  const [layerNorm, lnLabel] = check('train-ln', 'train.layerNorm');
  const positions = h(
    'select',
    { id: 'train-positions' },
    recipeItem('positions').values.map((kind) => h('option', { value: kind, dataset: { trainI18n: `train.positions.${kind}` } })),
  );
  const learningRate = h('input', {
    id: 'train-lr',
    type: 'number',
    min: recipeItem('learningRate').range[0],
    max: recipeItem('learningRate').range[1],
    step: 'any',
    inputMode: 'decimal',
  });
  const seed = whole('train-seed', 'seed');
  const trainButton = h('button', { type: 'button', className: 'primary', id: 'train-run', dataset: { trainI18n: 'train.train' } });
  const stepButton = h('button', { type: 'button', id: 'train-step', dataset: { trainI18n: 'train.step' } });
  const resetButton = h('button', { type: 'button', id: 'train-reset', dataset: { trainI18n: 'train.reset' } });
  const status = h('p', { className: 'train-status', id: 'train-status', role: 'status' });
  const message = h('p', { className: 'message', id: 'train-message', role: 'alert', hidden: true });

  const lossLine = svgEl('polyline', { fill: 'none', stroke: COLORS.danger, 'stroke-width': 1.5, 'data-curve': 'loss' });
  const accuracyLine = svgEl('polyline', { fill: 'none', stroke: COLORS.accent, 'stroke-width': 1.5, 'data-curve': 'accuracy' });
  const curveSvg = svgEl('svg', { viewBox: `0 0 ${CURVE.width} ${CURVE.height}`, role: 'img', class: 'train-curve', preserveAspectRatio: 'none' }, [
    svgEl('rect', { x: 0, y: 0, width: CURVE.width, height: CURVE.height, fill: COLORS.panel, stroke: COLORS.line }),
    lossLine,
    accuracyLine,
  ]);
  const curveEmpty = h('p', { className: 'train-curve-empty', dataset: { trainI18n: 'train.curve.empty' } });
  const curveRange = h('p', { className: 'train-curve-empty', id: 'train-curve-range' });
  const curveKey = h('p', { className: 'train-curve-key' }, [
    swatch(COLORS.danger),
    h('span', { dataset: { trainI18n: 'train.curve.loss' } }),
    ' ',
    swatch(COLORS.accent),
    h('span', { dataset: { trainI18n: 'train.curve.accuracy' } }),
  ]);

  const sequence = h('input', { id: 'train-sequence', type: 'text', spellcheck: 'false', autocomplete: 'off' });
  const sequenceHint = h('p', { className: 'hint', id: 'train-sequence-hint' });
  sequence.setAttribute('aria-describedby', 'train-sequence-hint');
  const sequenceMessage = h('p', { className: 'message', id: 'train-sequence-message', role: 'alert', hidden: true });
  const predictionsTitle = h('p', { className: 'train-predictions-title', dataset: { trainI18n: 'train.predictions' } });
  const predictions = scrollWhenNeeded(h('div', { className: 'train-predictions', id: 'train-predictions' }), () => predictionsTitle.textContent);
  const maps = h('div', { className: 'train-maps', id: 'train-maps' });

  const offerText = h('span', { className: 'train-offer-text' });
  const offerButton = h('button', { type: 'button', className: 'primary', id: 'train-offer-start' });
  const offerBox = h('p', { className: 'train-offer', id: 'train-offer', role: 'status', hidden: true }, [offerText, ' ', offerButton]);

  const form = h('form', { className: 'train-controls', id: 'train-controls', autocomplete: 'off', novalidate: true }, [
    h('div', { className: 'row' }, [field('train.task', taskSelect, 'field'), taskNote]),
    h('fieldset', { className: 'row train-model' }, [
      h('legend', { dataset: { trainI18n: 'train.model' } }),
      field('train.layers', layers),
      field('train.heads', heads),
      field('train.dModel', dModel),
      h('div', { className: 'field small checks' }, [mlpLabel, lnLabel]),
      field('train.positions', positions),
      field('train.learningRate', learningRate),
      field('train.seed', seed),
    ]),
    h('div', { className: 'train-buttons' }, [trainButton, stepButton, resetButton]),
  ]);
  node.replaceChildren(
    h('h2', { id: 'train-title', dataset: { trainI18n: 'train.title' } }),
    h('p', { className: 'caption', dataset: { trainI18n: 'train.intro', prose: '' } }),
    form,
    message,
    status,
    h('div', { className: 'train-body' }, [
      h('figure', { className: 'train-curve-box' }, [
        h('figcaption', { dataset: { trainI18n: 'train.curve' } }),
        curveSvg,
        curveEmpty,
        curveRange,
        curveKey,
      ]),
      h('div', { className: 'train-sequence' }, [
        field('train.sequence', sequence, 'field'),
        sequenceHint,
        sequenceMessage,
        predictionsTitle,
        predictions,
      ]),
    ]),
    h('h3', { dataset: { trainI18n: 'train.maps' } }),
    // (the lesson's colours for a weight, and its key)
    h('div', { className: 'legend', 'aria-hidden': 'true' }, [
      h('span', { text: '0' }),
      h('span', { className: 'bar', style: { background: `linear-gradient(to right, ${colorScale('weights').stops(9).join(', ')})` } }),
      h('span', { text: '1' }),
    ]),
    maps,
  );
  form.addEventListener('submit', (event) => event.preventDefault());
  taskSelect.value = 'induction'; // (the model the panel opens first)

  const gridCache = new Map();
  let mapsKey = '';
  let holders = [];

  // Every layer × head, each through the one matrix component (a canvas of its weights).
  function drawMaps(run, vocab) {
    const tr = t();
    const T = run.tokens.length;
    const labels = run.tokens.map((token) => shownToken(typeof token === 'number' ? vocab[token] : token));
    const L = run.maps.length;
    const H = run.maps[0]?.length ?? 0;
    const key = `${L}|${H}|${tr('train.openLesson')}`;
    if (key !== mapsKey) {
      mapsKey = key;
      holders = [];
      maps.replaceChildren(
        ...run.maps.map((layerHeads, l) => {
          const row = layerHeads.map((_, k) => {
            const holder = h('div', { className: 'train-map-figure' });
            holders.push(holder);
            return h('div', { className: 'train-map' }, [
              h('p', { className: 'train-map-title', text: tr('train.head', { h: k + 1 }) }),
              holder,
              // (Its name begins with the text it shows, and says which head.)
              h('button', { type: 'button', className: 'link', dataset: { openLayer: String(l), openHead: String(k) } }, [
                tr('train.openLesson'),
                h('span', { className: 'sr-only', text: ` (${tr('train.openLesson.which', { l: l + 1, h: k + 1 })})` }),
              ]),
            ]);
          });
          return h('div', { className: 'train-layer' }, [
            h('h4', { text: tr('train.layer', { l: l + 1 }) }),
            h('div', { className: 'train-layer-heads' }, row),
          ]);
        }),
      );
    }
    const mask = causalMask(T);
    run.maps.forEach((layerHeads, l) =>
      layerHeads.forEach((data, k) => {
        const figure = renderGrid(
          {
            matrix: { rows: T, cols: T, data },
            name: 'train-map',
            head: l * H + k,
            rowLabels: labels,
            colLabels: labels,
            mask,
            fill: weightFill(mask, 'weights'),
            palette: 'weights', // (the lesson's colours for a weight)
            maxRows: T,
            maxCols: T,
            surface: 'pixels',
            label: tr('train.map.label', { l: l + 1, h: k + 1, T }),
            t: tr,
          },
          gridCache,
        );
        const holder = holders[l * H + k];
        if (holder.firstChild !== figure) holder.replaceChildren(figure);
      }),
    );
  }

  function drawPredictions(run, vocab) {
    const tr = t();
    const cells = (label, items) => h('tr', {}, [h('th', { scope: 'row', text: label }), ...items]);
    const marks = run.tokens.map((_, i) => {
      const target = run.targets[i];
      if (target < 0) return h('td', { className: 'none', title: tr('train.noAnswer'), text: '·' });
      const right = run.predictions[i] === target;
      return h('td', { className: right ? 'right' : 'wrong', dataset: { mark: right ? 'right' : 'wrong' } }, [
        h('span', { 'aria-hidden': 'true', text: right ? '✓' : '✗' }),
        h('span', { className: 'sr-only', text: tr(right ? 'train.right' : 'train.wrong') }),
      ]);
    });
    predictions.replaceChildren(
      h('table', {}, [
        h('tbody', {}, [
          cells(
            tr('train.row.tokens'),
            run.tokens.map((token) => h('td', { text: shownToken(typeof token === 'number' ? vocab[token] : token) })),
          ),
          cells(
            tr('train.row.predicted'),
            run.predictions.map((id) => h('td', { className: 'predicted', text: shownToken(vocab[id]) })),
          ),
          cells(
            tr('train.row.expected'),
            run.targets.map((id) => h('td', { text: id < 0 ? '' : shownToken(vocab[id]) })),
          ),
          cells(tr('train.row.mark'), marks),
        ]),
      ]),
    );
  }

  function drawCurve(history) {
    const tr = t();
    const points = curvePoints(history, CURVE);
    setHidden(curveEmpty, history.length > 1);
    setHidden(curveRange, history.length < 2);
    lossLine.setAttribute('points', points.loss);
    accuracyLine.setAttribute('points', points.accuracy);
    curveSvg.setAttribute('aria-label', tr('train.curve.label', { maxLoss: points.maxLoss.toFixed(2), steps: points.lastStep }));
    setText(curveRange, tr('train.curve.range', { maxLoss: points.maxLoss.toFixed(2), steps: points.lastStep }));
  }

  const view = {
    form,
    taskSelect,
    modelControls: [layers, heads, dModel, mlp, layerNorm, positions, learningRate, seed],
    trainButton,
    stepButton,
    resetButton,
    sequence,
    maps,
    offerButton,

    say(key, params) {
      setText(message, key ? t()(key, params) : '');
      setHidden(message, !key);
    },

    writeControls(config) {
      taskSelect.value = config.task;
      layers.value = String(config.layers);
      heads.value = String(config.heads);
      dModel.value = String(config.dModel);
      mlp.checked = config.mlp;
      layerNorm.checked = config.layerNorm;
      positions.value = config.positions;
      learningRate.value = String(config.learningRate);
      seed.value = String(config.seed);
    },

    readControls() {
      const number = (input) => Number(input.value);
      return {
        task: taskSelect.value,
        layers: number(layers),
        heads: number(heads),
        dModel: number(dModel),
        mlp: mlp.checked,
        layerNorm: layerNorm.checked,
        positions: positions.value,
        learningRate: number(learningRate),
        seed: number(seed),
      };
    },

    /** The sequence box's problem (a translation key), or null when it reads. */
    sequenceProblem(key, params) {
      setText(sequenceMessage, key ? t()(key, params) : '');
      setHidden(sequenceMessage, !key);
      if (key) sequence.setAttribute('aria-invalid', 'true');
      else sequence.removeAttribute('aria-invalid');
    },

    renderButtons(running) {
      setText(trainButton, t()(running ? 'train.pause' : 'train.train'));
      trainButton.setAttribute('aria-pressed', running ? 'true' : 'false');
    },

    // What changes with the language or the task, not with training.
    renderStatic({ vocab, history, running }) {
      const tr = t();
      for (const el of node.querySelectorAll('[data-train-i18n]')) setText(el, tr(el.dataset.trainI18n));
      setText(taskNote, tr(`train.taskNote.${taskSelect.value}`));
      if (vocab) setText(sequenceHint, tr('train.sequence.hint', { vocab: vocab.map(shownToken).join(' ') }));
      if (history.length < 2) curveSvg.setAttribute('aria-label', tr('train.curve.empty'));
      view.renderButtons(running);
    },

    /** A status line only (no model on screen yet). */
    drawWaiting(key) {
      setText(status, t()(key));
    },

    /** The worker's last state: its status line (a checkpoint's, a link's retraining first), the
     *  curve, and the run on the learner's sequence. */
    draw({ last, history, retraining, checkpoint, vocab }) {
      const tr = t();
      const figures = { step: last.step, loss: last.loss.toFixed(3), accuracy: percent(last.accuracy) };
      status.dataset.running = String(Boolean(last.running)); // (the worker's own word: it trains on, or not)
      let text = tr('train.status', figures);
      if (retraining !== null) text = `${tr('train.status.retraining', { step: retraining })} ${text}`;
      if (checkpoint)
        text = `${tr('train.status.checkpoint', { steps: checkpoint.step, accuracy: percent(checkpoint.evaluation.accuracy), step: last.step })} ${text}`;
      setText(status, text);
      drawCurve(history);
      if (last.run) {
        drawPredictions(last.run, vocab);
        drawMaps(last.run, vocab);
      }
    },

    /** Whether a reader can see the panel (it is shown, and not in a folded section). */
    seen: () => node.checkVisibility() && !node.closest('details:not([open])'),

    /** A link's training waiting for a click: in the panel when it can be seen, else in
     *  noticeNode. offer: null, or { task, steps, seconds, started }; last: the worker's state. */
    drawOffer(offer, { last, running, noticeNode }) {
      const tr = t();
      if (!offer) {
        setHidden(offerBox, true);
        if (noticeNode) setHidden(noticeNode, true);
        return;
      }
      if (!view.seen() && noticeNode) {
        if (offerBox.parentNode !== noticeNode) noticeNode.replaceChildren(offerBox);
      } else if (offerBox.previousSibling !== status) status.after(offerBox);
      if (noticeNode) setHidden(noticeNode, offerBox.parentNode !== noticeNode);
      const { steps } = offer;
      const done = Boolean(offer.started && last && last.step >= steps);
      if (!offer.started) {
        setText(offerText, tr('train.link.offer', { task: tr(`train.task.${offer.task}`), steps, time: durationText(offer.seconds, tr) }));
        setText(offerButton, tr('train.link.start'));
      } else if (done) {
        setText(offerText, tr('train.link.done', { step: last.step }));
      } else {
        setText(offerText, tr('train.link.progress', { step: last?.step ?? 0, steps }));
        setText(offerButton, tr(running ? 'train.pause' : 'train.train'));
      }
      setHidden(offerButton, done);
      setHidden(offerBox, false);
    },
  };
  return view;
}
