// What the first screen says besides the attention: the message under the control a problem names,
// the preset's note, the settings' one line, and the tokens and head choices that follow what the
// reader typed, valid or not.
import { PRESETS } from '../state/presets.js';
import { tokenize } from '../state/parse.js';
import { isPresetState } from '../state/url.js';
import { tokenCountKey } from '../tokens/tokenize-control.js';
import { setAlternatives, setHidden, setText } from '../render/dom.js';
import { markInvalid, renderHeadChoices, renderTokens, syncEnabled } from '../views/controls.js';
import { renderSettingsSummary } from '../views/settings-summary.js';
import { placeMessage, renderMessage } from '../views/status.js';

/** deps: { form, nodes: { message, presetNote, summary, tokenCount, tokenChips, headChoices }, t(), presetId() } */
export function createMessages(deps) {
  const { form, nodes } = deps;

  return {
    /** error: the current problem ({ key, params, field }); notice: a one-off remark; kept: a result stays on screen. */
    render({ error, notice, kept }) {
      const t = deps.t();
      const lines = [];
      if (error) {
        lines.push(t(error.key, error.params));
        if (kept) lines.push(t('error.kept'));
      }
      if (notice) lines.push(t(notice.key, notice.params));
      renderMessage(nodes.message, lines);
      placeMessage(nodes.message, form, markInvalid(form, error?.field ?? null, 'message'));
    },

    /** What depends on the state on screen: the preset's note and the settings' line. A preset's
     *  note, once something is changed, stays where it is, saying so (both texts in one grid cell:
     *  switching moves nothing). */
    renderState(state) {
      const t = deps.t();
      const preset = PRESETS[deps.presetId()];
      setHidden(nodes.presetNote, !(preset?.noteKey && state));
      if (!nodes.presetNote.hidden) {
        const text = t(preset.noteKey);
        setAlternatives(nodes.presetNote, [text, t('preset.changed', { note: text })], isPresetState(deps.presetId(), state) ? 0 : 1);
      }
      renderSettingsSummary(nodes.summary, state, t);
    },

    /** What follows the typed values at once: the token count and chips, the head choices. */
    renderDraft(draft) {
      const t = deps.t();
      const tokens = tokenize(draft.sentence ?? '', draft.tokenization);
      setText(nodes.tokenCount, t(tokenCountKey(draft.tokenization), { T: tokens.length }));
      renderTokens(nodes.tokenChips, tokens, t);
      renderHeadChoices(nodes.headChoices, String(draft.dModel ?? ''), String(draft.heads ?? ''));
      syncEnabled(form);
      return tokens;
    },
  };
}
