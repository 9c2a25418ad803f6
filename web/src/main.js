// Wiring: controls → draft → validated state → engine.compute → views. The page holds no
// attention math; every number on screen comes from the engine's result.
import { createAttention } from './engine/attention.js';
import { createTranslator, LANGUAGES, pickLanguage } from './i18n/index.js';
import { PRESETS } from './state/presets.js';
import { stateToDraft } from './state/draft.js';
import { carryEmbeddings, rememberRows } from './state/embeddings.js';
import { parseWholeNumber } from './state/parse.js';
import { decodeHash, decodeSteps, isPresetState } from './state/url.js';
import { snapHeads, toEngineConfig, validateDraft } from './state/validate.js';
import {
  markInvalid,
  readDraft,
  renderHeadChoices,
  renderTokens,
  syncEnabled,
  writeDraft,
} from './views/controls.js';
import { applyTranslations } from './views/i18n-dom.js';
import { setAlternatives, setHidden, setText } from './render/dom.js';
import { runSliced } from './render/scheduler.js';
import { createEmbeddingsText } from './views/embeddings-text.js';
import { renderSettingsSummary } from './views/settings-summary.js';
import { createLesson } from './lesson/index.js';
import { createExerciseBuilder } from './exercise/exercise-builder.js';
import { createExercisePanel } from './exercise/exercise-panel.js';
import { computeCompanionsAsync } from './lesson/companions.js';
import { createHeadViews } from './heads/index.js';
import { createModernViews } from './modern/index.js';
import { installSharing } from './share/page.js';
import { placeMessage, renderEngineStatus, renderMessage } from './views/status.js';
import { installPerformance } from './perf/install.js';
import { installSkipLinks } from './views/skip-link.js';
import { createTrainPanel } from './train/panel.js';

// The script is async (web/index.html): the page's elements may still be being parsed.
if (document.readyState === 'loading') await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));

const $ = (selector) => document.querySelector(selector);
const form = $('#controls');
const textarea = $('#embeddings-text');
// The text box of X: one line per row, a window of rows when X is large.
const editor = createEmbeddingsText(textarea, { labels: $('#row-labels'), pager: $('#embeddings-editor'), t: () => page.t });

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

installSkipLinks();

