// The softmax lab's note "a large weight is not a strong relation" (the course's misconception):
// weights are relative within their row, which always shares 1 among the keys it sees. Its
// example the learner can change: row 1 under the causal mask sees itself only, so it puts all of
// its weight there whatever the tokens. Numbers are the page's result (the core's weights).
import { h, setHidden, setText } from '../render/dom.js';
import { fmt } from '../render/numbers.js';

const at = (m, r, c) => m.data[r * m.cols + c];

/** callbacks: { change(partial lesson) } → { el, update(ctx, row, head) }; ctx: { result, state, t }. */
export function createRelativeNote(callbacks) {
  const text = h('span');
  const example = h('span');
  const button = h('button', { type: 'button', className: 'tool', id: 'lesson-relative-example' });
  const el = h('p', { className: 'lab-relative', id: 'lab-relative' }, [text, ' ', example, ' ', button]);
  button.addEventListener('click', () => callbacks.change({ row: 1, mask: 'causal', softmaxOver: 'keys' }));

  function update({ result, state, t }, i, hd) {
    // Over the queries a row does not share 1: the note would not hold.
    setHidden(el, state.softmaxOver === 'queries');
    const head = result.perHead[hd];
    // The key with the row's largest weight, as the core gave it.
    let best = 0;
    for (let j = 1; j < result.Tk; j += 1) if (at(head.weights, i, j) > at(head.weights, i, best)) best = j;
    const keys = (result.source ?? result).tokens;
    setText(text, t('lab.relative', { i: i + 1, token: `“${result.tokens[i]}”`, max: fmt(at(head.weights, i, best)), key: `“${keys[best]}”` }));
    // The example holds when row 1 sees one key: the causal mask in self-attention, without padding.
    const shown = !result.source && state.mask === 'causal' && state.softmaxOver !== 'queries' && i === 0 && at(result.mask, 0, 0) === 0;
    setText(
      example,
      shown ? t('lab.relative.self', { token: `“${result.tokens[0]}”`, self: fmt(at(head.weights, 0, 0)), z: fmt(at(head.masked, 0, 0)) }) : '',
    );
    setText(button, t('lab.relative.button'));
    setHidden(button, shown || Boolean(result.source));
  }

  return { el, update };
}
