// Wiring: controls → draft → validated state → engine.compute → views. The page holds no
// attention math; every number on screen comes from the engine's result.
import { createAttention } from './engine/attention.js';
import { createTranslator, LANGUAGES, pickLanguage } from './i18n/index.js';
import { PRESETS } from './presets/index.js';
import { stateToDraft } from './state/draft.js';
import { carryEmbeddings, rememberRows } from './state/embeddings.js';
import { formatMatrixText, parseMatrixText, parseWholeNumber } from './state/parse.js';
import { decodeHash, encodeHash } from './state/url.js';
import { snapHeads, toEngineConfig, validateDraft } from './state/validate.js';
import {
  markInvalid,
  readDraft,
  renderHeadChoices,
  renderRowLabels,
  renderTokens,
  syncEnabled,
  writeDraft,
} from './views/controls.js';
import { applyTranslations } from './views/i18n-dom.js';
import { setAlternatives, setHidden, setText } from './views/dom.js';
import { createEmbeddingsText } from './views/embeddings-text.js';
import { createLesson } from './lesson/index.js';
import { computeCompanionsAsync } from './lesson/companions.js';
import { createHeadViews } from './heads/index.js';
import { installSharing } from './share/page.js';
import { placeMessage, renderEngineStatus, renderMessage } from './views/status.js';
import { installPerformance } from './perf/install.js';

const $ = (selector) => document.querySelector(selector);
const form = $('#controls');
const textarea = $('#embeddings-text');
const embeddingsText = createEmbeddingsText(textarea);

const page = {
  engine: null,
  engineFailure: null,
  lang: 'en',
  langChosen: false, // write lang into the address only once the reader picked one
  t: createTranslator('en'),
  presetId: 'default',
  lastState: null,
  lastResult: null,
  error: null, // { key, params, field } of the current bad input
  notice: null, // { key, params }: a one-off remark, e.g. about a broken link
  // For hand-edited embeddings: the tokens the editor rows belong to, and rows by token.
  editorTokens: [],
  remembered: new Map(),
};

// The step-through lesson (web/src/lesson/): it draws the results and holds its own fields.
const lesson = createLesson({
  nodes: { stepper: $('#stepper'), results: $('#results'), explain: $('#explain'), remark: $('#lesson-remark'), maskSummary: $('#mask-summary'), message: $('#lesson-message') },
  form,
  getEngine: () => page.engine,
  t: () => page.t,
  requestUpdate: () => update(),
  setEmbeddings: (rows) => setEmbeddings(rows),
  // Moving through the steps or selecting a cell changes what is shown, not what is computed.
  viewChanged: (fields) => {
    page.lastState = { ...page.lastState, ...fields };
    writeHash();
  },
  presetId: () => page.presetId,
  presetState: () => PRESETS[page.presetId]?.state ?? null,
});

// The head views (web/src/heads/): tokenization, key/value heads, positions, cross-attention and
// their panels under the lesson. They tokenize the sentence for the whole page.
const headViews = createHeadViews({
  nodes: { tokenize: $('#tokenize-mode'), structure: $('#structure-controls'), views: $('#head-views') },
  form,
  getEngine: () => page.engine,
  t: () => page.t,
  requestUpdate: () => update(),
});

// Copy link, the address kept current, embed mode, the gallery, embed and export panels.
const share = installSharing();

// Large inputs are computed in a worker with a progress bar; every computation is reported to
// the performance panel (web/src/perf/).
const perf = installPerformance({
  panelNode: $('#perf-panel'),
  progressNode: $('#compute-progress'),
  t: () => page.t,
  getShape: () => ({ dModel: page.lastState?.dModel ?? 64, heads: page.lastState?.heads ?? 4 }),
  simdPath: () => page.engine?.info.simdPath ?? '',
});

// ---- rendering -------------------------------------------------------------------------------

function renderMessages() {
  const { t } = page;
  const lines = [];
  if (page.error) {
    lines.push(t(page.error.key, page.error.params));
    if (page.lastResult) lines.push(t('error.kept'));
  }
  if (page.notice) lines.push(t(page.notice.key, page.notice.params));
  renderMessage($('#message'), lines);
  placeMessage($('#message'), form, markInvalid(form, page.error?.field ?? null, 'message'));
}

