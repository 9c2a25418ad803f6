// The closed settings' one line: what the attention on screen was computed with, so that the
// first screen says it without showing the whole form.
import { setText } from '../render/dom.js';
import { weightsEdited } from '../state/schema.js';

/** state: the state on screen (null before the first result); t: the translator. */
export function renderSettingsSummary(node, state, t) {
  if (!state) return;
  const edited = weightsEdited(state);
  const weights = edited
    ? t(state.train && state.trainLayer ? 'settings.trained' : 'settings.edited')
    : state.weights === 'identity'
      ? t('settings.identity')
      : t('settings.random', { seed: state.seed });
  // (RoPE and ALiBi change every score: named too, the same in both languages)
  const modern = [state.positional === 'rope' ? 'RoPE' : null, state.alibi ? 'ALiBi' : null].filter(Boolean);
  const text = t('settings.summary', { dModel: state.dModel, heads: state.heads, mask: t(`mask.kind.${state.mask}`), weights });
  setText(node, [text, ...modern].join(' · '));
}
