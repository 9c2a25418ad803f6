// A step's section of the page: its title, caption and typeset formulas, then its panel (the mask
// workbench, the softmax lab), its head tabs and its figures: the model's matrices, then an
// article per head.
import { h, setText } from '../render/dom.js';
import { updateFormulaLines } from './formula-lines.js';
import { formulaVariants, stepFormulas } from './formulas.js';
import { stepIndex } from './steps.js';
import { subscript } from '../i18n/index.js';

export function createSection(stepId) {
  const title = h('h2');
  const caption = h('p', { className: 'caption' });
  const formulas = h('div', { className: 'formulas-tex' });
  const body = h('div', { className: 'step-body' });
  const el = h('section', { className: 'step lesson-step', dataset: { step: stepId } }, [
    h('div', { className: 'step-head' }, [title, caption]),
    formulas,
    body,
  ]);
  return { el, title, caption, formulas, body, sig: '' };
}

/** The step's title, caption and formulas for the lesson's context (companions.js). */
export function writeSectionText(section, stepId, { t, state, result }) {
  setText(section.title, t('lesson.stepTitle', { n: stepIndex(stepId) + 1, title: t(`step.${stepId}.title`) }));
  // (softmax over the queries, the course's misconception, breaks what the caption says of the rows)
  const caption = stepId === 'softmax' && state.softmaxOver === 'queries' ? 'step.softmax.captionQueries' : `step.${stepId}.caption`;
  let text = t(caption, { T: result.T, dModel: result.dModel, dK: result.dK, heads: result.heads });
  // ALiBi's slopes, from the engine, with the step that adds its bias.
  if (stepId === 'mask' && result.alibiSlopes)
    text += ` ${t('step.mask.alibi', { slopes: Array.from(result.alibiSlopes, (m, k) => `m${subscript(k + 1)} = ${String(Number(m.toPrecision(4)))}`).join(', ') })}`;
  setText(section.caption, text);
  const texts = stepFormulas(stepId, state, result, t);
  const labelOf = (n) => t('a11y.formulaOf', { n, step: section.title.textContent });
  updateFormulaLines(section.formulas, texts, (tex) => formulaVariants(stepId, tex, t, result.dK), 'step-formula', labelOf);
}

/** The section's body: groupViews [{ head (null for the model's), views }], tabs: a tab per head. */
export function sectionParts({ groupViews, tabs, panel, ctx: { t, state, result } }) {
  const parts = [];
  if (panel) parts.push(panel.el);
  if (tabs) {
    parts.push(
      h(
        'div',
        { className: 'head-tabs', role: 'group', 'aria-label': t('lesson.headTabs') },
        result.perHead.map((_, k) =>
          h('button', {
            type: 'button',
            className: 'choice',
            dataset: { headTab: String(k + 1) },
            'aria-pressed': k === state.head - 1 ? 'true' : 'false',
            text: t('lab.head', { h: k + 1 }),
          }),
        ),
      ),
    );
  }
  for (const group of groupViews.filter((g) => g.head === null))
    parts.push(
      h(
        'div',
        { className: 'matrices' },
        group.views.map((v) => v.el),
      ),
    );
  const perHead = groupViews.filter((g) => g.head !== null);
  if (perHead.length) {
    parts.push(
      h(
        'div',
        { className: 'heads' },
        perHead.map((g) =>
          h('article', { className: 'head', dataset: { head: String(g.head) } }, [
            h('h3', { text: t('step.head.title', { h: g.head + 1 }) }),
            h(
              'div',
              { className: 'matrices' },
              g.views.map((v) => v.el),
            ),
          ]),
        ),
      ),
    );
  }
  return parts;
}
