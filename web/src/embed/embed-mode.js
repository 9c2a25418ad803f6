// Embed mode (`embed=1` in the link): a compact page without header, footer or sharing tools, an
// "open in the full playground" link on top, and the page's height reported to the page that
// holds the iframe (protocol.js, docs/embedding.md).
import { createScorePoster } from './exercise-scores.js';
import { makeMessage, readMessage } from './protocol.js';
import { drawing } from '../render/scheduler.js';

/** Turns embed mode on; returns { setLink(url) } for the page to keep it current. */
export function enterEmbedMode(doc = document, win = window) {
  doc.documentElement.classList.add('ap-embed');
  let bar = doc.getElementById('share-embed-bar');
  if (!bar) {
    // A banner with the page's heading, for screen readers: the page's own header is hidden.
    bar = doc.createElement('header');
    bar.id = 'share-embed-bar';
    bar.className = 'share-embed-bar';
    const heading = doc.createElement('h1');
    heading.className = 'sr-only';
    heading.dataset.i18n = 'app.title';
    const link = doc.createElement('a');
    link.id = 'share-open-full';
    link.target = '_blank';
    link.rel = 'noopener';
    link.dataset.i18n = 'embed.openFull';
    bar.append(heading, link);
    const skip = doc.getElementById('skip-link'); // (still the first Tab stop)
    if (skip) skip.after(bar);
    else doc.body.prepend(bar);
  }
  const link = doc.getElementById('share-open-full');

  // Heights go to any origin: a course page may be served from anywhere and speaks only after
  // it has loaded, and a height says nothing of what the reader typed.
  const inFrame = win.parent && win.parent !== win;
  const postHeight = (type, height) => {
    if (inFrame) win.parent.postMessage(makeMessage(type, { height }), '*');
  };
  const height = () => Math.ceil(doc.documentElement.getBoundingClientRect().height);
  let last = -1;
  let queued = false;
  const heightKey = { embedHeight: doc };
  const report = (force = false) => {
    if (queued && !force) return;
    queued = true;
    drawing.afterFrame(
      heightKey,
      () => {
        queued = false;
        const now = height();
        if (now !== last || force) {
          last = now;
          postHeight('resize', now);
        }
      },
      { background: true },
    );
  };

  // The state (the reader's link) goes only to the parent that asked for it, and only to the
  // origin it asked from: if the parent's document has since been replaced by another
  // origin's, the browser drops the message.
  let currentLink = null;
  let asker = null; // { origin, watch } of the last request-state
  const sendState = () => {
    if (!asker || currentLink === null) return;
    try {
      win.parent.postMessage(makeMessage('state', { link: currentLink }), asker.origin);
    } catch {
      asker = null; // an origin postMessage cannot address
      return;
    }
    if (!asker.watch) asker = null;
  };
  // Exercise scores follow the same rule, to the origin of a request-exercise (exercise-scores.js).
  const scores = createScorePoster(win.parent);

  if (inFrame) {
    new win.ResizeObserver(() => report()).observe(doc.documentElement);
    win.addEventListener('message', (event) => {
      if (event.source !== win.parent) return;
      const message = readMessage(event.data);
      if (message?.type === 'request-height') report(true);
      // Drawn: when the page says so (main.js sets window.attentionPlayground), to any origin.
      if (message?.type === 'request-drawn') {
        const { id } = message;
        Promise.resolve(win.attentionPlayground?.whenDrawn()).then(() => win.parent.postMessage(makeMessage('drawn', { id }), '*'));
      }
      // An opaque origin ('null': a file:// or sandboxed host) cannot be addressed: no state.
      if (message?.type === 'request-state' && event.origin !== 'null') {
        asker = { origin: event.origin, watch: message.watch };
        sendState();
      }
      if (message?.type === 'request-exercise') scores.asked(event.origin);
    });
  }

  let readySent = false;
  return {
    postExercise(score) {
      if (inFrame) scores.post(score);
    },
    setLink(url) {
      link.href = url;
      if (!readySent) {
        readySent = true;
        postHeight('ready', height());
      }
      if (url === currentLink) return;
      currentLink = url;
      sendState();
    },
  };
}