function renderDerived(draft) {
  const tokens = headViews.tokenize(draft.sentence);
  setText($('#token-count'), page.t(headViews.tokenCountKey(), { T: tokens.length }));
  renderTokens($('#token-chips'), tokens, page.t);
  renderHeadChoices($('#head-choices'), draft.dModel, draft.heads);
  renderRowLabels($('#row-labels'), tokens);
  const rows = Math.min(Math.max(tokens.length, 3), 16);
  if (textarea.rows !== rows) textarea.rows = rows;
  syncEnabled(form);
}

// A preset's note, once something is changed, stays where it is, saying so: hiding it moved the
// whole page below it, and its first change after loading the worked example was 45 ms of
// prepaint, paint and layerize (all steps, 2026-12-02). Both texts are in one grid cell, one seen
// (the cell is as tall as the longer), so switching between them moves nothing either.
const presetNote = $('#preset-note');
function renderPresetNote() {
  const preset = PRESETS[page.presetId];
  setHidden(presetNote, !(preset?.noteKey && page.lastState));
  if (presetNote.hidden) return;
  // Encoding the state costs milliseconds with edited matrices: only for a preset with a note.
  const pristine = encodeHash({ presetId: page.presetId, state: page.lastState }) === `#preset=${page.presetId}`;
  const text = page.t(preset.noteKey);
  setAlternatives(presetNote, [text, page.t('preset.changed', { note: text })], pristine ? 0 : 1); // as loaded, changed since
}

function renderAll() {
  applyTranslations(document, page.t, page.lang);
  renderEngineStatus($('#engine-status'), { info: page.engine?.info, failure: page.engineFailure }, page.t);
  renderDerived(readDraft(form));
  renderMessages();
  renderPresetNote();
  if (page.lastResult) showResults(page.lastResult, page.lastState);
  perf.translate();
}

// companions: the lesson's extra runs when computed already (in the worker), else null.
function showResults(result, state, companions = null) {
  lesson.render(result, state, companions);
  headViews.render(result, state);
}

function writeHash() {
  if (!page.lastState) return;
  // share/page.js writes the address (debounced) and keeps the embed and export panels current.
  share.stateChanged({
    presetId: page.presetId,
    state: page.lastState,
    result: page.lastResult,
    lang: page.langChosen ? page.lang : null,
    t: page.t,
  });
}

// ---- the one path from controls to screen ------------------------------------------------------

// Returns true when a new result is on screen, 'pending' when a worker is computing it; on bad
// input the previous result stays.
function update() {
  // The head views' fields come last: a head picked in them is handed to the lesson's `head`.
  const draft = { ...readDraft(form), ...lesson.draft(), ...headViews.draft() };
  if (embeddingsText.ahead) draft.embeddingsRows = embeddingsText.ahead; // (the text box is behind)
  renderDerived(draft);
  if (!page.engine) return false;

  const checked = validateDraft(draft, page.engine.info.limits);
  if (!checked.ok) {
    page.error = checked.error;
    renderMessages();
    return false;
  }
  const config = toEngineConfig(checked.state);
  const T = config.tokens.length;
  const Tk = config.source?.tokens.length ?? T;
  if (perf.plan(T, Tk, config.dModel, config.heads) === 'worker') {
    computeInWorker(config, checked.state, T, Tk);
    return 'pending';
  }
  perf.cancel();  // a smaller input supersedes a large one still computing
  let result;
  const start = performance.now();
  try {
    result = page.engine.compute(config);
  } catch (error) {
    page.error = { key: 'error.engine', params: { message: error.message }, field: null };
    renderMessages();
    return false;
  }
  perf.record({ ms: performance.now() - start, where: 'main', T, Tk, dModel: config.dModel, memoryBytes: page.engine.memoryBytes() });
  accept(result, checked.state);
  return true;
}

function accept(result, state, companions = null) {
  page.error = null;
  page.notice = null;
  page.lastState = state;
  page.lastResult = result;
  renderMessages();
  renderPresetNote();
  showResults(result, state, companions);
  writeHash();
}

