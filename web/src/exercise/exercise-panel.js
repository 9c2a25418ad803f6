// The exercise of a link (`ex`): its questions above the lesson, each checked against the
// engine's numbers for the exercise's own state (pinned-state.js), whatever the reader changed
// since; while a question is open, what it asks is "?" everywhere on the page (present.js). A
// wrong answer gets the teacher's hint; a second one, "show", or a choice's first try ends the
// question with the worked explanation (docs/exercises.md: scoring).
// Answers are kept per exercise in localStorage (progress.js); in a frame each answer is posted
// to the host page (docs/embedding.md). Texts go in through textContent only.
import './exercise.css';
import { h, setHidden, setText } from '../render/dom.js';
import { companionsOf, withFields } from '../lesson/companions.js';
import { explainCell } from '../lesson/explain.js';
import { fmt } from '../render/numbers.js';
import { checkChoice, checkNumber, checkPattern, expectedNumber, expectedPattern } from './answers.js';
import { questionsInRange, readExercise, textIn } from './exercise-text.js';
import { optionOrder } from './option-order.js';
import { computedKey, pinnedAsIs, readPinned } from './pinned-state.js';
import { askedCells, createPresenter } from './present.js';
import { closes, exerciseId, isDone, loadProgress, saveProgress, scoreOf } from './progress.js';

/**
 * node: the panel (a section); deps: { t(), lang(), changed() (the page draws again: the open
 * questions changed), post(message) (to the host page, in a frame), presetId() (the page's
 * preset), limits(), restore({ presetId, draft }) (load the exercise's own state) }.
 * → { needs(state) → { open, dots, own } (what the page's plan must know), update(results, state) → presenter, presenter }
 */
