// Embed mode (`embed=1` in the link): a compact page without header, footer or sharing tools, an
// "open in the full playground" link on top, and the page's height reported to the page that
// holds the iframe (protocol.js, docs/embedding.md).
import { makeMessage, readMessage } from './protocol.js';

/** Turns embed mode on; returns { setLink(url), ready(url) } for the page to keep it current. */
export function enterEmbedMode(doc = document, win = window) {
  doc.documentElement.classList.add('ap-embed');
  let bar = doc.getElementById('share-embed-bar');
  if (!bar) {
    bar = doc.createElement('div');
    bar.id = 'share-embed-bar';
    bar.className = 'share-embed-bar';
    const link = doc.createElement('a');
    link.id = 'share-open-full';
    link.target = '_blank';
    link.rel = 'noopener';
    link.dataset.i18n = 'embed.openFull';
    bar.append(link);
    doc.body.prepend(bar);
  }
  const link = doc.getElementById('share-open-full');

  // Height: the content's, whenever it changes, at most once per frame.
  const inFrame = win.parent && win.parent !== win;
  const post = (type, fields) => {
    if (inFrame) win.parent.postMessage(makeMessage(type, fields), '*');
  };
  const height = () => Math.ceil(doc.documentElement.getBoundingClientRect().height);
  let last = -1;
  let queued = false;
  const report = (force = false) => {
    if (queued && !force) return;
    queued = true;
    win.requestAnimationFrame(() => {
      queued = false;
      const now = height();
      if (now !== last || force) {
        last = now;
        post('resize', { height: now });
      }
    });
  };
  if (inFrame) {
    new win.ResizeObserver(() => report()).observe(doc.documentElement);
    win.addEventListener('message', (event) => {
      if (event.source !== win.parent) return;
      if (readMessage(event.data)?.type === 'request-height') report(true);
    });
  }

  let readySent = false;
  return {
    setLink(url) {
      link.href = url;
      if (!readySent) {
        readySent = true;
        post('ready', { height: height(), link: url });
      }
      post('state', { link: url });
    },
  };
}
