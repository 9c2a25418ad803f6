// The teacher's side of exercises: from the page as it stands, the selected entry (or its row)
// becomes a question, a choice question is written, each gets its texts (both languages,
// optional), the list is reordered, and the result is a link and an embed snippet. The builder
// writes only the questions: the answers stay the engine's (exercise-text.js).
import { h, setHidden, setText } from '../render/dom.js';
import { drawing } from '../render/scheduler.js';
import { EXERCISE_LIMITS, fieldOf, parseCellRef } from '../state/schema.js';
import { encodeHash } from '../state/url.js';
import { askBlocks, isComplete, missingParts, quizView } from './builder-drafts.js';
import { allowIf, questionItem } from './builder-item.js';
import { cellNames } from './cell-names.js';
import { exerciseSnippet } from './embed-snippet.js';
import { readExercise, writeExercise } from './exercise-text.js';
import { pinnedTextOf } from './pinned-state.js';
import { exerciseId } from './progress.js';

const EXERCISE_FIELD = fieldOf('exercise');

const LANGS = ['en', 'zh-CN'];

/**
 * node: a <details>; deps: { t(), lang(), current() → { presetId, state } | null, shown() → what
 * is on screen ({ state, results }, page/controller.js) | null }.
 * → { update() } (after every change of the page: the selected entry, the language; drawn while open)
 */