// The previous result stays on screen until the worker's arrives; typing again cancels it.
async function computeInWorker(config, state, T, Tk) {
  try {
    const { result, ms, memoryBytes } = await perf.computeInWorker(config, T);
    perf.record({ ms, where: 'worker', T, Tk, dModel: config.dModel, memoryBytes });
    // The lesson's extra runs (e.g. QKᵀ without scaling) in the worker too: on the page they
    // would block it as long as the main run.
    const companions = await computeCompanionsAsync(
      async (companionConfig) => (await perf.computeInWorker(companionConfig, T)).result,
      config,
      result,
      state,
    );
    accept(result, state, companions);
  } catch (error) {
    if (error.cancelled) {
      if (perf.busy()) return;  // superseded by a newer computation, which reports itself
      page.notice = { key: 'progress.cancelled' };
    } else {
      page.error = { key: 'error.engine', params: { message: error.message }, field: null };
    }
    renderMessages();
  }
}

// ---- hand-edited embeddings ----------------------------------------------------------------------

// The engine's per-token vectors for this shape (what "one vector per token" would use).
function perTokenRows(tokens, dModel) {
  try {
    const { x } = page.engine.compute({ tokens, dModel, heads: 1, weights: 'identity', mask: 'none' });
    return Array.from({ length: x.rows }, (_, r) => Array.from(x.data.subarray(r * x.cols, (r + 1) * x.cols)));
  } catch {
    return null;
  }
}

// After the sentence or d_model changed (or the editor was opened), refit the editor's rows to
// T × d_model, keeping what the reader typed. `force`: refit even if the editor's rows do not
// match the previous tokens (used when the editor opens).
function refitEditor({ force = false } = {}) {
  if (!page.engine) return;
  const draft = readDraft(form);
  if (draft.embeddingsMode !== 'edit') return;
  const tokens = headViews.tokenize(draft.sentence);
  const dModel = parseWholeNumber(draft.dModel);
  const { maxTokens, maxDModel } = page.engine.info.limits;
  if (tokens.length === 0 || tokens.length > maxTokens || !dModel || dModel > maxDModel) return;
  const parsed = parseMatrixText(draft.embeddingsText);
  if (!parsed.ok) return; // leave the reader's text and its message alone
  const matches = parsed.rows.length === page.editorTokens.length;
  if (!matches && !force) return;
  const fallback = perTokenRows(tokens, dModel);
  if (!fallback) return;
  const rows = carryEmbeddings({
    tokens,
    dModel,
    previousTokens: page.editorTokens,
    previousRows: matches ? parsed.rows : [],
    remembered: page.remembered,
    fallback,
  });
  textarea.value = formatMatrixText(rows);
  page.editorTokens = tokens;
}

// X edited in the lesson (an entry, or a tool over the whole matrix): its rows, or null for one
// vector per token. The rows go to validation and the engine as numbers, and the text box gets
// their text after the frame (views/embeddings-text.js). When the editor opens (its text is shown
// at once), and for rows that are not all finite (validation says which entry), as a reader
// would: the control set, and the same 'input' event.
function setEmbeddings(rows) {
  const radio = form.querySelector(`input[name="embeddings"][value="${rows ? 'edit' : 'token'}"]`);
  if (!rows || !radio.checked || !rows.every((row) => row.every(Number.isFinite))) {
    embeddingsText.write();
    radio.checked = true;
    if (rows) textarea.value = formatMatrixText(rows);
    (rows ? textarea : radio).dispatchEvent(new Event('input', { bubbles: true }));
    return;
  }
  page.notice = null;
  page.editorTokens = headViews.tokenize($('#sentence').value);
  rememberRows(page.remembered, page.editorTokens, embeddingsText.writeLater(rows));
  update();
}

// ---- loading a preset or an address --------------------------------------------------------------

function loadDraft(draft, presetId) {
  page.presetId = presetId;
  embeddingsText.drop(); // (written anew below)
  writeDraft(form, draft);
  lesson.load(draft);
  headViews.load(draft);
  page.editorTokens = headViews.tokenize(draft.sentence);
  page.remembered = new Map();
  const parsed = draft.embeddingsMode === 'edit' ? parseMatrixText(draft.embeddingsText) : null;
  if (parsed?.ok) rememberRows(page.remembered, page.editorTokens, parsed.rows);
}

function loadPreset(presetId) {
  page.notice = null;
  loadDraft(stateToDraft(PRESETS[presetId].state), presetId);
  update();
}

