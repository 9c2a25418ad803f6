// The loss and accuracy curve's geometry: points of an SVG polyline. No DOM.

/**
 * history: [{ step, loss, accuracy }]; the x axis runs from 0 to the last step, loss from 0 to its
 * largest value, accuracy from 0 to 1. → { loss, accuracy: "x,y x,y …", maxLoss, lastStep }
 */
export function curvePoints(history, { width, height }) {
  const lastStep = Math.max(1, history.at(-1)?.step ?? 1);
  const maxLoss = Math.max(1e-9, ...history.map((point) => point.loss));
  const x = (step) => ((step / lastStep) * width).toFixed(1);
  const y = (fraction) => (height - Math.min(1, Math.max(0, fraction)) * height).toFixed(1);
  return {
    loss: history.map((point) => `${x(point.step)},${y(point.loss / maxLoss)}`).join(' '),
    accuracy: history.map((point) => `${x(point.step)},${y(point.accuracy)}`).join(' '),
    maxLoss,
    lastStep,
  };
}

/** At most `max` points: every other one dropped (the first and last kept) as a long run grows. */
export function thinned(history, max = 400) {
  if (history.length <= max) return history;
  const kept = history.filter((_, i) => i % 2 === 0);
  if (kept.at(-1) !== history.at(-1)) kept.push(history.at(-1));
  return kept;
}
