// A row of step buttons (first, back, next, last) and where we are, for the panels that go one
// tile or one token at a time. Keys: ← and → step, Home and End go to the ends, on any of the
// buttons. go(n) gets the 1-based step asked for; the row never decides itself.
import { h, setText } from '../render/dom.js';

/** name: the data-step-buttons value (tests find the row by it); go(n). */
export function createStepButtons(name, go) {
  const buttons = ['first', 'prev', 'next', 'last'].map((move) => h('button', { type: 'button', className: 'choice', dataset: { move } }));
  const where = h('span', { className: 'md-where', 'aria-live': 'polite' });
  const el = h('div', { className: 'md-steps', role: 'group', dataset: { stepButtons: name } }, [...buttons, where]);
  let at = 1;
  let count = 1;
  const target = (move) => ({ first: 1, prev: at - 1, next: at + 1, last: count })[move];
  const to = (n) => {
    const next = Math.min(count, Math.max(1, n));
    if (next !== at) go(next);
  };
  el.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-move]');
    if (button) to(target(button.dataset.move));
  });
  el.addEventListener('keydown', (event) => {
    const move = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' }[event.key];
    if (!move) return;
    event.preventDefault();
    to(target(move));
  });
  return {
    el,
    /** step: 1-based; label: the group's name; text: where we are; t for the buttons. */
    render(step, steps, label, text, t) {
      at = step;
      count = steps;
      el.setAttribute('aria-label', label);
      for (const button of buttons) {
        setText(button, t(`modern.step.${button.dataset.move}`));
        const disabled = button.dataset.move === 'first' || button.dataset.move === 'prev' ? at <= 1 : at >= count;
        // (never disabled while focused: the focus would be lost; a step past the end does nothing)
        button.setAttribute('aria-disabled', disabled ? 'true' : 'false');
      }
      setText(where, text);
    },
  };
}