export function createExerciseBuilder(node, deps) {
  const summary = h('summary', {}, [h('h2', { className: 'builder-title', dataset: { i18n: 'builder.title' } })]); // (named while closed)
  const intro = h('p', { className: 'builder-intro' });
  const selected = h('p', { className: 'builder-selected' });
  const asks = {
    entry: h('button', { type: 'button', className: 'choice', id: 'builder-ask-entry' }),
    zeros: h('button', { type: 'button', className: 'choice', id: 'builder-ask-zeros' }),
    largest: h('button', { type: 'button', className: 'choice', id: 'builder-ask-largest' }),
    choice: h('button', { type: 'button', className: 'choice', id: 'builder-ask-choice' }),
  };
  const why = h('p', { className: 'builder-why', id: 'builder-why' });
  const titleFields = LANGS.map((lang) => h('input', { type: 'text', id: `builder-title-${lang}`, maxlength: String(EXERCISE_LIMITS.textChars) }));
  const list = h('ol', { className: 'builder-questions' });
  const leftOut = h('p', { className: 'builder-left-out', role: 'status' });
  const linkBox = h('input', { type: 'text', id: 'builder-link', readonly: true });
  const snippetBox = h('textarea', { id: 'builder-snippet', readonly: true, rows: '6' });
  const tryIt = h('a', { id: 'builder-try', className: 'choice' });
  const full = h('p', { className: 'builder-full', role: 'status' });
  const titleLabels = LANGS.map((lang) => h('label', { for: `builder-title-${lang}` }));
  const linkLabel = h('label', { for: 'builder-link' });
  const snippetLabel = h('label', { for: 'builder-snippet' });
  node.replaceChildren(
    summary,
    intro,
    selected,
    h('div', { className: 'builder-actions' }, Object.values(asks)),
    why,
    full,
    h(
      'div',
      { className: 'builder-texts' },
      LANGS.flatMap((_, k) => [titleLabels[k], titleFields[k]]),
    ),
    list,
    leftOut,
    h('div', { className: 'builder-out' }, [linkLabel, linkBox, snippetLabel, snippetBox, tryIt]),
  );

  let questions = []; // in the link's form (exercise-text.js), texts as { en, 'zh-CN' }
  let items = []; // questionItem(…) of each, in order
  const title = { en: '', 'zh-CN': '' };

  const selectedCell = () => parseCellRef(deps.current()?.state.cell);

  function add(question) {
    if (questions.length >= EXERCISE_LIMITS.questions) return;
    questions = [...questions, { prompt: {}, hint: {}, ...question }];
    drawList();
    update();
  }

  asks.entry.addEventListener('click', () => {
    const cell = deps.current()?.state.cell;
    if (parseCellRef(cell)) add({ kind: 'number', cell, tolerance: EXERCISE_LIMITS.defaultTolerance });
  });
  const askRow = (find) => {
    const cell = selectedCell();
    if (!cell) return;
    const row = cell.name === 'mask' ? `mask.${cell.row + 1}` : `weights.${cell.head + 1}.${cell.row + 1}`;
    add(cell.name === 'mask' ? { kind: 'pattern', row } : { kind: 'pattern', row, find });
  };
  asks.zeros.addEventListener('click', () => askRow('zeros'));
  asks.largest.addEventListener('click', () => askRow('largest'));
  asks.choice.addEventListener('click', () => add({ kind: 'choice', options: [{}, {}], answer: 0 }));
  titleFields.forEach((field, k) =>
    field.addEventListener('input', () => {
      title[LANGS[k]] = field.value;
      update();
    }),
  );

  // The questions as editable items; drawn again when one is added, moved or removed.
  function drawList() {
    const t = deps.t();
    const redraw = () => {
      drawList();
      update();
    };
    items = questions.map((q, n) =>
      questionItem(q, n, questions.length, t, {
        edited: update,
        redraw,
        move(by) {
          const next = [...questions];
          if (by === 0) next.splice(n, 1);
          else [next[n], next[n + by]] = [next[n + by], next[n]];
          questions = next;
          redraw();
        },
      }),
    );
    list.replaceChildren(...items.map((item) => item.node));
  }

  function describe(q, t, names) {
    if (q.kind === 'number') return t('builder.what.number', { cell: names.cell(q.cell) });
    if (q.kind === 'pattern') return t(q.row.startsWith('mask') ? 'builder.what.masked' : `builder.what.${q.find}`, { row: names.row(q.row) });
    return t('builder.what.choice');
  }

  // What a question still lacks, as guidance under it (a new choice is empty: not an error).
  function guidance(q, t) {
    const { texts, tolerance } = missingParts(q);
    const lines = [];
    if (texts.length) lines.push(t('builder.missing', { parts: texts.map((p) => t(p.key, p.params)).join(t('builder.listSeparator')) }));
    if (tolerance) lines.push(t('builder.badTolerance', { max: EXERCISE_LIMITS.maxTolerance }));
    return lines.join(' ');
  }

  // The link's text of the complete questions, pinned to the page's state (pinned-state.js); what
  // the page cannot read of it is said, and the link holds what reads.
  function exerciseText(current, ready) {
    const clean = (text) => Object.fromEntries(Object.entries(text).filter(([, v]) => v.trim() !== ''));
    if (!ready.length || !current) return { text: '', problems: [] };
    const raw = {
      title: clean(title),
      questions: ready.map((q) => ({
        ...q,
        prompt: clean(q.prompt),
        hint: clean(q.hint),
        ...(q.options ? { options: q.options.map(clean) } : {}),
      })),
    };
    const { exercise, problems } = readExercise(JSON.stringify(raw));
    if (!exercise) return { text: '', problems };
    const text = writeExercise({ ...exercise, state: pinnedTextOf(current.presetId, current.state) });
    if (text.length <= EXERCISE_FIELD.maxLength) return { text, problems };
    return { text: '', problems: [...problems, { key: 'builder.tooLong', params: { max: EXERCISE_FIELD.maxLength } }] };
  }

  // The names come from the result on screen, which follows a change of the state a moment later.
  let waitedFor = null;
  function nameWhenDrawn(state) {
    if (waitedFor === state) return;
    waitedFor = state;
    drawing.whenDrawn().then(() => node.open && update());
  }

  function drawActions(t, names) {
    const cell = selectedCell();
    setText(selected, cell ? t('builder.selected', { cell: names.cell(deps.current().state.cell) }) : t('builder.noneSelected'));
    const blocks = askBlocks(cell, questions.length);
    const reasons = [];
    for (const [name, button] of Object.entries(asks)) {
      setText(button, t(`builder.ask.${name}`));
      const block = blocks[name];
      const reason = block && t(block, { max: EXERCISE_LIMITS.questions });
      allowIf(button, reason);
      if (reason) button.setAttribute('aria-describedby', why.id);
      else button.removeAttribute('aria-describedby');
      if (reason && !reasons.includes(reason)) reasons.push(reason);
    }
    setText(why, reasons.join(' '));
    setHidden(why, !reasons.length);
  }

  function update() {
    const t = deps.t();
    const current = deps.current();
    const shown = deps.shown?.() ?? null;
    if (current && shown?.state !== current.state) nameWhenDrawn(current.state);
    const names = cellNames(shown, t);
    setText(intro, t('builder.intro'));
    drawActions(t, names);
    questions.forEach((q, n) => {
      setText(items[n].what, describe(q, t, names));
      const lacking = guidance(q, t);
      setText(items[n].missing, lacking);
      setHidden(items[n].missing, !lacking);
    });
    LANGS.forEach((lang, k) => setText(titleLabels[k], t('builder.titleField', { lang: t(`builder.lang.${lang}`) })));
    setText(linkLabel, t('builder.link'));
    setText(snippetLabel, t('builder.snippet'));
    setText(tryIt, t('builder.try'));
    const ready = questions.filter(isComplete);
    const waiting = questions.flatMap((q, n) => (isComplete(q) ? [] : [n + 1]));
    setText(leftOut, waiting.length ? t('builder.leftOut', { n: waiting.join(t('builder.listSeparator')) }) : '');
    setHidden(leftOut, !waiting.length);
    const { text, problems } = exerciseText(current, ready);
    setHidden(full, !problems.length);
    setText(full, problems.map((p) => t(p.key, p.params)).join(' '));
    // Nothing to link to yet: the empty boxes and the link without a target say why.
    const empty = t('builder.why.empty');
    linkBox.placeholder = empty;
    snippetBox.placeholder = empty;
    if (!current || !text) {
      linkBox.value = '';
      snippetBox.value = '';
      tryIt.removeAttribute('href');
      tryIt.setAttribute('aria-disabled', 'true');
      tryIt.title = empty;
      return;
    }
    tryIt.removeAttribute('aria-disabled');
    tryIt.removeAttribute('title');
    const address = location.href.split('#')[0];
    const state = { ...current.state, exercise: text, cell: '' };
    const lang = deps.lang();
    linkBox.value = address + encodeHash({ presetId: current.presetId, state, lang });
    // The embed: the questions and the step they ask about, not the whole lesson.
    const view = quizView(ready, current.state.step);
    const src =
      address + encodeHash({ presetId: current.presetId, state: { ...state, step: view.step }, lang, view: { embed: true, hidden: view.hidden } });
    snippetBox.value = exerciseSnippet({
      src,
      title: t('embed.frameTitle'),
      exercise: exerciseId(text),
      waiting: t('builder.snippetWaiting'),
      score: t('builder.snippetScore'),
    });
    tryIt.href = linkBox.value;
  }

  node.addEventListener('toggle', () => node.open && update());
  return { update: () => node.open && update() };
}
