// The Train panel: a task and a model size, Train / Pause / Step / Reset, the loss and accuracy
// curve, every layer × head's attention map on the learner's sequence (live while the worker
// trains), the model's prediction under each token, and "open in the lesson" for any head. The
// trainer lives in a worker (engine/worker-trainer.js); train/view.js draws what it reports; this
// file holds the model on screen, a link's model, and the learner's commands.
import { WorkerTrainer } from '../engine/worker-trainer.js';
import { drawing } from '../render/scheduler.js';
import { THRESHOLDS } from '../render/thresholds.js';
import { watchNear } from '../render/window-sight.js';
import { encodeHash } from '../state/url.js';
import { thinned } from './curve.js';
import { lessonStateOfHead } from './lesson-state.js';
import { formatTrainText, parseTrainText } from '../state/schema.js';
import { exampleOf, readSequence, sequenceText } from './sequence.js';
import { createTrainView } from './view.js';

// The shipped checkpoints (web/src/presets/checkpoints/; TRAIN_RECIPE in state/schema.js lists their tasks),
// loaded when asked for.
const CHECKPOINTS = {
  previous: () => import('../presets/checkpoints/previous.json'),
  induction: () => import('../presets/checkpoints/induction.json'),
  sort: () => import('../presets/checkpoints/sort.json'),
};

/**
 * node: the panel's section; noticeNode: where a link's training waits for a click when the panel
 * cannot be seen; t(): the translator; build(): the engine's build ('simd' | 'scalar', or null
 * before it loaded); estimate(config): the core's { stepSeconds } of a model (the page's engine);
 * changed(text): the model as the link's `train` field (when it opens, pauses or steps).
 */
