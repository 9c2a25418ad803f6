// The teacher's side of exercises: from the page as it stands, the selected entry (or its row)
// becomes a question, a choice question is written, each gets its texts (both languages,
// optional), the list is reordered, and the result is a link and an embed snippet. The builder
// writes only the questions: the answers stay the engine's (exercise-text.js).
import { h, setHidden, setText } from '../render/dom.js';
import { EXERCISE_LIMITS, fieldOf, parseCellRef } from '../state/schema.js';
import { encodeHash } from '../state/url.js';
import { iframeSnippet } from '../share/page.js';
import { readExercise, writeExercise } from './exercise-text.js';
import { pinnedTextOf } from './pinned-state.js';

const EXERCISE_FIELD = fieldOf('exercise');

const LANGS = ['en', 'zh-CN'];

/**
 * node: a <details>; deps: { t(), lang(), current() → { presetId, state } | null }.
 * → { update() } (after every change of the page: the selected entry, the language; drawn while open)
 */
export function createExerciseBuilder(node, deps) {
  const summary = h('summary', {}, [h('h2', { className: 'builder-title', dataset: { i18n: 'builder.title' } })]); // (named while closed)
  const intro = h('p', { className: 'builder-intro' });
  const selected = h('p', { className: 'builder-selected' });
  const askEntry = h('button', { type: 'button', className: 'choice', id: 'builder-ask-entry' });
  const askZeros = h('button', { type: 'button', className: 'choice', id: 'builder-ask-zeros' });
  const askLargest = h('button', { type: 'button', className: 'choice', id: 'builder-ask-largest' });
  const askChoice = h('button', { type: 'button', className: 'choice', id: 'builder-ask-choice' });
  const titleFields = LANGS.map((lang) => h('input', { type: 'text', id: `builder-title-${lang}`, maxlength: String(EXERCISE_LIMITS.textChars) }));
  const list = h('ol', { className: 'builder-questions' });
  const linkBox = h('input', { type: 'text', id: 'builder-link', readonly: true });
  const snippetBox = h('textarea', { id: 'builder-snippet', readonly: true, rows: '4' });
  const tryIt = h('a', { id: 'builder-try', className: 'choice' });
  const full = h('p', { className: 'builder-full', role: 'status' });
  const titleLabels = LANGS.map((lang) => h('label', { for: `builder-title-${lang}` }));
  const linkLabel = h('label', { for: 'builder-link' });
  const snippetLabel = h('label', { for: 'builder-snippet' });
  node.replaceChildren(
    summary,
    intro,
    selected,
    h('div', { className: 'builder-actions' }, [askEntry, askZeros, askLargest, askChoice]),
    full,
    h(
      'div',
      { className: 'builder-texts' },
      LANGS.flatMap((_, k) => [titleLabels[k], titleFields[k]]),
    ),
    list,
    h('div', { className: 'builder-out' }, [linkLabel, linkBox, snippetLabel, snippetBox, tryIt]),
  );

  let questions = []; // in the link's form (exercise-text.js), texts as { en, 'zh-CN' }
  const title = { en: '', 'zh-CN': '' };

  const selectedCell = () => parseCellRef(deps.current()?.state.cell);

  function add(question) {
    if (questions.length >= EXERCISE_LIMITS.questions) return;
    questions = [...questions, { prompt: {}, hint: {}, ...question }];
    drawList();
    update();
  }

  askEntry.addEventListener('click', () => {
    const cell = deps.current()?.state.cell;
    if (parseCellRef(cell)) add({ kind: 'number', cell, tolerance: EXERCISE_LIMITS.defaultTolerance });
  });
  const askRow = (find) => {
    const cell = selectedCell();
    if (!cell) return;
    const row = cell.name === 'mask' ? `mask.${cell.row + 1}` : `weights.${cell.head + 1}.${cell.row + 1}`;
    add(cell.name === 'mask' ? { kind: 'pattern', row } : { kind: 'pattern', row, find });
  };
  askZeros.addEventListener('click', () => askRow('zeros'));
  askLargest.addEventListener('click', () => askRow('largest'));
  askChoice.addEventListener('click', () => add({ kind: 'choice', options: [{}, {}], answer: 0 }));
  titleFields.forEach((field, k) =>
    field.addEventListener('input', () => {
      title[LANGS[k]] = field.value;
      update();
    }),
  );

  const field = (id, label, value, onInput, attrs = {}) => {
    const input = h('input', { type: 'text', id, maxlength: String(EXERCISE_LIMITS.textChars), ...attrs });
    input.value = value ?? '';
    input.addEventListener('input', () => {
      onInput(input.value);
      update();
    });
    return [h('label', { for: id, text: label }), input];
  };

  // The questions as editable items; drawn again when one is added, moved or removed.
  function drawList() {
    const t = deps.t();
    list.replaceChildren(
      ...questions.map((q, n) => {
        const texts = [];
        const textFields = (key, what) =>
          LANGS.flatMap((lang) =>
            field(`builder-q${n}-${key}-${lang}`, t(`builder.${what}`, { lang: t(`builder.lang.${lang}`) }), q[key][lang], (v) => {
              q[key][lang] = v;
            }),
          );
        if (q.kind === 'choice') texts.push(...textFields('prompt', 'prompt'));
        else texts.push(...textFields('prompt', 'promptOptional'));
        if (q.kind === 'number')
          texts.push(
            ...field(
              `builder-q${n}-tolerance`,
              t('builder.tolerance'),
              String(q.tolerance),
              (v) => {
                q.tolerance = Number(v);
              },
              { inputmode: 'decimal', size: '6' },
            ),
          );
        if (q.kind === 'choice') {
          q.options.forEach((option, k) =>
            texts.push(
              ...LANGS.flatMap((lang) =>
                field(`builder-q${n}-option${k}-${lang}`, t('builder.option', { n: k + 1, lang: t(`builder.lang.${lang}`) }), option[lang], (v) => {
                  option[lang] = v;
                }),
              ),
            ),
          );
          texts.push(
            ...field(
              `builder-q${n}-answer`,
              t('builder.rightOption'),
              String(q.answer + 1),
              (v) => {
                q.answer = Number(v) - 1;
              },
              { inputmode: 'numeric', size: '3' },
            ),
          );
          const more = h('button', {
            type: 'button',
            className: 'choice',
            text: t('builder.addOption'),
            disabled: q.options.length >= EXERCISE_LIMITS.options,
          });
          more.addEventListener('click', () => {
            q.options.push({});
            drawList();
            update();
          });
          texts.push(more);
        }
        texts.push(...textFields('hint', 'hint'));
        const move = (by, key) => {
          const button = h('button', {
            type: 'button',
            className: 'choice',
            text: t(`builder.${key}`),
            'aria-label': t(`builder.${key}Label`, { n: n + 1 }),
            disabled: n + by < 0 || n + by >= questions.length,
          });
          button.addEventListener('click', () => {
            const next = [...questions];
            if (by === 0) next.splice(n, 1);
            else [next[n], next[n + by]] = [next[n + by], next[n]];
            questions = next;
            drawList();
            update();
          });
          return button;
        };
        return h('li', { className: 'builder-q', dataset: { kind: q.kind } }, [
          h('p', { className: 'builder-q-what', text: describe(q, t) }),
          h('div', { className: 'builder-q-texts' }, texts),
          h('div', { className: 'builder-q-moves' }, [move(-1, 'up'), move(1, 'down'), move(0, 'remove')]),
        ]);
      }),
    );
  }

  function describe(q, t) {
    if (q.kind === 'number') return t('builder.what.number', { cell: q.cell });
    if (q.kind === 'pattern') return t(q.row.startsWith('mask') ? 'builder.what.masked' : `builder.what.${q.find}`, { row: q.row });
    return t('builder.what.choice');
  }

  // The link's text of the exercise, pinned to the page's state (pinned-state.js); what the page
  // cannot read of it (an empty option, a right option out of range) is said, and the link holds
  // what reads.
  function exerciseText(current) {
    const clean = (text) => Object.fromEntries(Object.entries(text).filter(([, v]) => v.trim() !== ''));
    const raw = {
      title: clean(title),
      questions: questions.map((q) => ({
        ...q,
        prompt: clean(q.prompt),
        hint: clean(q.hint),
        ...(q.options ? { options: q.options.map(clean) } : {}),
      })),
    };
    const { exercise, problems } = readExercise(JSON.stringify(raw));
    if (!exercise || !current) return { text: '', problems };
    const text = writeExercise({ ...exercise, state: pinnedTextOf(current.presetId, current.state) });
    if (text.length <= EXERCISE_FIELD.maxLength) return { text, problems };
    return { text: '', problems: [...problems, { key: 'builder.tooLong', params: { max: EXERCISE_FIELD.maxLength } }] };
  }

  function update() {
    const t = deps.t();
    setText(intro, t('builder.intro'));
    const cell = selectedCell();
    setText(selected, cell ? t('builder.selected', { cell: deps.current().state.cell }) : t('builder.noneSelected'));
    setText(askEntry, t('builder.askEntry'));
    setText(askZeros, t('builder.askZeros'));
    setText(askLargest, t('builder.askLargest'));
    setText(askChoice, t('builder.askChoice'));
    askEntry.disabled = !cell || cell.name.startsWith('cmp-');
    askZeros.disabled = !cell || !['weights', 'mask'].includes(cell.name);
    askLargest.disabled = !cell || cell.name !== 'weights';
    LANGS.forEach((lang, k) => setText(titleLabels[k], t('builder.titleField', { lang: t(`builder.lang.${lang}`) })));
    setText(linkLabel, t('builder.link'));
    setText(snippetLabel, t('builder.snippet'));
    setText(tryIt, t('builder.try'));
    const current = deps.current();
    const { text, problems } = exerciseText(current);
    setHidden(full, !problems.length);
    setText(full, problems.map((p) => t(p.key, p.params)).join(' '));
    if (!current || !text) {
      linkBox.value = '';
      snippetBox.value = '';
      tryIt.removeAttribute('href');
      return;
    }
    const address = location.href.split('#')[0];
    const state = { ...current.state, exercise: text, cell: '' };
    const lang = deps.lang();
    linkBox.value = address + encodeHash({ presetId: current.presetId, state, lang });
    snippetBox.value = iframeSnippet(address + encodeHash({ presetId: current.presetId, state, lang, view: { embed: true } }), t('embed.frameTitle'));
    tryIt.href = linkBox.value;
  }

  node.addEventListener('toggle', () => node.open && update());
  return { update: () => node.open && update() };
}
