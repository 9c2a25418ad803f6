// Wiring: the page's parts are made once here and joined. Controls dispatch to the one store
// (state/store.js); the controller (page/controller.js) plans, runs and draws from it. The page
// holds no attention math; every number on screen comes from the engine, through compute/.
import { createAttention } from './engine/attention.js';
import { createTranslator, LANGUAGES, pickLanguage } from './i18n/index.js';
import { createRunner } from './compute/runner.js';
import { createStore } from './state/store.js';
import { writeDraft } from './views/controls.js';
import { applyTranslations } from './views/i18n-dom.js';
import { createEmbeddingsControl } from './views/embeddings-control.js';
import { createDrawPass } from './render/draw-pass.js';
import { drawing } from './render/scheduler.js';
import { createLesson } from './lesson/index.js';
import { createExerciseBuilder } from './exercise/exercise-builder.js';
import { createExercisePanel } from './exercise/exercise-panel.js';
import { createHeadViews } from './heads/index.js';
import { createModernViews } from './modern/index.js';
import { installSharing } from './share/page.js';
import { renderEngineStatus } from './views/status.js';
import { installPerformance } from './perf/install.js';
import { installSkipLinks } from './views/skip-link.js';
import { createPageViews } from './views/page-views.js';
import { createTrainPanel } from './train/panel.js';
import { PRESETS } from './state/presets.js';
import { LIMITS } from './state/schema.js';
import { createController } from './page/controller.js';
import { createLinks } from './page/links.js';
import { createMessages } from './page/messages.js';
import { guarded, installFormEvents } from './page/form-events.js';

// The script is async (web/index.html): the page's elements may still be being parsed.
if (document.readyState === 'loading') await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));

const $ = (selector) => document.querySelector(selector);
const form = $('#controls');
const page = { engine: null, engineFailure: null, lang: 'en', langChosen: false, t: createTranslator('en') };
const t = () => page.t;
const limits = () => page.engine?.info.limits ?? LIMITS;

installSkipLinks();
const store = createStore();
const pageViews = createPageViews({ nav: $('#views'), open: (view) => store.dispatch({ view }, { from: 'view' }) });
const drawPass = createDrawPass();
const share = installSharing();
const perf = installPerformance({
  panelNode: $('#perf-panel'),
  progressNode: $('#compute-progress'),
  t,
  getShape: () => ({ dModel: store.state?.dModel ?? 64, heads: store.state?.heads ?? 4 }),
  simdPath: () => page.engine?.info.simdPath ?? '',
  measure: (config) => runner.measure(config),
  cancel: () => runner.cancel(),
});
const runner = createRunner({ engine: () => page.engine, progress: perf.progress, record: perf.record });
const embeddings = createEmbeddingsControl({
  form,
  nodes: { textarea: $('#embeddings-text'), labels: $('#row-labels'), pager: $('#embeddings-editor') },
  store,
  t,
  perTokenVectors: runner.tokenEmbeddings, // (the runner is the engine's one caller)
  limits,
});
const lesson = createLesson({
  nodes: {
    overview: $('#overview'),
    stepper: $('#stepper'),
    results: $('#results'),
    explain: $('#explain'),
    say: $('#explain-say'),
    remark: $('#lesson-remark'),
    maskSummary: $('#mask-summary'),
    message: $('#lesson-message'),
  },
  dispatch: (partial) => store.dispatch(partial, { from: 'lesson' }),
  t,
  setEmbeddings: (rows) => embeddings.setEmbeddings(rows),
  generated: (config) => runner.once(config),
  presetId: () => store.presetId,
  presetState: () => PRESETS[store.presetId]?.state ?? null,
});
const heads = createHeadViews({
  nodes: { tokenize: $('#tokenize-mode'), structure: $('#structure-controls'), views: $('#head-views') },
  store,
  drawPass,
  t,
  maxTokens: LIMITS.maxTokens,
});
const exercise = createExercisePanel($('#exercise'), {
  t,
  lang: () => page.lang,
  changed: () => controller.redraw(),
  post: (score) => share.postExercise(score),
  presetId: () => store.presetId,
  limits,
  restore: (own) => links.restoreState(own),
});
const builder = createExerciseBuilder($('#exercise-builder'), {
  t,
  lang: () => page.lang,
  current: () => (store.state ? { presetId: store.presetId, state: store.state } : null),
  shown: () => controller.shown, // (the entries' names, as the explanation gives them)
});
const trainPanel = createTrainPanel({
  node: $('#train'),
  noticeNode: $('#train-notice'),
  t,
  build: () => page.engine?.info.build ?? null,
  estimate: (config) => runner.trainingEstimate(config),
  changed: (train) => store.dispatch({ train }, { from: 'train' }),
});
const modern = createModernViews({
  nodes: { maskOptions: $('#scale').closest('fieldset'), views: $('#modern-views') },
  store,
  drawPass,
  t,
  ask: (panel) => controller.ask(panel),
  setDModel: (dModel, from) => store.dispatch(embeddings.changed('dModel', String(dModel)), { from }),
});
const messages = createMessages({
  form,
  nodes: {
    message: $('#message'),
    presetNote: $('#preset-note'),
    summary: $('#settings-summary'),
    tokenCount: $('#token-count'),
    tokenChips: $('#token-chips'),
    headChoices: $('#head-choices'),
  },
  t,
  presetId: () => store.presetId,
});

