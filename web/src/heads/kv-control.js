// The key/value head count next to the heads control: one button per divisor of the query heads
// (1 = multi-query, fewer than h = grouped-query, h = ordinary multi-head), and its name.
import { divisors } from '../state/parse.js';
import { h, setText, unchanged } from '../render/dom.js';
import { kvKindText } from './split-view.js';
import { LIMITS } from '../state/schema.js';

/** callbacks: { change(partial) } */
export function createKvControl(callbacks) {
  const choices = h('span', { id: 'kv-choices', className: 'choices' });
  const kind = h('span', { id: 'kv-kind', className: 'kv-kind' });
  const el = h('div', { className: 'field small kv-control', dataset: { field: 'kvHeads' } }, [
    h('span', { className: 'label', id: 'kv-label', dataset: { i18n: 'heads.kv.label' } }),
    h('div', { className: 'hint', role: 'group', 'aria-labelledby': 'kv-label' }, [choices]),
    h('div', { className: 'hint' }, [kind]),
  ]);
  let heads = 1;
  choices.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-kv]');
    if (!button) return;
    const kv = Number(button.dataset.kv);
    callbacks.change({ kvHeads: kv === heads ? 0 : kv });
  });
  return {
    el,
    /** heads: the query heads as typed (may be invalid: then no choices). */
    render(headsValue, kvHeads, t) {
      const valid = Number.isInteger(headsValue) && headsValue >= 1 && headsValue <= LIMITS.maxDModel;
      heads = valid ? headsValue : 1;
      const kv = kvHeads > 0 && heads % kvHeads === 0 ? kvHeads : heads;
      if (!unchanged(choices, `${valid}|${heads}|${kv}`)) {
        choices.replaceChildren(
          ...(valid ? divisors(heads).slice(0, 40) : []).map((d) =>
            h('button', {
              type: 'button',
              className: 'choice',
              dataset: { kv: String(d) },
              'aria-pressed': d === kv ? 'true' : 'false',
              text: String(d),
            }),
          ),
        );
      }
      setText(kind, valid ? kvKindText({ heads, kvHeads: kv }, t) : '');
    },
  };
}
