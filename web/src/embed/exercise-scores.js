// Exercise scores leave an embed as its state does: only to the origin of a parent that asked
// ('request-exercise'). The latest score waits for that request, so a host that asks late loses none.
import { EXERCISE_SCORE, makeMessage } from './protocol.js';

/** parent: the window that holds the embed. → { post(score), asked(origin) } */
export function createScorePoster(parent) {
  let latest = null; // { exercise, answered, correct, total }
  let origin = null; // of the last request-exercise

  const send = () => {
    if (latest === null || origin === null) return;
    try {
      parent.postMessage(makeMessage(EXERCISE_SCORE, latest), origin);
    } catch {
      origin = null; // an origin postMessage cannot address
    }
  };

  return {
    /** Keeps `score` as the latest, and sends it if a host has asked. */
    post({ exercise, answered, correct, total }) {
      latest = { exercise, answered, correct, total };
      send();
    },
    /** The parent asked from `from` (event.origin): the latest score now, and every later one, go there. */
    asked(from) {
      if (typeof from !== 'string' || from === 'null') return; // an opaque origin cannot be addressed
      origin = from;
      send();
    },
  };
}
