// The engine config of a page state, as the page computes it (state/validate.js: the core
// fields, the lesson's and the head/cross/position fields). Kept as the one name the exports and
// the sharing tests use. No DOM.
import { toEngineConfig } from '../state/validate.js';

export const engineConfigOf = (state) => toEngineConfig(state);