export function createTrainPanel({ node, noticeNode, t, build, estimate, changed }) {
  const view = createTrainView(node, t);

  // ---- what the panel holds ---------------------------------------------------------------------
  let worker = null;
  let model = null; // { task, checkpoint (the file's object or null), config (the full one) }
  let wanted = null; // a model asked for before the engine's build was known
  let running = false;
  let history = []; // [{ step, loss, accuracy }]
  let last = null; // the worker's last state
  let linkText = '';
  let example = [];
  let retraining = null; // the step a link's model is being trained to
  let reveal = false; // a link opened a model: the panel comes into view once the page has drawn
  let linkParsed = null; // a link's model, decided on once the engine is known (linkTraining)
  let linkModel = null; // a link's untrained model, opened when the panel comes near the window
  let offer = null; // a link's training waiting for a click: { model (open()'s argument), seconds, opened, started }
  let opening = false; // until the worker says the new model is open, its news is the old one's
  let kept = null; // the model on screen while a new one opens: back if the core refuses it
  let learnerChose = false; // the model the panel opens by itself is no part of the link until changed

  const renderStatic = () => view.renderStatic({ vocab: model?.config?.vocab, history, running });
  const setRunning = (now) => {
    running = now;
    view.renderButtons(running);
  };
  const drawOffer = () =>
    view.drawOffer(offer && { task: offer.model.task, steps: offer.model.steps, seconds: offer.seconds, started: offer.started }, {
      last,
      running,
      noticeNode,
    });

  // A command's answer is the worker's next state: the page counts as drawn only once it came
  // (render/scheduler.js, track), so a reader's next look — and a test's — finds it.
  const awaitingState = [];
  const tell = (command) => {
    drawing.track(new Promise((resolve) => awaitingState.push(resolve)));
    command();
  };
  const answered = () => {
    for (const resolve of awaitingState.splice(0)) resolve();
  };

  function ensureWorker() {
    worker ??= new WorkerTrainer({
      onOpened: ({ config }) => {
        opening = false;
        model.config = config;
        view.writeControls(config);
        renderStatic();
        view.say(null);
      },
      onState: (state) => {
        answered();
        if (opening) return;
        last = state;
        if (running !== state.running) setRunning(state.running);
        if (history.at(-1)?.step !== state.step) history = thinned([...history, { step: state.step, loss: state.loss, accuracy: state.accuracy }]);
        if (!running) retraining = null;
        scheduleDraw();
        if (offer?.started) drawOffer();
        if (!running) report();
      },
      onError: (text) => {
        answered();
        if (opening && kept) {
          ({ model, history, last, example } = kept);
          opening = false;
          view.writeControls(model.config);
          renderStatic();
          scheduleDraw();
        }
        setRunning(Boolean(last?.running));
        view.say('train.error.engine', { message: text });
      },
    });
    return worker;
  }

  // ---- a link's model ------------------------------------------------------------------------------
  // Opened and trained at once when it is quick and in sight; otherwise it says what it would do and
  // how long it would take (the core's estimate), and trains on a click.
  async function linkTraining(parsed) {
    const asked = parsed.checkpoint
      ? { task: parsed.task, checkpoint: true, steps: parsed.steps }
      : { task: parsed.task, config: { task: parsed.task, ...parsed.config }, steps: parsed.steps };
    let seconds = 0;
    try {
      const config = parsed.checkpoint ? (await CHECKPOINTS[parsed.task]()).default.config : asked.config;
      seconds = parsed.steps * estimate(config).stepSeconds;
    } catch (error) {
      view.say('train.error.engine', { message: error.message });
      return;
    }
    const unseen = !view.seen();
    if (parsed.steps > 0 && (unseen || seconds > THRESHOLDS.linkTrainingSeconds)) {
      // In sight, the model opens untrained (its maps are there to see); out of sight, nothing runs.
      if (!unseen) open({ ...asked, steps: 0 });
      offer = { model: asked, seconds, opened: !unseen, started: false };
      drawOffer();
      return;
    }
    if (unseen) {
      linkModel = { ...asked, steps: 0 }; // (opened when the panel comes near the window)
      return;
    }
    open(asked);
    reveal = true;
  }

  // The first click opens (or trains) the link's model; later ones pause and train on to its step.
  function startOffer() {
    const { model: asked, opened } = offer;
    offer = { ...offer, opened: true, started: true };
    if (running) {
      tell(() => worker.pause());
      setRunning(false);
    } else if (opened && worker) {
      tell(() => worker.train(asked.steps));
      retraining = asked.steps;
      setRunning(true);
    } else {
      open(asked);
    }
    drawOffer();
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
    model = { task, checkpoint: file, config: file?.config ?? config };
    opening = true;
    history = [];
    last = null;
    retraining = steps > 0 ? steps : null;
    if (vocab) setExample(exampleOf(task, vocab, (file?.config ?? config).contextLength));
    else example = null; // (the task's defaults: the example once the worker says the vocabulary)
    tell(() => ensureWorker().open({ build: chosen, config: file ? null : config, checkpoint: file, steps, example: example ?? [] }));
    setRunning(steps > 0);
    renderStatic();
  }

  function setExample(tokens) {
    example = tokens;
    view.sequence.value = sequenceText(tokens, model.config.vocab);
    view.sequenceProblem(null);
  }

  function openFromControls({ task = false } = {}) {
    offer = null;
    drawOffer();
    const config = view.readControls();
    if (task) {
      view.sequence.value = ''; // (another task: its own example)
      open({ task: config.task, config: { task: config.task } });
      return;
    }
    if (!(config.learningRate > 0) || ![config.layers, config.heads, config.dModel, config.seed].every(Number.isInteger)) {
      view.say('train.error.engine', { message: 'learning rate, heads, d_model and seed must be numbers' });
      return;
    }
    // What the controls do not show (a link's context length, batch size and vocabulary) stays.
    const { contextLength, batchSize, vocab } = model?.task === config.task ? (model.config ?? {}) : {};
    open({ task: config.task, config: { contextLength, batchSize, vocab, ...config } });
  }

  // The model as the link says it, once the learner chose one.
  function report() {
    if (!model?.config || !learnerChose) return;
    const text = formatTrainText({ task: model.task, checkpoint: Boolean(model.checkpoint), config: model.config, steps: last?.step ?? 0 });
    if (text === linkText) return;
    linkText = text;
    changed(text);
  }

  // ---- the learner's commands -------------------------------------------------------------------
  view.form.addEventListener('change', () => (learnerChose = true), { capture: true });
  view.form.addEventListener('click', (event) => event.target.closest('button') && (learnerChose = true), { capture: true });
  view.taskSelect.addEventListener('change', () => openFromControls({ task: true }));
  for (const control of view.modelControls) control.addEventListener('change', () => openFromControls());
  view.offerButton.addEventListener('click', () => offer && startOffer());
  view.trainButton.addEventListener('click', () => {
    if (!model) openFromControls({ task: true });
    if (!worker) return; // (the engine is still loading: the model opens once it has)
    offer = null;
    drawOffer();
    tell(() => (running ? worker.pause() : worker.train()));
    setRunning(!running);
  });
  view.stepButton.addEventListener('click', () => {
    if (!model) openFromControls({ task: true });
    if (!worker) return;
    offer = null;
    drawOffer();
    tell(() => worker.step());
    setRunning(false);
  });
  view.resetButton.addEventListener('click', () => openFromControls());
  view.sequence.addEventListener('input', () => {
    if (!model?.config) return;
    const read = readSequence(view.sequence.value, model.config.vocab, model.config.contextLength);
    if (!read.ok) {
      view.sequenceProblem(read.key, read.params);
      return;
    }
    view.sequenceProblem(null);
    example = read.tokens;
    tell(() => worker.setExample(example));
  });

  view.maps.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-open-layer]');
    if (!button || !worker || !last?.run) return;
    const layer = Number(button.dataset.openLayer);
    const head = Number(button.dataset.openHead);
    try {
      const { tokens, input, weights, maps } = await worker.lesson(layer);
      const state = lessonStateOfHead({ tokens, input, weights, heads: model.config.heads, layer, head, map: maps?.[head], train: linkText });
      // The page opens it as it opens any link (main.js: hashchange), custom X and weights included.
      location.hash = encodeHash({ presetId: 'default', state });
    } catch (error) {
      view.say('train.error.engine', { message: error.message });
    }
  });

  // ---- drawing ----------------------------------------------------------------------------------
  // The worker's news, drawn just after the next frame (several in one frame: the last).
  const drawKey = { trainPanel: node };
  const scheduleDraw = () => drawing.afterFrame(drawKey, draw);

  function draw() {
    if (!last || !model?.config?.vocab) {
      view.drawWaiting(model ? 'train.status.loading' : 'train.status.none');
      return;
    }
    if (example === null) {
      // The learner's sequence if the new model reads it (the same task), else the task's example.
      const { vocab, contextLength } = model.config;
      const typed = readSequence(view.sequence.value, vocab, contextLength);
      setExample(typed.ok ? typed.tokens : exampleOf(model.task, vocab, contextLength));
      worker.setExample(example);
    }
    view.draw({ last, history, retraining, checkpoint: model.checkpoint, vocab: model.config.vocab });
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

  // A link's, a preset's or the gallery's model: opened unless it is the one shown.
  function load(text) {
    if (text === '' || text === linkText) return;
    const parsed = parseTrainText(text); // (a bad one is reported with the link's other problems)
    if (!parsed) return;
    linkText = text;
    learnerChose = true;
    offer = null;
    linkModel = null;
    linkParsed = parsed;
  }

  return {
    /** The page's state (its `train` field) and texts in the page's language. */
    render(ctx) {
      load(ctx?.state.train ?? '');
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
      drawOffer();
      if (last) draw();
    },
  };
}
