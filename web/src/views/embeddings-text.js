// The embeddings editor's text box, when X is edited in the lesson: the new rows reach validation
// and the engine as numbers at once (main.js), and the text box gets their text after the frame
// that shows the edit, in idle time, or at once when the reader is about to type in it. Writing 32
// lines of 16 numbers into it and parsing them back took about 1.5 ms of an edit of X at T = 32,
// d_model = 16, and laying out and painting the text box again about 1 ms more (2026-12-01).
import { formatMatrixText, roundForEditor } from '../state/parse.js';
import { frameComing, requestIdle, whenFrameIsOut } from './idle.js';

export function createEmbeddingsText(textarea) {
  let ahead = null; // rows the text box does not show yet
  let asked = false;

  function write() {
    if (!ahead) return;
    textarea.value = formatMatrixText(ahead);
    ahead = null;
  }

  textarea.addEventListener('focusin', write);

  return {
    /** Keeps finite `rows` for the text box, to be written after the frame; returns them as its
     *  text will hold them (4 decimals), which is what the page computes with. */
    writeLater(rows) {
      ahead = rows.map((row) => row.map(roundForEditor));
      frameComing(); // (idle jobs wait for the frame that shows the edit)
      if (!asked) {
        asked = true;
        whenFrameIsOut(() => requestIdle(() => {
          asked = false;
          write();
        }, { timeout: 500 }));
      }
      return ahead;
    },
    /** The rows the text box does not show yet, or null. */
    get ahead() {
      return ahead;
    },
    /** Writes them now: before anything reads the text. */
    write,
    /** Forgets them: the text box is written anew (a typed text, a loaded link). */
    drop() {
      ahead = null;
    },
  };
}
