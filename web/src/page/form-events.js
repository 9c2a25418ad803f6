// The form's own controls, joined to the store: each input dispatches its field (and the X editor's
// part of the change); nothing here computes or draws.
import { snapHeads } from '../state/validate.js';
import { parseWholeNumber } from '../state/parse.js';
import { readDraft } from '../views/controls.js';

const CORE_FIELDS = { sentence: 'sentence', 'd-model': 'dModel', heads: 'heads', scale: 'scale', seed: 'seed', 'embeddings-text': 'embeddingsText' };

// No handler may throw past this point: an unexpected error becomes a message, the page stays.
export function guarded(notice) {
  return (handler) => (event) => {
    try {
      handler(event);
    } catch (error) {
      console.error(error); // a bug: said in the console too, where a developer (and the tests) see it
      notice({ key: 'error.unexpected', params: { message: error?.message ?? String(error) } });
    }
  };
}

export function installFormEvents({ form, headChoices, store, embeddings, guard }) {
  const dispatch = (partial) => store.dispatch(partial, { from: 'form' });
  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener(
    'input',
    guard((event) => {
      const target = event.target;
      const field = CORE_FIELDS[target.id] ?? (target.name === 'weights' ? 'weights' : target.name === 'embeddings' ? 'embeddingsMode' : null);
      if (field) dispatch(embeddings.changed(field, readDraft(form)[field]));
      else if (target.name === 'tokenization') dispatch(embeddings.retokenized());
    }),
  );

  // When d_model is committed (blur, Enter, spinner), heads move to a divisor of it.
  form.addEventListener(
    'change',
    guard((event) => {
      if (event.target.id !== 'd-model') return;
      const dModel = parseWholeNumber(event.target.value);
      const headsNow = parseWholeNumber(form.querySelector('#heads').value);
      if (dModel && headsNow && dModel % headsNow !== 0) dispatch({ heads: String(snapHeads(dModel, headsNow)) });
    }),
  );

  headChoices.addEventListener(
    'click',
    guard((event) => {
      const button = event.target.closest('button[data-heads]');
      if (button) dispatch({ heads: button.dataset.heads });
    }),
  );
}