// The step-through lesson (web/src/lesson/): it draws the results and holds its own fields.
const lesson = createLesson({
  nodes: { overview: $('#overview'), stepper: $('#stepper'), results: $('#results'), explain: $('#explain'), say: $('#explain-say'), remark: $('#lesson-remark'), maskSummary: $('#mask-summary'), message: $('#lesson-message') },
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

// An exercise in the link: its questions above the lesson, their answers "?" on every view.
const exercise = createExercisePanel($('#exercise'), {
  getEngine: () => page.engine,
  t: () => page.t,
  lang: () => page.lang,
  changed: () => page.lastResult && showResults(page.lastResult, page.lastState),
  post: (score) => share.postExercise(score),
});

// The teacher's builder: the selected entry (or a choice question) becomes a question.
const builder = createExerciseBuilder($('#exercise-builder'), {
  t: () => page.t,
  lang: () => page.lang,
  current: () => (page.lastState ? { presetId: page.presetId, state: page.lastState } : null),
});

// The Train panel (web/src/train/): its model is the link's `train` field, written when it changes.
const trainPanel = createTrainPanel({
  node: $('#train'),
  noticeNode: $('#train-notice'),
  t: () => page.t,
  build: () => page.engine?.info.build ?? null,
  estimate: (config) => page.engine.trainingEstimate(config),
  changed: (train) => {
    if (!page.lastState) return;
    page.lastState = { ...page.lastState, train };
    writeHash();
  },
});

// FlashAttention tiles, the KV cache, RoPE (web/src/modern/) and the ALiBi switch by the mask.
const modernViews = createModernViews({
  nodes: { maskOptions: $('#scale').closest('fieldset'), views: $('#modern-views') },
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
  editor.setTokens(tokens); // (the row labels, and the box's height)
  syncEnabled(form);
}

// A preset's note, once something is changed, stays where it is, saying so: hiding it moved (and
// repainted) the whole page below it. Both texts are in one grid cell, one seen (the cell is as
// tall as the longer), so switching between them moves nothing either.
const presetNote = $('#preset-note');
function renderPresetNote() {
  const preset = PRESETS[page.presetId];
  setHidden(presetNote, !(preset?.noteKey && page.lastState));
  if (presetNote.hidden) return;
  const pristine = isPresetState(page.presetId, page.lastState);
  const text = page.t(preset.noteKey);
  setAlternatives(presetNote, [text, page.t('preset.changed', { note: text })], pristine ? 0 : 1); // as loaded, changed since
}

function renderAll() {
  applyTranslations(document, page.t, page.lang);
  renderEngineStatus($('#engine-status'), { info: page.engine?.info, failure: page.engineFailure }, page.t);
  renderDerived(readDraft(form));
  renderMessages();
  renderPresetNote();
  renderSettingsSummary($('#settings-summary'), page.lastState, page.t);
  if (page.lastResult) showResults(page.lastResult, page.lastState);
  perf.translate();
  trainPanel.render();
}

// companions: the lesson's extra runs when computed already (in the worker), else null.
function showResults(result, state, companions = null) {
  const presenter = exercise.update(result, state); // (an exercise's open questions: "?" on every view)
  lesson.render(result, state, companions, presenter);
  headViews.render(presenter.result(result), state);
  // The panels that run the engine again (FlashAttention, KV cache, RoPE) would show what an
  // exercise asks: they wait until its questions are answered.
  $('#modern-views').hidden = Boolean(presenter.hidden);
  if (!presenter.hidden) modernViews.render(result, state);
}

function writeHash() {
  if (!page.lastState) return;
  builder.update(); // (the selected entry, the language)
  // share/page.js writes the address (debounced) and keeps the embed and export panels current.
  share.stateChanged({
    presetId: page.presetId,
    state: page.lastState,
    result: page.lastResult && exercise.presenter.result(page.lastResult), // (exports hold no answer)
    lang: page.langChosen ? page.lang : null,
    t: page.t,
  });
}

// ---- the one path from controls to screen ------------------------------------------------------

// Returns true when a new result is on screen, 'pending' when a worker is computing it; on bad
// input the previous result stays. onWorkerFailure(message): instead of the message, when the
// worker's engine refuses or fails.
function update({ onWorkerFailure = null } = {}) {
  // The head views' fields come last: a head picked in them is handed to the lesson's `head`.
  const draft = { ...readDraft(form), ...lesson.draft(), ...headViews.draft(), ...modernViews.draft(), ...trainPanel.draft() };
  if (draft.embeddingsMode === 'edit') draft.embeddingsParsed = editor.read(); // (only changed lines are read)
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
    computeInWorker(packedForWorker(config), checked.state, T, Tk, onWorkerFailure);
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

// The config's matrices as one Float32Array each, for the worker: posting a million numbers as
// nested arrays took 100–200 ms of the page's time, one Float32Array of them about 10. Packed
// row by row from the rows that changed since the last time (rows are never changed in place),
// into an array with room for the most tokens (a typed word is one row more, not a new array).
// The worker's message copies it as it is posted, so the next change may write into it.
const packs = new Map(); // name → { rows: the rows packed, cols, data }
const PACK_ROWS = 1024; // (the engine's maxTokens; more rows get an array of their own)
function packMatrix(name, rows) {
  const cols = rows[0]?.length ?? 0;
  if (rows.length * cols < 4096 || !rows.every((row) => Array.isArray(row) && row.length === cols)) return rows;
  let pack = packs.get(name);
  if (!pack || pack.cols !== cols || pack.data.length < rows.length * cols) {
    pack = { rows: [], cols, data: new Float32Array(Math.max(rows.length, PACK_ROWS) * cols) };
    packs.set(name, pack);
  }
  for (let r = 0; r < rows.length; r += 1) {
    const row = rows[r];
    if (pack.rows[r] === row) continue;
    pack.data.set(row, r * cols);
    for (let k = r * cols; k < (r + 1) * cols; k += 1) {
      if (!Number.isFinite(pack.data[k])) {
        packs.delete(name);
        return rows; // (as given: the engine names the entry, and says "too large" for 1e39)
      }
    }
    pack.rows[r] = row;
  }
  pack.rows.length = rows.length;
  return { rows: rows.length, cols, data: pack.data.subarray(0, rows.length * cols) };
}

function packedForWorker(config) {
  const packed = { ...config };
  if (Array.isArray(config.embeddings)) packed.embeddings = packMatrix('x', config.embeddings);
  if (config.weights && typeof config.weights === 'object') {
    packed.weights = Object.fromEntries(Object.entries(config.weights).map(([name, rows]) => [name, Array.isArray(rows) ? packMatrix(name, rows) : rows]));
  }
  return packed;
}

function accept(result, state, companions = null) {
  page.error = null;
  page.notice = null;
  page.lastState = state;
  page.lastResult = result;
  renderMessages();
  renderPresetNote();
  renderSettingsSummary($('#settings-summary'), state, page.t);
  showResults(result, state, companions);
  writeHash();
}

// The previous result stays on screen until the worker's arrives; typing again cancels it.
async function computeInWorker(config, state, T, Tk, onFailure) {
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
      page.notice = { key: page.lastResult ? 'progress.cancelled' : 'progress.cancelledNothing' };
    } else if (onFailure) {
      onFailure(error.message);
      return;
    } else {
      page.error = { key: 'error.engine', params: { message: error.message }, field: null };
    }
    renderMessages();
  }
}

// ---- hand-edited embeddings ----------------------------------------------------------------------

// The engine's per-token vectors for this shape (what "one vector per token" uses), computed
// without attention: { rows, cols, data }, or null.
function perTokenVectors(tokens, dModel) {
  try {
    return page.engine.tokenEmbeddings(tokens, dModel);
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
  const parsed = editor.read();
  if (!parsed.ok) return; // leave the reader's text and its message alone
  const matches = parsed.rows.length === page.editorTokens.length;
  if (!matches && !force) return;
  const rows = carryEmbeddings({
    tokens,
    dModel,
    previousTokens: page.editorTokens,
    previousRows: matches ? parsed.rows : [],
    remembered: page.remembered,
    fallback: (needed) => perTokenVectors(needed.map((i) => tokens[i]), dModel), // (the rows with nothing to keep)
  });
  if (!rows) return;
  // Opened, or small: its text at once; else, while the reader types elsewhere, after the frame.
  editor.show(rows, tokens, { later: !force && tokens.length * dModel > 4096 });
  page.editorTokens = tokens;
}

// X edited in the lesson (an entry, or a tool over the whole matrix): its rows, or null for one
// vector per token. The rows go to validation and the engine as numbers (at the text box's
// precision), and the text box gets their text after the frame (views/embeddings-text.js). When
// the editor opens (its text is shown at once), and for rows that are not all finite (the text
// box's reading says which entry), as a reader would: the control set, and the same 'input' event.
function setEmbeddings(rows) {
  const radio = form.querySelector(`input[name="embeddings"][value="${rows ? 'edit' : 'token'}"]`);
  const tokens = headViews.tokenize($('#sentence').value);
  if (!rows || !radio.checked || !rows.every((row) => row.every(Number.isFinite))) {
    radio.checked = true;
    if (rows) editor.show(rows, tokens, { round: true });
    (rows ? textarea : radio).dispatchEvent(new Event('input', { bubbles: true }));
    return;
  }
  page.notice = null;
  page.editorTokens = tokens;
  rememberRows(page.remembered, tokens, editor.show(rows, tokens, { later: true, round: true }));
  updateAfterKey();
}

// ---- loading a preset or an address --------------------------------------------------------------

// draft: from stateToDraft (its stateEmbeddings are X's exact rows, which the text box shows).
function loadDraft(draft, presetId) {
  page.presetId = presetId;
  writeDraft(form, draft);
  lesson.load(draft);
  headViews.load(draft);
  trainPanel.load(draft);
  modernViews.load(draft);
  page.editorTokens = headViews.tokenize(draft.sentence);
  page.remembered = new Map();
  const rows = draft.embeddingsMode === 'edit' ? draft.stateEmbeddings : null;
  editor.show(rows ?? null, page.editorTokens);
  if (rows) rememberRows(page.remembered, page.editorTokens, rows);
}

function loadPreset(presetId) {
  page.notice = null;
  loadDraft(stateToDraft(PRESETS[presetId].state), presetId);
  update();
}

// A link is read once (decodeHash); a long one in slices of a few milliseconds, so that even the
// longest address Chromium takes (2 MB) blocks nothing. → a Promise of what decodeHash returns.
const LONG_LINK = 8192; // characters
function readLink(hash) {
  if (hash.length <= LONG_LINK && !hash.includes('~')) return Promise.resolve(decodeHash(hash));
  return runSliced(decodeSteps(hash));
}

// The link being opened: a newer one (hashchange) makes an older one still being read moot.
let opening = 0;
let waitingPreset = null; // the preset of a link shown before the engine loaded, to compute then

// goToPlace: a link followed in the page (an example, an in-page link) brings what it names into view.
async function openHash(hash, { goToPlace = false } = {}) {
  const ticket = ++opening;
  const decoded = await readLink(hash);
  if (ticket !== opening) return;
  applyLink(decoded);
  if (page.engine) {
    computeLink(decoded.presetId);
    if (goToPlace) lesson.goToPlace();
  } else {
    waitingPreset = decoded.presetId;
    renderAll(); // (nothing computed yet: the form, in the link's language)
  }
}

function applyLink({ presetId, draft, lang, ignored, view }) {
  share.linkOpened({ ignored, view }); // says what the link could not apply
  if (view?.embed) lesson.foldTools();
  if (lang && LANGUAGES.includes(lang)) {
    page.lang = lang;
    page.langChosen = true;
    page.t = createTranslator(lang);
  }
  page.notice = null;
  loadDraft(draft, presetId);
}

// Computes what the link opened; a link with a value the page or the engine cannot use (in the
// worker too) opens its preset instead, saying why, unless a result is on screen already.
function computeLink(presetId) {
  const fallback = (message) => {
    loadDraft(stateToDraft(PRESETS[presetId].state), presetId);
    update();
    page.notice = { key: 'error.badLink', params: { message } };
    renderAll();
  };
  const outcome = update({ onWorkerFailure: page.lastResult ? null : fallback });
  if (!outcome && !page.lastResult && page.error) fallback(page.t(page.error.key, page.error.params));
  else renderAll();
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
    if (target === textarea) editor.typed(); // a text typed in the box wins
    if (target.id === 'sentence' || target.id === 'd-model' || target.name === 'tokenization') refitEditor();
    if (target.name === 'embeddings') refitEditor({ force: true });
    if (target.id === 'embeddings-text') {
      const parsed = editor.read();
      if (parsed.ok) {
        page.editorTokens = headViews.tokenize(readDraft(form).sentence);
        rememberRows(page.remembered, page.editorTokens, parsed.rows);
      }
    }
    updateAfterKey();
  }),
);

// At large sizes the computation is started in a task of its own, after the one that took the
// key (and refitted the editor's rows): at 1 000 tokens and d_model 1 024 a key of d_model was
// one task of 59 ms (the rows refitted, packed and posted), and a burst of keys starts one
// computation, not one per key.
const LARGE_INPUT = 1 << 14; // T × d_model
let updateTask = null;
function updateAfterKey() {
  const draft = readDraft(form);
  const large = headViews.tokenize(draft.sentence).length * (parseWholeNumber(draft.dModel) ?? 0) >= LARGE_INPUT;
  if (!large && updateTask === null) {
    update();
    return;
  }
  updateTask ??= setTimeout(
    guard(() => {
      updateTask = null;
      update();
    }),
    0,
  );
}

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
      lesson.goToPlace();
    }),
  );
}

window.addEventListener(
  'hashchange',
  guard(() => {
    if (location.hash === share.currentHash()) return; // the address this page wrote
    openHash(location.hash, { goToPlace: true });
  }),
);

// ---- start -----------------------------------------------------------------------------------------

async function start() {
  page.lang = pickLanguage(navigator.languages);
  page.t = createTranslator(page.lang);
  const engine = createAttention();
  engine.catch(() => {}); // (its failure is reported below, once the link is read)
  await openHash(location.hash); // the form shows the link while the engine loads
  try {
    page.engine = await engine;
  } catch (error) {
    page.engineFailure = error instanceof Error ? error : new Error(String(error));
    renderAll();
    return;
  }
  if (waitingPreset !== null) computeLink(waitingPreset);
  waitingPreset = null;
}

start().catch((error) => {
  // Last resort: report rather than leave an uncaught rejection.
  console.error(error);
  page.error = { key: 'error.unexpected', params: { message: error?.message ?? String(error) }, field: null };
  renderMessages();
});
