// Opening a link or a preset: the address read once (a long one in slices of a few milliseconds,
// so that even the longest address Chromium takes, 2 MB, blocks nothing), what it could not apply
// said, its draft loaded into the store. A link with a value the page or the engine cannot use
// opens its preset instead, saying why, unless a result is on screen already.
import { DEFAULT_IN_LANGUAGE, PRESETS } from '../state/presets.js';
import { stateToDraft } from '../state/draft.js';
import { LOOK_KEYS } from '../state/schema.js';
import { decodeHash, decodeSteps } from '../state/url.js';
import { runSliced } from '../render/scheduler.js';
import { THRESHOLDS } from '../render/thresholds.js';

function readLink(hash) {
  if (hash.length <= THRESHOLDS.slicedLinkChars && !hash.includes('~')) return Promise.resolve(decodeHash(hash));
  return runSliced(decodeSteps(hash));
}

// The draft of a state, its X as the exact rows a link gave (the editor shows them).
function draftOf(draft) {
  if (draft.embeddingsMode === 'edit' && draft.stateEmbeddings) return { ...draft, embeddingsParsed: { ok: true, rows: draft.stateEmbeddings } };
  return { ...draft, embeddingsParsed: null };
}

/**
 * deps: { store, controller, share, embeddings (views/embeddings-control.js), heads, lesson,
 * setLanguage(lang), lang() (the reader's), engine(), t() }
 */
export function createLinks(deps) {
  const { store } = deps;
  let opening = 0; // the link being opened: a newer one (hashchange) makes an older one moot
  let waiting = null; // the preset of a link opened before the engine loaded

  function load(draft, presetId, meta) {
    deps.embeddings.load(draft);
    deps.heads.loaded();
    store.load(draftOf(draft), presetId, meta);
  }

  // Computes what the link opened, or (a link the page or the engine cannot use, nothing on screen
  // yet) its preset, saying why.
  function compute(presetId) {
    const fallback = (message) => {
      load(stateToDraft(PRESETS[presetId].state), presetId, { from: 'link' });
      deps.controller.notice({ key: 'error.badLink', params: { message } });
    };
    if (store.problem && !deps.controller.shown) fallback(deps.t()(store.problem.key, store.problem.params));
    else deps.controller.settle({ from: 'link', loaded: true, onFailure: deps.controller.shown ? null : fallback });
  }

  return {
    /** goToPlace: a link followed in the page (an example, an in-page link) brings what it names into view. */
    async open(hash, { goToPlace = false } = {}) {
      const ticket = ++opening;
      const read = await readLink(hash);
      if (ticket !== opening) return;
      const { presetId, lang, ignored, view } = read;
      // (no link at all: the default page, in the reader's language)
      const draft = hash.replace(/^#/, '') === '' ? { ...read.draft, ...(DEFAULT_IN_LANGUAGE[deps.lang()] ?? {}) } : read.draft;
      deps.share.linkOpened({ ignored, view }); // says what the link could not apply
      if (view?.embed) deps.lesson.foldTools();
      if (lang) deps.setLanguage(lang);
      // (loaded without computing: compute() decides between the link and its preset)
      load(draft, presetId, { from: 'link', compute: false });
      if (deps.engine()) compute(presetId);
      else waiting = presetId;
      if (goToPlace) deps.lesson.goToPlace();
    },
    /** The engine has loaded: the link opened meanwhile is computed. */
    computeWaiting() {
      if (waiting !== null) compute(waiting);
      waiting = null;
    },
    /** A state the page keeps (an exercise's own): what it computes loaded, where the reader looks kept. */
    restoreState({ presetId, draft }) {
      const here = store.draft;
      const next = { ...draft };
      for (const key of LOOK_KEYS) if (key in here) next[key] = here[key];
      load(next, presetId, { from: 'exercise' });
    },
    /** A preset of the examples menu (in the view the reader is in). */
    preset(presetId) {
      load({ ...stateToDraft(PRESETS[presetId].state), view: store.draft.view }, presetId, { from: 'preset' });
      deps.lesson.goToPlace();
    },
    /** Follows the address when it changes from outside (an example, a link in the page, Back). */
    followAddress(guard, opened) {
      const follow = () => {
        if (location.hash === deps.share.currentHash()) return; // the address this page wrote
        this.open(location.hash, { goToPlace: true }).then(opened);
      };
      window.addEventListener('hashchange', guard(follow));
    },
  };
}
