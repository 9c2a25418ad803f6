// What the chosen query row would read from the tokens after it if the causal mask were
// forgotten (self-test question 3): the weight it puts on later keys in the run with mask "none"
// (companions.js, `unmasked`), next to what the page's own mask leaves it. Every number is the
// core's (laterWeight, weights); the page only writes them as percentages.
import { h, setHidden, setText } from '../render/dom.js';
import { labPresentation } from '../render/policy.js';
import { fmt } from '../render/numbers.js';

const percent = (weight) => `${(weight * 100).toFixed(1)} %`;

/** callbacks: { change(partial lesson) } → { el, update(ctx) }; ctx: { result, unmasked, state, t }. */
export function createFuturePeek(callbacks) {
  const rows = h('span', { className: 'lab-rows' });
  const headline = h('p', { className: 'peek-headline' });
  const which = h('p', { className: 'peek-which' });
  const why = h('p', { className: 'peek-why' });
  // Every row at once: the existing comparison, A beside A without the mask (step "softmax").
  const compare = h('button', { type: 'button', className: 'tool', id: 'lesson-peek-compare' });
  compare.addEventListener('click', () => callbacks.change({ compare: true }));
  const title = h('h4');
  const pickLabel = h('span', { className: 'lab-label' });
  const el = h('div', { className: 'future-peek', id: 'future-peek' }, [
    title,
    h('div', { className: 'lab-pick' }, [pickLabel, rows]),
    headline,
    which,
    why,
    compare,
  ]);

  rows.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-peek-row]');
    if (button) callbacks.change({ row: Number(button.dataset.peekRow) + 1 });
  });

  let rowsKey = '';
  function update(ctx) {
    const { result, state, t } = ctx;
    // Cross-attention has no future: its keys are another sentence.
    const unmasked = result.source ? null : ctx.unmasked;
    setHidden(el, !unmasked);
    if (!unmasked) return;
    const i = state.row - 1;
    const hd = state.head - 1;
    const shown = labPresentation({ queries: result.T, keys: result.Tk }).queries;
    const key = result.tokens.slice(0, shown).join('\u0001');
    if (key !== rowsKey) {
      rowsKey = key;
      rows.replaceChildren(
        ...result.tokens
          .slice(0, shown)
          .map((token, r) => h('button', { type: 'button', className: 'chip', dataset: { peekRow: String(r) }, text: token })),
      );
    }
    rows.querySelectorAll('button').forEach((b, r) => b.setAttribute('aria-pressed', r === i ? 'true' : 'false'));
    setText(title, t('peek.title'));
    setText(pickLabel, t('lab.row'));

    const token = `“${result.tokens[i]}”`;
    const later = unmasked.perHead[hd].laterWeight[i];
    const own = result.perHead[hd].laterWeight[i];
    const weights = unmasked.perHead[hd].weights;
    const after = [];
    for (let j = i + 1; j < result.Tk; j += 1) after.push(`“${result.tokens[j]}” ${fmt(weights.data[i * weights.cols + j])}`);
    if (after.length === 0) {
      setText(headline, t('peek.last', { i: i + 1, token }));
      setText(which, '');
    } else {
      setText(
        headline,
        t(state.mask === 'none' ? 'peek.headlineNone' : 'peek.headline', {
          i: i + 1,
          token,
          share: percent(later),
          own: percent(own),
          mask: t(`mask.kind.${state.mask}`),
        }),
      );
      setText(which, t('peek.which', { list: after.join(', ') }));
    }
    setText(why, t('peek.why'));
    setText(compare, t('peek.compare'));
    setHidden(compare, state.mask === 'none' || state.compare);
  }

  return { el, update };
}