export function createExercisePanel(node, deps) {
  const title = h('h2', { id: 'exercise-title' });
  const score = h('p', { className: 'exercise-score', role: 'status' });
  const problems = h('ul', { className: 'exercise-problems' });
  const exploring = h('p', { className: 'exercise-exploring', role: 'status' });
  const back = h('button', { type: 'button', className: 'choice exercise-back' });
  const exploringBox = h('div', { className: 'exercise-exploring-box' }, [exploring, back]);
  const list = h('ol', { className: 'exercise-questions' });
  const restart = h('button', { type: 'button', className: 'choice exercise-restart' });
  node.replaceChildren(title, score, problems, exploringBox, list, restart);
  node.setAttribute('aria-labelledby', 'exercise-title');

  let text = null; // the `ex` text shown
  let exercise = null;
  let readProblems = [];
  let id = '';
  let pinned = null; // { presetId, state, draft, key }: the state the questions are about
  let progress = {};
  let current = null; // { result, own, state, results }: the plan's results (own: the exercise's run), entries and all
  let kept = [];
  let presenter = createPresenter([], null);
  let drawnKey = '';
  let postedFor = ''; // the exercise whose score the host has (in a frame)
  const storage = (() => {
    try {
      return globalThis.localStorage ?? null;
    } catch {
      return null; // (storage denied: progress lasts as long as the page)
    }
  })();

  const done = (i) => isDone(progress[i]);

  function read(state) {
    if (state.exercise === text) return;
    text = state.exercise;
    ({ exercise, problems: readProblems } = readExercise(text));
    pinned = null;
    if (exercise) {
      // (an exercise of an older page names no state: it is about the one it opened with)
      const own = exercise.state === null ? pinnedAsIs(deps.presetId(), state) : readPinned(exercise.state, deps.limits());
      if (own.ok) pinned = { ...own, key: computedKey(own.state) };
      else {
        readProblems = [...readProblems, { key: 'exercise.problem.state', params: {} }];
        exercise = null;
      }
    }
    id = exercise ? exerciseId(text) : '';
    progress = exercise ? loadProgress(storage, id) : {};
  }

  // What the plan must know: whether a question is open (the panels that cannot hide its entries
  // wait), whether one asks for QKᵀ (the unscaled run), and the exercise's own state (its runs).
  function needs(state) {
    read(state);
    if (!exercise) return { open: false, dots: false, own: null };
    const questions = exercise.questions.filter((_, index) => !done(index));
    return {
      open: questions.some((q) => q.kind !== 'choice'),
      dots: exercise.questions.some((q) => q.cell?.name === 'dots'),
      own: exercise.questions.some((q) => q.kind !== 'choice') ? pinned.state : null, // (choices read no run)
    };
  }

  function update(results, state) {
    const t = deps.t();
    read(state);
    const result = results.get('main');
    const own = (exercise && results.get('exercise')) || result;
    current = { result, own, state, results };
    setHidden(node, !exercise && !readProblems.length);
    drawExploring(exercise !== null && computedKey(state) !== pinned.key, t);
    if (!exercise) {
      kept = [];
      presenter = createPresenter([], result);
      drawProblems(readProblems, t);
      setText(title, t('exercise.title'));
      list.replaceChildren();
      setHidden(score, true);
      setHidden(restart, true);
      return presenter;
    }
    const inRange = questionsInRange(exercise, own);
    kept = inRange.kept;
    drawProblems([...readProblems, ...inRange.problems], t);
    const open = kept.filter(({ index }) => !done(index));
    presenter = createPresenter(askedCells(open), result, { overQueries: state.softmaxOver === 'queries' });
    draw(t);
    return presenter;
  }

  // The reader changed what the exercise computes: its questions stay about its own state.
  function drawExploring(away, t) {
    setHidden(exploringBox, !away);
    if (!away) return;
    setText(exploring, t('exercise.exploring'));
    setText(back, t('exercise.backToOwn'));
  }

  function drawProblems(items, t) {
    problems.replaceChildren(...items.map((p) => h('li', { text: t(p.key, p.params) })));
    setHidden(problems, !items.length);
  }

  // The questions, drawn again only when what they show changed (typing in one keeps its text).
  function draw(t) {
    const lang = deps.lang();
    const key = JSON.stringify([text, lang, progress, current.result.tokens, kept.map((k) => k.index)]);
    const named = textIn(exercise.title, lang);
    setText(title, named ? t('exercise.titleNamed', { title: named }) : t('exercise.title'));
    const s = scoreOf(
      progress,
      kept.map((k) => k.index),
    );
    setText(score, t('exercise.score', s));
    setHidden(score, false);
    if (postedFor !== id && s.answered) deps.post({ exercise: id, ...s }); // (answers kept from an earlier visit)
    postedFor = id;
    setText(restart, t('exercise.restart'));
    setHidden(restart, !Object.keys(progress).length);
    if (key === drawnKey && list.childElementCount) return;
    drawnKey = key;
    list.replaceChildren(...kept.map(({ question, index }, n) => questionItem(question, index, n, t, lang)));
  }

  function record(index, entry) {
    progress = { ...progress, [index]: { ...entry, closed: closes(exercise.questions[index], entry) } };
    saveProgress(storage, id, progress);
    const s = scoreOf(
      progress,
      kept.map((k) => k.index),
    );
    deps.post({ exercise: id, ...s });
    deps.changed(); // the page draws again: an answered question shows its numbers
  }

  function questionItem(q, index, n, t, lang) {
    const entry = progress[index];
    const state = entry?.correct ? 'right' : done(index) ? (entry.shown ? 'shown' : 'wrong') : 'open';
    const item = h('li', { className: 'exercise-q', dataset: { q: String(index), state } });
    const promptId = `exercise-q${index}-prompt`;
    item.append(h('p', { className: 'exercise-prompt', id: promptId, text: promptOf(q, t, lang) }));
    const feedback = h('p', { className: 'exercise-feedback' });
    const answerBox = answerControls(q, index, promptId, t, lang, entry, state !== 'open');
    item.append(answerBox.el, feedback);
    if (state === 'open' && q.kind !== 'choice') {
      // (shown, the question is answered and not right: the value was read, not predicted)
      const show = h('button', { type: 'button', className: 'choice exercise-show', text: t('exercise.show') });
      show.addEventListener('click', () => record(index, { tries: entry?.tries ?? 0, correct: false, shown: true, answer: entry?.answer }));
      answerBox.el.append(show);
    }
    if (entry && !entry.correct && !entry.shown) {
      feedback.textContent = done(index) ? t('exercise.wrong') : [t('exercise.wrong'), textIn(q.hint, lang) || t('exercise.noHint')].join(' ');
    }
    if (entry?.correct) feedback.textContent = t('exercise.right');
    if (done(index)) item.append(workedAnswer(q, t, entry));
    answerBox.onCheck = (answer) => {
      const checked = check(q, answer);
      if (!checked) {
        feedback.textContent = t('exercise.notNumber');
        return;
      }
      const tries = (progress[index]?.tries ?? 0) + 1;
      record(index, { tries, correct: checked.correct, answer: answer.saved });
    };
    return item;
  }

  function promptOf(q, t, lang) {
    const written = textIn(q.prompt, lang);
    if (written) return written;
    const { own } = current;
    if (q.kind === 'number') {
      return t('exercise.prompt.number', { symbol: symbolOf(q.cell, t), tolerance: String(q.tolerance) });
    }
    const { row, head, name } = q.row;
    const token = own.tokens[row];
    if (name === 'mask') return t('exercise.prompt.masked', { row: row + 1, token });
    return t(q.find === 'largest' ? 'exercise.prompt.largest' : 'exercise.prompt.zeros', { row: row + 1, token, head: head + 1 });
  }

  // The entry's symbol (a₂₁, s⁽²⁾₂₁, o₂₃): from the explanation of the shown result, whose asked
  // entries are NaN there (only the symbol is read).
  function symbolOf(cell, t) {
    try {
      const shown = presenter.result(current.own);
      const ctx = { result: shown, state: current.state, t, dots: shown, compare: null }; // (any run: the symbol alone is read)
      return explainCell(cell, ctx)?.symbol ?? cell.name;
    } catch {
      return cell.name;
    }
  }

  function answerControls(q, index, promptId, t, lang, entry, closed) {
    const box = { el: null, onCheck: null };
    const button = h('button', { type: 'button', className: 'choice exercise-check', text: t('exercise.check'), disabled: closed });
    if (q.kind === 'number') {
      const input = h('input', {
        type: 'text',
        inputmode: 'decimal',
        spellcheck: 'false',
        size: '8',
        id: `exercise-q${index}`,
        'aria-describedby': promptId,
        disabled: closed,
      });
      input.value = entry?.answer ?? '';
      const submit = () => box.onCheck?.({ typed: input.value, saved: input.value.slice(0, 40) });
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') submit();
      });
      button.addEventListener('click', submit);
      box.el = h('div', { className: 'exercise-answer' }, [h('label', { for: input.id, text: t('exercise.yourAnswer') }), input, button]);
      return box;
    }
    if (q.kind === 'pattern') {
      const keys = (current.own.source ?? current.own).tokens;
      const marked = Array.isArray(entry?.answer) ? entry.answer.slice(0, keys.length) : keys.map(() => false);
      const toggles = keys.map((token, c) => {
        const toggle = h('button', {
          type: 'button',
          className: 'choice exercise-key',
          'aria-pressed': marked[c] ? 'true' : 'false',
          text: `${c + 1} ${token}`,
          disabled: closed,
        });
        toggle.addEventListener('click', () => {
          marked[c] = !marked[c];
          toggle.setAttribute('aria-pressed', marked[c] ? 'true' : 'false');
        });
        return toggle;
      });
      button.addEventListener('click', () => box.onCheck?.({ marked: [...marked], saved: [...marked] }));
      box.el = h('div', { className: 'exercise-answer' }, [
        h('div', { className: 'exercise-keys', role: 'group', 'aria-labelledby': promptId }, toggles),
        button,
      ]);
      return box;
    }
    const name = `exercise-q${index}-choice`;
    const radios = optionOrder(id, index, q.options.length).map((k) => {
      const radio = h('input', { type: 'radio', name, value: String(k), disabled: closed });
      if (entry?.answer === k) radio.checked = true;
      return h('label', { className: 'opt' }, [radio, ' ', h('span', { text: textIn(q.options[k], lang) })]);
    });
    button.addEventListener('click', () => {
      const picked = box.el.querySelector(`input[name="${name}"]:checked`);
      if (picked) box.onCheck?.({ picked: Number(picked.value), saved: Number(picked.value) });
    });
    box.el = h('div', { className: 'exercise-answer' }, [
      h('div', { className: 'exercise-options', role: 'radiogroup', 'aria-labelledby': promptId }, radios),
      button,
    ]);
    return box;
  }

  // The engine's numbers for a question (never from the link, never from the reader's changes):
  // the exercise's own run, and its unscaled run for QKᵀ.
  function check(q, answer) {
    const { own } = current;
    if (q.kind === 'choice') return checkChoice(q, answer.picked);
    if (q.kind === 'pattern') return checkPattern(q, answer.marked, expectedPattern(q, own));
    const dots = q.cell.name === 'dots' ? current.results.get('exercise.dots') : null;
    const checked = checkNumber(q, answer.typed, expectedNumber(q, own, dots));
    return checked.ok ? checked : null;
  }

  // The values the open number questions ask, as the page prints them.
  function openValues() {
    const dots = current.results.get('exercise.dots');
    return kept
      .filter(({ question, index }) => question.kind === 'number' && !done(index))
      .map(({ question }) => fmt(expectedNumber(question, current.own, dots)));
  }

  // The exercise's own runs, as the lesson's explanations read a page's results.
  const ownResults = () => ({ get: (runId) => ({ main: current.own, dots: current.results.get('exercise.dots') })[runId] ?? null });

  // After the answer or two tries: the core's value and the explanation panel's worked lines.
  function workedAnswer(q, t, entry) {
    const box = h('div', { className: 'exercise-worked' });
    const { own: result } = current;
    const state = pinned.state;
    if (q.kind === 'choice') {
      box.append(h('p', { text: t('exercise.answerWas', { answer: textIn(q.options[q.answer], deps.lang()) }) }));
      return box;
    }
    if (q.kind === 'pattern') {
      const want = expectedPattern(q, result);
      const keys = (result.source ?? result).tokens;
      const named =
        keys
          .filter((_, c) => want[c])
          .map((token) => `“${token}”`)
          .join(', ') || t('exercise.none');
      box.append(h('p', { text: t('exercise.answerWas', { answer: named }) }));
      if (Array.isArray(entry?.answer)) {
        const { cells } = checkPattern(q, entry.answer, want);
        const wrong = keys
          .filter((_, c) => !cells[c])
          .map((token) => `“${token}”`)
          .join(', ');
        if (wrong) box.append(h('p', { text: t('exercise.wrongKeys', { keys: wrong }) }));
      }
      return box;
    }
    const value = expectedNumber(q, result, current.results.get('exercise.dots'));
    box.append(h('p', { text: t('exercise.answerWas', { answer: fmt(value) }) }));
    try {
      const explained = explainCell(q.cell, withFields(companionsOf(ownResults()), { state, t }));
      if (explained) {
        box.append(h('p', { className: 'exercise-heading', text: `${explained.symbol} — ${explained.heading}` }));
        // (a worked line that prints what another open question asks waits for that answer)
        const open = openValues();
        const lines = explained.lines.filter((line) => !open.some((printed) => line.includes(printed)));
        for (const line of lines) box.append(h('p', { className: 'exercise-line', text: line }));
        if (lines.length < explained.lines.length) box.append(h('p', { className: 'note', text: t('exercise.linesWait') }));
      }
    } catch (error) {
      console.warn('worked explanation failed', error);
    }
    return box;
  }

  back.addEventListener('click', () => deps.restore(pinned));

  restart.addEventListener('click', () => {
    progress = {};
    saveProgress(storage, id, progress);
    drawnKey = '';
    deps.changed();
  });

  return {
    needs,
    update,
    /** The presenter of the last update (what the views draw). */
    get presenter() {
      return presenter;
    },
  };
}
