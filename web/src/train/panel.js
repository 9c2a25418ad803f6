// The Train panel: a task and a model size, Train / Pause / Step / Reset, the loss and accuracy
// curve, every layer × head's attention map on the learner's sequence (live while the worker
// trains), the model's prediction under each token, and "open in the lesson" for any head. The
// trainer lives in a worker (engine/worker-trainer.js); this file only draws what it reports.
import './train.css';
import { WorkerTrainer } from '../engine/worker-trainer.js';
import { h, setHidden, setText } from '../render/dom.js';
import { COLORS, weightFill } from '../render/colors.js';
import { watchNear } from '../render/window-sight.js';
import { renderGrid } from '../heads/grid.js';
import { encodeHash } from '../state/url.js';
import { curvePoints, thinned } from './curve.js';
import { lessonStateOfHead } from './lesson-state.js';
import { formatTrainText, parseTrainText, POSITION_KINDS, RANGES, TASKS } from '../state/train-link.js';
import { durationText } from './duration.js';
import { exampleOf, readSequence, sequenceText, shownToken } from './sequence.js';

// The shipped checkpoints (web/src/presets/checkpoints/; state/train-link.js lists their tasks),
// loaded when asked for.
const CHECKPOINTS = {
  previous: () => import('../presets/checkpoints/previous.json'),
  induction: () => import('../presets/checkpoints/induction.json'),
  sort: () => import('../presets/checkpoints/sort.json'),
};

// A link's training that would take longer than this (the core's estimate) waits for a click, and
// so does any a reader cannot see (the panel hidden by the link, or folded in an embed).
const LINK_TRAINING_SECONDS = 3;

const CURVE = { width: 320, height: 120 };
const percent = (x) => `${(100 * x).toFixed(1)} %`;

// The causal mask of T tokens (1 = masked): what the maps grey out.
function causalMask(T) {
  const data = new Uint8Array(T * T);
  for (let r = 0; r < T; r += 1) for (let c = r + 1; c < T; c += 1) data[r * T + c] = 1;
  return { rows: T, cols: T, data };
}

/**
 * node: the panel's section; noticeNode: where a link's training waits for a click when the panel
 * cannot be seen; t(): the translator; build(): the engine's build ('simd' | 'scalar', or null
 * before it loaded); estimate(config): the core's { stepSeconds } of a model (the page's engine);
 * changed(text): the model as the link's `train` field (when it opens, pauses or steps).
 */
