// One question of the builder as the teacher edits it: its texts in both languages, a number's
// tolerance, a choice's options and right option, the moves. What it asks and what it still
// lacks are lines the builder fills on every update, so that typing never redraws the fields.
import { h } from '../render/dom.js';
import { EXERCISE_LIMITS } from '../state/schema.js';
import { readTolerance } from './builder-drafts.js';

const LANGS = ['en', 'zh-CN'];

/** A button that is disabled for a reason, which it says (a title, read as its description). */
export function allowIf(button, reason) {
  button.disabled = Boolean(reason);
  if (reason) button.title = reason;
  else button.removeAttribute('title');
}

/**
 * q: the question (edited in place); n: its place (0-based) of `count`; t: the translator;
 * on: { edited() (a text changed), redraw() (an option added), move(by) (by 0: removed) }.
 * → { node, what, missing }: the lines the builder writes.
 */
export function questionItem(q, n, count, t, on) {
  const field = (id, label, value, onInput, attrs = {}) => {
    const input = h('input', { type: 'text', id, maxlength: String(EXERCISE_LIMITS.textChars), ...attrs });
    input.value = value ?? '';
    input.addEventListener('input', () => {
      onInput(input.value);
      on.edited();
    });
    return [h('label', { for: id, text: label }), input];
  };
  const textFields = (key, what) =>
    LANGS.flatMap((lang) =>
      field(`builder-q${n}-${key}-${lang}`, t(`builder.${what}`, { lang: t(`builder.lang.${lang}`) }), q[key][lang], (v) => {
        q[key][lang] = v;
      }),
    );

  const texts = [...textFields('prompt', q.kind === 'choice' ? 'prompt' : 'promptOptional')];
  if (q.kind === 'number') {
    const attrs = { inputmode: 'decimal', size: '6' };
    texts.push(...field(`builder-q${n}-tolerance`, t('builder.tolerance'), String(q.tolerance), (v) => (q.tolerance = readTolerance(v)), attrs));
  }
  if (q.kind === 'choice') texts.push(...choiceFields(q, n, t, field, on));
  texts.push(...textFields('hint', 'hint'));

  const move = (by, key) => {
    const button = h('button', {
      type: 'button',
      className: 'choice',
      text: t(`builder.${key}`),
      'aria-label': t(`builder.${key}Label`, { n: n + 1 }),
    });
    allowIf(button, by < 0 && n === 0 ? t('builder.why.first') : by > 0 && n === count - 1 ? t('builder.why.last') : null);
    button.addEventListener('click', () => on.move(by));
    return button;
  };
  const what = h('p', { className: 'builder-q-what' });
  const missing = h('p', { className: 'builder-q-missing', id: `builder-q${n}-missing`, hidden: true });
  const node = h('li', { className: 'builder-q', dataset: { kind: q.kind } }, [
    what,
    h('div', { className: 'builder-q-texts' }, texts),
    missing,
    h('div', { className: 'builder-q-moves' }, [move(-1, 'up'), move(1, 'down'), move(0, 'remove')]),
  ]);
  return { node, what, missing };
}

// A choice's options (both languages each), which one is right, and a button for one more.
function choiceFields(q, n, t, field, on) {
  const fields = q.options.flatMap((option, k) =>
    LANGS.flatMap((lang) =>
      field(`builder-q${n}-option${k}-${lang}`, t('builder.option', { n: k + 1, lang: t(`builder.lang.${lang}`) }), option[lang], (v) => {
        option[lang] = v;
      }),
    ),
  );
  const right = h(
    'select',
    { id: `builder-q${n}-answer` },
    q.options.map((_, k) => h('option', { value: String(k), text: t('builder.optionNumber', { n: k + 1 }) })),
  );
  right.value = String(q.answer);
  right.addEventListener('change', () => {
    q.answer = Number(right.value);
    on.edited();
  });
  const more = h('button', { type: 'button', className: 'choice', text: t('builder.addOption') });
  allowIf(more, q.options.length >= EXERCISE_LIMITS.options ? t('builder.why.options', { max: EXERCISE_LIMITS.options }) : null);
  more.addEventListener('click', () => {
    q.options.push({});
    on.redraw();
  });
  return [...fields, h('label', { for: right.id, text: t('builder.rightOption') }), right, more];
}