function loadHash(hash) {
  const { presetId, draft, lang, ignored, view } = decodeHash(hash);
  share.linkOpened({ ignored, view }); // says what the link could not apply
  if (lang && LANGUAGES.includes(lang)) {
    page.lang = lang;
    page.langChosen = true;
    page.t = createTranslator(lang);
  }
  page.notice = null;
  loadDraft(draft, presetId);
  if (!page.engine) return;
  if (!update() && !page.lastResult) {
    // A link with a value the page cannot use: say so and open its preset instead.
    const { key, params } = page.error;
    loadDraft(stateToDraft(PRESETS[presetId].state), presetId);
    update();
    page.notice = { key: 'error.badLink', params: { message: page.t(key, params) } };
  }
  renderAll();
}

// ---- events ----------------------------------------------------------------------------------------

// No handler may throw past this point: an unexpected error becomes a message, the page stays.
function guard(handler) {
  return (event) => {
    try {
      handler(event);
    } catch (error) {
      console.error(error); // a bug: said in the console too, where a developer (and the tests) see it
      page.error = { key: 'error.unexpected', params: { message: error?.message ?? String(error) }, field: null };
      renderMessages();
    }
  };
}

form.addEventListener('submit', (event) => event.preventDefault());

form.addEventListener(
  'input',
  guard((event) => {
    page.notice = null;
    const target = event.target;
    // The text box is brought up to date before anything reads it; a text typed in it wins.
    if (target === textarea) embeddingsText.drop();
    else embeddingsText.write();
    if (target.id === 'sentence' || target.id === 'd-model' || target.name === 'tokenization') refitEditor();
    if (target.name === 'embeddings') refitEditor({ force: true });
    if (target.id === 'embeddings-text') {
      const parsed = parseMatrixText(textarea.value);
      if (parsed.ok) {
        page.editorTokens = headViews.tokenize(readDraft(form).sentence);
        rememberRows(page.remembered, page.editorTokens, parsed.rows);
      }
    }
    update();
  }),
);

// When d_model is committed (blur, Enter, spinner), move heads to a divisor of it.
form.addEventListener(
  'change',
  guard((event) => {
    if (event.target.id !== 'd-model') return;
    const dModel = parseWholeNumber(event.target.value);
    const heads = parseWholeNumber($('#heads').value);
    if (!dModel || !heads || dModel % heads === 0) return;
    $('#heads').value = String(snapHeads(dModel, heads));
    update();
  }),
);

$('#head-choices').addEventListener(
  'click',
  guard((event) => {
    const button = event.target.closest('button[data-heads]');
    if (!button) return;
    $('#heads').value = button.dataset.heads;
    page.notice = null;
    update();
  }),
);

textarea.addEventListener('scroll', () => {
  $('#row-labels').scrollTop = textarea.scrollTop;
});

for (const button of document.querySelectorAll('[data-lang]')) {
  button.addEventListener(
    'click',
    guard(() => {
      page.lang = button.dataset.lang;
      page.langChosen = true;
      page.t = createTranslator(page.lang);
      renderAll();
      writeHash();
    }),
  );
}

for (const link of document.querySelectorAll('[data-preset]')) {
  link.addEventListener(
    'click',
    guard((event) => {
      event.preventDefault();
      loadPreset(link.dataset.preset);
      writeHash();
      renderAll();
    }),
  );
}

window.addEventListener(
  'hashchange',
  guard(() => {
    if (location.hash === share.currentHash()) return; // the address this page wrote
    loadHash(location.hash);
  }),
);

// ---- start -----------------------------------------------------------------------------------------

async function start() {
  page.lang = pickLanguage(navigator.languages);
  page.t = createTranslator(page.lang);
  loadHash(location.hash);
  renderAll();
  try {
    page.engine = await createAttention();
  } catch (error) {
    page.engineFailure = error instanceof Error ? error : new Error(String(error));
    renderAll();
    return;
  }
  loadHash(location.hash);
}

start().catch((error) => {
  // Last resort: report rather than leave an uncaught rejection.
  console.error(error);
  page.error = { key: 'error.unexpected', params: { message: error?.message ?? String(error) }, field: null };
  renderMessages();
});