export function createTrainPanel({ node, noticeNode, t, build, estimate, changed }) {
  const field = (labelKey, control, className = 'field small') => {
    const label = h('label', { for: control.id, dataset: { trainI18n: labelKey } });
    return h('div', { className }, [label, control]);
  };
  const check = (id, labelKey) => {
    const box = h('input', { type: 'checkbox', id });
    return [box, h('label', { className: 'check' }, [box, ' ', h('span', { dataset: { trainI18n: labelKey } })])];
  };
  const taskSelect = h('select', { id: 'train-task' }, TASKS.map((task) => h('option', { value: task, dataset: { trainI18n: `train.task.${task}` } })));
  const taskNote = h('p', { className: 'hint train-task-note' });
  const layers = h('select', { id: 'train-layers' }, [1, 2, 3, 4].map((n) => h('option', { value: String(n), text: String(n) })));
  const heads = h('input', { id: 'train-heads', type: 'number', min: 1, max: RANGES.heads[1], step: 1, inputMode: 'numeric' });
  const dModel = h('input', { id: 'train-d-model', type: 'number', min: RANGES.dModel[0], max: RANGES.dModel[1], step: 1, inputMode: 'numeric' });
  const [mlp, mlpLabel] = check('train-mlp', 'train.mlp');
  const [layerNorm, lnLabel] = check('train-ln', 'train.layerNorm');
  const positions = h('select', { id: 'train-positions' }, POSITION_KINDS.map((kind) => h('option', { value: kind, dataset: { trainI18n: `train.positions.${kind}` } })));
  const learningRate = h('input', { id: 'train-lr', type: 'number', min: 0.00001, max: 1, step: 'any', inputMode: 'decimal' });
  const seed = h('input', { id: 'train-seed', type: 'number', min: 0, step: 1, inputMode: 'numeric' });
  const trainButton = h('button', { type: 'button', className: 'primary', id: 'train-run', dataset: { trainI18n: 'train.train' } });
  const stepButton = h('button', { type: 'button', id: 'train-step', dataset: { trainI18n: 'train.step' } });
  const resetButton = h('button', { type: 'button', id: 'train-reset', dataset: { trainI18n: 'train.reset' } });
  const status = h('p', { className: 'train-status', id: 'train-status', role: 'status' });
  const message = h('p', { className: 'message', id: 'train-message', role: 'alert', hidden: true });

  const SVG = 'http://www.w3.org/2000/svg';
  const svgNode = (tag, attrs) => {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    return el;
  };
  const lossLine = svgNode('polyline', { fill: 'none', stroke: COLORS.danger, 'stroke-width': 1.5, 'data-curve': 'loss' });
  const accuracyLine = svgNode('polyline', { fill: 'none', stroke: COLORS.accent, 'stroke-width': 1.5, 'data-curve': 'accuracy' });
  const curveSvg = svgNode('svg', { viewBox: `0 0 ${CURVE.width} ${CURVE.height}`, role: 'img', class: 'train-curve', preserveAspectRatio: 'none' });
  curveSvg.append(svgNode('rect', { x: 0, y: 0, width: CURVE.width, height: CURVE.height, fill: COLORS.panel, stroke: COLORS.line }), lossLine, accuracyLine);
  const swatch = (color) => h('span', { className: 'swatch', style: { background: color }, 'aria-hidden': 'true' });
  const curveEmpty = h('p', { className: 'train-curve-empty', dataset: { trainI18n: 'train.curve.empty' } });
  const curveRange = h('p', { className: 'train-curve-empty', id: 'train-curve-range' });
  const curveKey = h('p', { className: 'train-curve-key' }, [
    swatch(COLORS.danger), h('span', { dataset: { trainI18n: 'train.curve.loss' } }), ' ',
    swatch(COLORS.accent), h('span', { dataset: { trainI18n: 'train.curve.accuracy' } }),
  ]);

  const sequence = h('input', { id: 'train-sequence', type: 'text', spellcheck: 'false', autocomplete: 'off' });
  const sequenceHint = h('p', { className: 'hint', id: 'train-sequence-hint' });
  sequence.setAttribute('aria-describedby', 'train-sequence-hint');
  const sequenceMessage = h('p', { className: 'message', id: 'train-sequence-message', role: 'alert', hidden: true });
  const predictions = h('div', { className: 'train-predictions', id: 'train-predictions' });
  const maps = h('div', { className: 'train-maps', id: 'train-maps' });

  const title = h('h2', { id: 'train-title', dataset: { trainI18n: 'train.title' } });
  node.replaceChildren(
    title,
    h('p', { className: 'caption', dataset: { trainI18n: 'train.intro', prose: '' } }),
    h('form', { className: 'train-controls', id: 'train-controls', autocomplete: 'off', novalidate: true }, [
      h('div', { className: 'row' }, [field('train.task', taskSelect, 'field'), taskNote]),
      h('fieldset', { className: 'row train-model' }, [
        h('legend', { dataset: { trainI18n: 'train.model' } }),
        field('train.layers', layers), field('train.heads', heads), field('train.dModel', dModel),
        h('div', { className: 'field small checks' }, [mlpLabel, lnLabel]),
        field('train.positions', positions), field('train.learningRate', learningRate), field('train.seed', seed),
      ]),
      h('div', { className: 'train-buttons' }, [trainButton, stepButton, resetButton]),
    ]),
    message,
    status,
    h('div', { className: 'train-body' }, [
      h('figure', { className: 'train-curve-box' }, [h('figcaption', { dataset: { trainI18n: 'train.curve' } }), curveSvg, curveEmpty, curveRange, curveKey]),
      h('div', { className: 'train-sequence' }, [
        field('train.sequence', sequence, 'field'),
        sequenceHint,
        sequenceMessage,
        h('p', { className: 'train-predictions-title', dataset: { trainI18n: 'train.predictions' } }),
        predictions,
      ]),
    ]),
    h('h3', { dataset: { trainI18n: 'train.maps' } }),
    maps,
  );
  node.querySelector('form').addEventListener('submit', (event) => event.preventDefault());
  taskSelect.value = 'induction'; // (the model the panel opens first)

  // ---- what the panel holds ---------------------------------------------------------------------
  let worker = null;
  let model = null;         // { task, checkpoint (the file's object or null), config (the full one), steps (of the base) }
  let wanted = null;        // a model asked for before the engine's build was known: the link's parse
  let running = false;
  let history = [];         // [{ step, loss, accuracy }]
  let last = null;          // the worker's last state
  let linkText = '';
  let example = [];
  let retraining = null;    // the step a link's model is being trained to
  let reveal = false;       // a link opened a model: the panel comes into view once the page has drawn
  let linkParsed = null;    // a link's model, decided on once the engine is known (linkTraining)
  let linkModel = null;     // a link's untrained model, opened when the panel comes near the window
  let offer = null;         // a link's training waiting for a click: { model (open()'s argument), seconds, opened, started }
  let opening = false;
  let kept = null;          // the model on screen while a new one opens: back if the core refuses it      // until the worker says the new model is open, its news is the old one's
  const gridCache = new Map();

  function say(key, params) {
    setText(message, key ? t()(key, params) : '');
    setHidden(message, !key);
  }

  function ensureWorker() {
    worker ??= new WorkerTrainer({
      onOpened: ({ config }) => {
        opening = false;
        model.config = config;
        writeControls(config);
        say(null);
      },
      onState: (state) => {
        if (opening) return;
        last = state;
        if (running !== state.running) {
          running = state.running;
          renderButtons();
        }
        if (history.at(-1)?.step !== state.step) history = thinned([...history, { step: state.step, loss: state.loss, accuracy: state.accuracy }]);
        if (!running) retraining = null;
        scheduleDraw();
        if (offer?.started) renderOffer();
        if (!running) report();
      },
      onError: (text) => {
        if (opening && kept) {
          ({ model, history, last, example } = kept);
          opening = false;
          writeControls(model.config);
          scheduleDraw();
        }
        running = Boolean(last?.running);
        say('train.error.engine', { message: text });
        renderButtons();
      },
    });
    return worker;
  }

  // ---- the controls -----------------------------------------------------------------------------
  function writeControls(config) {
    taskSelect.value = config.task;
    layers.value = String(config.layers);
    heads.value = String(config.heads);
    dModel.value = String(config.dModel);
    mlp.checked = config.mlp;
    layerNorm.checked = config.layerNorm;
    positions.value = config.positions;
    learningRate.value = String(config.learningRate);
    seed.value = String(config.seed);
    renderStatic();
  }

  // ---- a link's model ------------------------------------------------------------------------------
  // Opened and trained at once when it is quick and in sight; otherwise it says what it would do and
  // how long it would take, and trains on a click.
  async function linkTraining(parsed) {
    const wanted = parsed.checkpoint
      ? { task: parsed.task, checkpoint: true, steps: parsed.steps }
      : { task: parsed.task, config: { task: parsed.task, ...parsed.config }, steps: parsed.steps };
    let seconds = 0;
    try {
      const config = parsed.checkpoint ? (await CHECKPOINTS[parsed.task]()).default.config : wanted.config;
      seconds = parsed.steps * estimate(config).stepSeconds;
    } catch (error) {
      say('train.error.engine', { message: error.message });
      return;
    }
    const unseen = !node.checkVisibility() || Boolean(node.closest('details:not([open])'));
    if (parsed.steps > 0 && (unseen || seconds > LINK_TRAINING_SECONDS)) {
      // In sight, the model opens untrained (its maps are there to see); out of sight, nothing runs.
      if (!unseen) open({ ...wanted, steps: 0 });
      offer = { model: wanted, seconds, opened: !unseen, started: false };
      renderOffer();
      return;
    }
    if (unseen) {
      wanted.steps = 0;
      linkModel = wanted; // (opened when the panel comes near the window)
      return;
    }
    open(wanted);
    reveal = true;
  }

  // The first click opens (or trains) the link's model; later ones pause and train on to its step.
  function startOffer() {
    const { model: wanted, opened } = offer;
    offer = { ...offer, opened: true, started: true };
    if (running) {
      worker.pause();
      running = false;
      renderButtons();
    } else if (opened && worker) {
      worker.train(wanted.steps);
      retraining = wanted.steps;
      running = true;
      renderButtons();
    } else {
      open(wanted);
    }
    renderOffer();
  }

  const offerText = h('span', { className: 'train-offer-text' });
  const offerButton = h('button', { type: 'button', className: 'primary', id: 'train-offer-start' });
  const offerBox = h('p', { className: 'train-offer', id: 'train-offer', role: 'status', hidden: true }, [offerText, ' ', offerButton]);
  offerButton.addEventListener('click', () => offer && startOffer());

  // The offer in the panel when it can be seen, else in the page's notice.
  function renderOffer() {
    const tr = t();
    if (!offer) {
      setHidden(offerBox, true);
      if (noticeNode) setHidden(noticeNode, true);
      return;
    }
    const unseen = !node.checkVisibility() || Boolean(node.closest('details:not([open])'));
    if (unseen && noticeNode) {
      if (offerBox.parentNode !== noticeNode) noticeNode.replaceChildren(offerBox);
    } else if (offerBox.previousSibling !== status) status.after(offerBox);
    if (noticeNode) setHidden(noticeNode, offerBox.parentNode !== noticeNode);
    const steps = offer.model.steps;
    if (!offer.started) {
      setText(offerText, tr('train.link.offer', { task: tr(`train.task.${offer.model.task}`), steps, time: durationText(offer.seconds, tr) }));
      setText(offerButton, tr('train.link.start'));
    } else if (last && last.step >= steps) {
      setText(offerText, tr('train.link.done', { step: last.step }));
    } else {
      setText(offerText, tr('train.link.progress', { step: last?.step ?? 0, steps }));
      setText(offerButton, tr(running ? 'train.pause' : 'train.train'));
    }
    setHidden(offerButton, Boolean(offer.started && last && last.step >= steps));
    setHidden(offerBox, false);
  }

  function readControls() {
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
  }

  // A new model: { task, config } from seed, or { task, checkpoint: true }; then `steps` steps.
  async function open({ task, config = null, checkpoint = false, steps = 0 }) {
    const chosen = build();
    if (!chosen) {
      wanted = { task, config, checkpoint, steps };
      return;
    }
    wanted = null;
    let file = null;
    if (checkpoint) file = (await CHECKPOINTS[task]()).default;
    const vocab = (file?.config ?? config)?.vocab;
    kept = model?.config?.vocab ? { model, history, last, example } : null;
    model = { task, checkpoint: file, config: file?.config ?? config, steps: 0 };
    opening = true;
    history = [];
    last = null;
    running = steps > 0;
    retraining = steps > 0 ? steps : null;
    if (vocab) setExample(exampleOf(task, vocab, (file?.config ?? config).contextLength));
    else example = null; // (the task's defaults: the example once the worker says the vocabulary)
    ensureWorker().open({ build: chosen, config: file ? null : config, checkpoint: file, steps, example: example ?? [] });
    renderButtons();
    renderStatic();
  }

  function setExample(tokens) {
    example = tokens;
    sequence.value = sequenceText(tokens, model.config.vocab);
    setHidden(sequenceMessage, true);
    sequence.removeAttribute('aria-invalid');
  }

  function openFromControls({ task = false } = {}) {
    offer = null;
    renderOffer();
    const config = readControls();
    if (task) {
      sequence.value = ''; // (another task: its own example)
      open({ task: config.task, config: { task: config.task } });
      return;
    }
    if (!(config.learningRate > 0) || ![config.layers, config.heads, config.dModel, config.seed].every(Number.isInteger)) {
      say('train.error.engine', { message: 'learning rate, heads, d_model and seed must be numbers' });
      return;
    }
    open({ task: config.task, config });
  }

  // The model as the link says it, once the learner chose one (the model the panel opens by
  // itself is no part of the page's state until it is trained or changed).
  let learnerChose = false;
  function report() {
    if (!model?.config || !learnerChose) return;
    const text = formatTrainText({ task: model.task, checkpoint: Boolean(model.checkpoint), config: model.config, steps: last?.step ?? 0 });
    if (text === linkText) return;
    linkText = text;
    changed(text);
  }

  node.querySelector('form').addEventListener('change', () => (learnerChose = true), { capture: true });
  node.querySelector('form').addEventListener('click', (event) => event.target.closest('button') && (learnerChose = true), { capture: true });
  taskSelect.addEventListener('change', () => openFromControls({ task: true }));
  for (const control of [layers, heads, dModel, mlp, layerNorm, positions, learningRate, seed]) {
    control.addEventListener('change', () => openFromControls());
  }
  trainButton.addEventListener('click', () => {
    if (!model) openFromControls({ task: true });
    if (!worker) return; // (the engine is still loading: the model opens once it has)
    offer = null;
    renderOffer();
    if (running) worker.pause();
    else worker.train();
    running = !running;
    renderButtons();
  });
  stepButton.addEventListener('click', () => {
    if (!model) openFromControls({ task: true });
    if (!worker) return;
    offer = null;
    renderOffer();
    worker.step();
    running = false;
    renderButtons();
  });
  resetButton.addEventListener('click', () => openFromControls());
  sequence.addEventListener('input', () => {
    if (!model?.config) return;
    const read = readSequence(sequence.value, model.config.vocab, model.config.contextLength);
    if (!read.ok) {
      setText(sequenceMessage, t()(read.key, read.params));
      setHidden(sequenceMessage, false);
      sequence.setAttribute('aria-invalid', 'true');
      return;
    }
    setHidden(sequenceMessage, true);
    sequence.removeAttribute('aria-invalid');
    example = read.tokens;
    worker.setExample(example);
  });

  maps.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-open-layer]');
    if (!button || !worker) return;
    const layer = Number(button.dataset.openLayer);
    const head = Number(button.dataset.openHead);
    if (!last?.run) return;
    try {
      const { tokens, input, weights } = await worker.lesson(layer);
      const state = lessonStateOfHead({ tokens, input, weights, heads: model.config.heads, head, train: linkText });
      // The page opens it as it opens any link (main.js: hashchange), custom X and weights included.
      location.hash = encodeHash({ presetId: 'default', state });
    } catch (error) {
      say('train.error.engine', { message: error.message });
    }
  });

  // ---- drawing ----------------------------------------------------------------------------------
  let frame = 0;
  function scheduleDraw() {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      draw();
    });
  }

  function renderButtons() {
    const tr = t();
    setText(trainButton, tr(running ? 'train.pause' : 'train.train'));
    trainButton.setAttribute('aria-pressed', running ? 'true' : 'false');
  }

  // What changes with the language or the task, not with training.
  function renderStatic() {
    const tr = t();
    for (const el of node.querySelectorAll('[data-train-i18n]')) setText(el, tr(el.dataset.trainI18n));
    setText(taskNote, tr(`train.taskNote.${taskSelect.value}`));
    if (model?.config?.vocab) setText(sequenceHint, tr('train.sequence.hint', { vocab: model.config.vocab.map(shownToken).join(' ') }));
    if (history.length < 2) curveSvg.setAttribute('aria-label', tr('train.curve.empty'));
    renderButtons();
  }

  function draw() {
    const tr = t();
    if (!last || !model?.config?.vocab) {
      setText(status, tr(model ? 'train.status.loading' : 'train.status.none'));
      return;
    }
    if (example === null) {
      // The learner's sequence if the new model reads it (the same task), else the task's example.
      const { vocab, contextLength } = model.config;
      const typed = readSequence(sequence.value, vocab, contextLength);
      setExample(typed.ok ? typed.tokens : exampleOf(model.task, vocab, contextLength));
      worker.setExample(example);
    }
    const figures = { step: last.step, loss: last.loss.toFixed(3), accuracy: percent(last.accuracy) };
    let text = tr('train.status', figures);
    if (retraining !== null) text = `${tr('train.status.retraining', { step: retraining })} ${text}`;
    if (model?.checkpoint) text = `${tr('train.status.checkpoint', { steps: model.checkpoint.step, accuracy: percent(model.checkpoint.evaluation.accuracy), step: last.step })} ${text}`;
    setText(status, text);
    drawCurve(tr);
    if (last.run) {
      drawPredictions(last.run, tr);
      drawMaps(last.run, tr);
    }
  }

  function drawCurve(tr) {
    const points = curvePoints(history, CURVE);
    setHidden(curveEmpty, history.length > 1);
    setHidden(curveRange, history.length < 2);
    lossLine.setAttribute('points', points.loss);
    accuracyLine.setAttribute('points', points.accuracy);
    curveSvg.setAttribute('aria-label', tr('train.curve.label', { maxLoss: points.maxLoss.toFixed(2), steps: points.lastStep }));
    setText(curveRange, tr('train.curve.range', { maxLoss: points.maxLoss.toFixed(2), steps: points.lastStep }));
  }

  function drawPredictions(run, tr) {
    const vocab = model.config.vocab;
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
    predictions.replaceChildren(h('table', {}, [
      h('tbody', {}, [
        cells(tr('train.row.tokens'), run.tokens.map((token) => h('td', { text: shownToken(typeof token === 'number' ? vocab[token] : token) }))),
        cells(tr('train.row.predicted'), run.predictions.map((id) => h('td', { className: 'predicted', text: shownToken(vocab[id]) }))),
        cells(tr('train.row.expected'), run.targets.map((id) => h('td', { text: id < 0 ? '' : shownToken(vocab[id]) }))),
        cells(tr('train.row.mark'), marks),
      ]),
    ]));
  }

  // Every layer × head, each through the one matrix component (a canvas of its weights).
  let mapsKey = '';
  let holders = [];
  function drawMaps(run, tr) {
    const T = run.tokens.length;
    const labels = run.tokens.map((token) => shownToken(typeof token === 'number' ? model.config.vocab[token] : token));
    const L = run.maps.length;
    const H = run.maps[0]?.length ?? 0;
    const key = `${L}|${H}|${tr('train.openLesson')}`;
    if (key !== mapsKey) {
      mapsKey = key;
      holders = [];
      maps.replaceChildren(...run.maps.map((heads, l) => {
        const row = heads.map((_, k) => {
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
        return h('div', { className: 'train-layer' }, [h('h4', { text: tr('train.layer', { l: l + 1 }) }), h('div', { className: 'train-layer-heads' }, row)]);
      }));
    }
    const mask = causalMask(T);
    run.maps.forEach((heads, l) => heads.forEach((data, k) => {
      const figure = renderGrid({
        matrix: { rows: T, cols: T, data },
        name: 'train-map',
        head: l * H + k,
        rowLabels: labels,
        colLabels: labels,
        mask,
        fill: weightFill(mask),
        maxRows: T,
        maxCols: T,
        surface: 'pixels',
        label: tr('train.map.label', { l: l + 1, h: k + 1, T }),
        t: tr,
      }, gridCache);
      const holder = holders[l * H + k];
      if (holder.firstChild !== figure) holder.replaceChildren(figure);
    }));
  }

  // The worker starts when the panel comes near the window (or a link asks for a model).
  watchNear(node, (near) => {
    if (!near || model || wanted || linkParsed) return; // (a link's model is decided on first)
    if (linkModel) {
      open(linkModel);
      linkModel = null;
    } else if (!offer) open({ task: 'induction', config: { task: 'induction' } });
  });
  renderStatic();
  draw();

  return {
    /** The panel's field of the page's draft (its link field). */
    draft: () => ({ train: linkText }),
    /** A loaded draft (a link, a preset, the gallery): opens its model unless it is the one shown. */
    load(draft) {
      const text = draft.train ?? '';
      if (text === '' || text === linkText) return;
      const parsed = parseTrainText(text); // (a bad one is reported with the link's other problems)
      if (!parsed) return;
      linkText = text;
      learnerChose = true;
      offer = null;
      linkModel = null;
      linkParsed = parsed;
    },
    /** Texts in the page's language, and a model a link asked for once the engine is known. */
    render() {
      if (linkParsed && build()) {
        const parsed = linkParsed;
        linkParsed = null;
        linkTraining(parsed);
      }
      if (wanted && build()) open(wanted);
      if (reveal && build()) {
        reveal = false;
        node.scrollIntoView({ block: 'start' });
      }
      renderStatic();
      renderOffer();
      if (last) draw();
    },
  };
}
