// The step-through controls: previous / play / next, "all steps", and one button per step.
// Playing moves one step every THRESHOLDS.playStepMs and stops at the last step; it is not page state.
import { h, setAttr, setText } from '../render/dom.js';
import { drawing } from '../render/scheduler.js';
import { THRESHOLDS } from '../render/thresholds.js';
import { neighbourStep, STEPS, stepIndex } from './steps.js';

/** callbacks: { setStep(id), t() } → { el, update(step, t), stop() } */
export function createStepper(callbacks) {
  const prev = h('button', { type: 'button', className: 'nav', id: 'step-prev', dataset: { i18n: 'stepper.prev' } });
  const play = h('button', { type: 'button', className: 'nav', id: 'step-play', 'aria-pressed': 'false' });
  const next = h('button', { type: 'button', className: 'nav', id: 'step-next', dataset: { i18n: 'stepper.next' } });
  const all = h('button', { type: 'button', className: 'nav all', id: 'step-all', dataset: { i18n: 'stepper.all' } });
  const chips = STEPS.map((step, k) =>
    h('li', {}, [
      h('button', { type: 'button', className: 'step-chip', dataset: { step: step.id } }, [
        h('span', { className: 'n', text: String(k + 1) }),
        h('span', { className: 'label', dataset: { i18n: `step.${step.id}.short` } }),
      ]),
    ]),
  );
  const el = h('div', { className: 'stepper-inner' }, [
    h('div', { className: 'stepper-buttons' }, [prev, play, next, all]),
    h('ol', { className: 'step-chips' }, chips),
  ]);

  let current = 'all';
  let timer = null; // the play key while playing
  const playKey = { lessonPlay: true };
  let t = callbacks.t();

  function stop() {
    if (timer !== null) drawing.cancel(timer);
    timer = null;
    renderPlay();
  }

  function renderPlay() {
    setText(play, t(timer === null ? 'stepper.play' : 'stepper.pause'));
    setAttr(play, 'aria-pressed', timer === null ? 'false' : 'true');
  }

  function go(id) {
    callbacks.setStep(id);
  }

  prev.addEventListener('click', () => {
    stop();
    go(neighbourStep(current, -1));
  });
  next.addEventListener('click', () => {
    stop();
    go(neighbourStep(current, 1));
  });
  all.addEventListener('click', () => {
    stop();
    go('all');
  });
  play.addEventListener('click', () => {
    if (timer !== null) {
      stop();
      return;
    }
    // From the last step or from "all", playing starts at the first step.
    const last = STEPS[STEPS.length - 1].id;
    if (current === 'all' || current === last) go(STEPS[0].id);
    timer = playKey;
    drawing.every(playKey, THRESHOLDS.playStepMs, () => {
      if (current === last) {
        stop();
        return;
      }
      go(neighbourStep(current, 1));
    });
    renderPlay();
  });
  el.addEventListener('click', (event) => {
    const chip = event.target.closest('button[data-step]');
    if (!chip) return;
    stop();
    go(chip.dataset.step);
  });

  function update(step, translator) {
    current = step;
    t = translator;
    for (const node of el.querySelectorAll('[data-i18n]')) setText(node, t(node.dataset.i18n));
    renderPlay();
    const index = stepIndex(step);
    if (prev.disabled !== (index === 0)) prev.disabled = index === 0;
    if (next.disabled !== (index === STEPS.length - 1)) next.disabled = index === STEPS.length - 1;
    setAttr(all, 'aria-pressed', step === 'all' ? 'true' : 'false');
    for (const chip of el.querySelectorAll('button[data-step]')) {
      if (chip.dataset.step === step) setAttr(chip, 'aria-current', 'step');
      else chip.removeAttribute('aria-current');
    }
  }

  return { el, update, stop, isPlaying: () => timer !== null };
}