// The controls written from the draft after every change (the one being typed in keeps its text).
function renderControls(draft) {
  pageViews.show(draft.view);
  writeDraft(form, draft);
  const tokens = messages.renderDraft(draft);
  embeddings.editor.setTokens(tokens); // (the row labels, and the box's height)
  heads.renderControls(draft, store.state);
  modern.renderControls(draft);
  builder.update();
}

const controller = createController({
  store,
  runner,
  drawPass,
  lesson,
  modern,
  exercise,
  train: trainPanel,
  share,
  messages,
  engine: () => page.engine,
  t,
  lang: () => page.lang,
  langChosen: () => page.langChosen,
  renderControls,
});
const links = createLinks({ store, controller, share, embeddings, heads, lesson, setLanguage, lang: () => page.lang, engine: () => page.engine, t });

function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) return;
  page.lang = lang;
  page.langChosen = true;
  page.t = createTranslator(lang);
}

// What is not drawn from the results: the page's texts, the engine line, the controls, the messages.
function renderChrome() {
  applyTranslations(document, page.t, page.lang);
  renderEngineStatus($('#engine-status'), { info: page.engine?.info, failure: page.engineFailure }, page.t);
  renderControls(store.draft);
  controller.say();
  perf.translate();
  embeddings.editor.translate();
  if (!controller.shown) trainPanel.render(null);
}

// ---- events ----------------------------------------------------------------------------------------

const guard = guarded((message) => controller.notice(message));
installFormEvents({ form, headChoices: $('#head-choices'), store, embeddings, guard });

for (const button of document.querySelectorAll('[data-lang]')) {
  button.addEventListener(
    'click',
    guard(() => {
      setLanguage(button.dataset.lang);
      renderChrome();
      controller.redraw(); // (and the address, which names the language)
    }),
  );
}

for (const link of document.querySelectorAll('[data-preset]')) {
  link.addEventListener(
    'click',
    guard((event) => {
      event.preventDefault();
      links.preset(link.dataset.preset);
      renderChrome();
    }),
  );
}

links.followAddress(guard, renderChrome);

// For a course page or a test: resolves once every part of the page shows its current state.
window.attentionPlayground = Object.freeze({
  whenDrawn: () => controller.whenDrawn(),
  // (a test's view of the plan: the runs it asked for, and the engine runs made so far)
  plannedRuns: () => controller.plannedKeys(),
  engineRuns: () => runner.made(),
  linkNow: () => share.flush(),
  animations: () => drawing.animations(),
});

// ---- start -----------------------------------------------------------------------------------------

async function start() {
  page.lang = pickLanguage(navigator.languages);
  page.t = createTranslator(page.lang);
  const engine = createAttention();
  engine.catch(() => {}); // (its failure is reported below, once the link is read)
  await links.open(location.hash); // the form shows the link while the engine loads
  renderChrome();
  try {
    page.engine = await engine;
  } catch (error) {
    page.engineFailure = error instanceof Error ? error : new Error(String(error));
    renderChrome();
    return;
  }
  renderChrome();
  links.computeWaiting();
}

// The page counts as drawn only once the engine has loaded and the link's state is on screen.
drawing.track(
  start().catch((error) => {
    // Last resort: report rather than leave an uncaught rejection.
    console.error(error);
    controller.notice({ key: 'error.unexpected', params: { message: error?.message ?? String(error) } });
  }),
);
