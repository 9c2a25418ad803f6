// <attention-playground preset="journey" lang="zh-CN"></attention-playground>
//
// The custom element that course pages load with one <script type="module">. Each element owns a
// shadow root holding an iframe of the playground in embed mode: the iframe is a separate
// document, so two elements on a page share no state, and neither their styles nor the host's
// cross the shadow boundary. The iframe reports its height (embed/protocol.js) and the element
// fits it; it asks for the state (data-link) and for exercise scores (the `exercise` event).
// Attributes (docs/embedding.md):
//   preset      an example of the playground (default: the playground's default)
//   lang        'en' or 'zh-CN'
//   link        a playground link (e.g. from "Copy link"); preset/lang/hide override it
//   hide        controls to hide, separated by spaces or commas: "heads mask"
//   hide-prose  present → the explanations are hidden
//   src         the playground page: http:, https: or relative (default: index.html next to
//               this script); anything else is refused, see #render
//   height      the height before the first report, in px (default 480)
//
// A CMS may let authors write this element, so nothing an author or the framed page does may
// run script in the host or write outside the element: `src` is checked, and messages are read
// only from the element's own frame showing a page of the origin `src` names.
import { EXERCISE_SCORE, embedFragment, fitHeight, linkToPage, makeMessage, playgroundPage, readMessage } from './protocol.js';

// This file is dist/attention-playground.js next to dist/index.html once built, and
// web/src/embed/element.js under the dev server.
const HERE = import.meta.url;
const DEFAULT_PAGE = HERE.includes('/src/embed/') ? '../../index.html' : './index.html';

const STYLE = `
:host { display: block; contain: content; }
:host([hidden]) { display: none; }
iframe { display: block; width: 100%; border: 0; background: transparent; color-scheme: normal; }
`;

class AttentionPlaygroundElement extends HTMLElement {
  static observedAttributes = ['preset', 'lang', 'link', 'hide', 'hide-prose', 'src', 'height'];

  #frame;
  #page = null; // the URL (no fragment) of the page the frame was given
  #ready = null; // resolves when the framed page is ready (its first result on screen)
  #readyNow = () => {};
  #drawnWaiting = new Map(); // id → resolve of whenDrawn()
  #nextId = 1;
  #refusedSrc = null; // the last refused `src`, reported once

  #onMessage = (event) => {
    if (!this.#frame || event.source !== this.#frame.contentWindow) return;
    // The frame may have navigated (a link inside it, or a redirect) to a page of another origin.
    if (!this.#page || event.origin !== this.#page.origin) return;
    const message = readMessage(event.data);
    if (!message) return;
    if (message.link !== undefined) {
      message.link = linkToPage(message.link, this.#page);
      if (message.link === null) return; // not a playground link: nothing to show the host
    }
    if (message.height !== undefined) this.#frame.style.height = `${message.height}px`;
    if (message.type === 'ready') {
      this.#askForStateAndScores();
      this.#readyNow();
    }
    if (message.type === 'drawn') {
      this.#drawnWaiting.get(message.id)?.();
      this.#drawnWaiting.delete(message.id);
    }
    if (message.link) this.dataset.link = message.link;
    const name = message.type === EXERCISE_SCORE ? 'exercise' : message.type;
    this.dispatchEvent(new CustomEvent(`attention-playground-${name}`, { detail: message }));
  };

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = STYLE;
    this.#frame = document.createElement('iframe');
    this.#frame.setAttribute('part', 'frame');
    this.#frame.title = 'Attention playground';
    this.#frame.addEventListener('load', () => {
      this.#post(makeMessage('request-height'));
      this.#askForStateAndScores();
    });
    root.append(style, this.#frame);
  }

  connectedCallback() {
    window.addEventListener('message', this.#onMessage);
    this.#render();
  }

  disconnectedCallback() {
    window.removeEventListener('message', this.#onMessage);
  }

  attributeChangedCallback() {
    if (this.isConnected) this.#render();
  }

  /** The URL the iframe shows. */
  get playgroundUrl() {
    return this.#frame.src;
  }

  /**
   * Resolves once the framed playground shows its current state, every part drawn: for a course
   * page that takes a screenshot or scrolls to a part after setting attributes.
   */
  async whenDrawn() {
    await this.#ready;
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#drawnWaiting.set(id, resolve);
      this.#post(makeMessage('request-drawn', { id }));
    });
  }

  // Again at 'ready': the frame may not listen yet when it has loaded.
  #askForStateAndScores() {
    this.#post(makeMessage('request-state', { watch: true })); // for data-link
    this.#post(makeMessage('request-exercise')); // for the exercise event
  }

  // Only to the origin of the page the frame was given: if it is showing another, the browser drops it.
  #post(message) {
    if (this.#page) this.#frame.contentWindow?.postMessage(message, this.#page.origin);
  }

  // The page `src` names, or the default page (and a warning and an error event) when `src` is
  // not http(s).
  #chosenPage() {
    const src = this.getAttribute('src');
    if (src) {
      const page = playgroundPage(src, document.baseURI);
      if (page) return page;
      if (src !== this.#refusedSrc) {
        this.#refusedSrc = src;
        const reason = 'src must be an http:, https: or relative address';
        console.warn(`<attention-playground>: src refused (${reason}); showing the default playground.`, src);
        this.dispatchEvent(new CustomEvent('attention-playground-error', { detail: { type: 'error', reason, src } }));
      }
    }
    return new URL(DEFAULT_PAGE, HERE);
  }

  #render() {
    const page = this.#chosenPage();
    this.#page = playgroundPage(page.href); // (null for a file: default page: no messages then)
    page.hash = embedFragment({
      link: this.getAttribute('link') ?? '',
      preset: this.getAttribute('preset') ?? '',
      lang: this.getAttribute('lang') ?? '',
      hide: (this.getAttribute('hide') ?? '').split(/[\s,]+/).filter(Boolean),
      hideProse: this.hasAttribute('hide-prose'),
    });
    const height = fitHeight(Number.parseInt(this.getAttribute('height') ?? '', 10));
    if (!this.#frame.style.height) this.#frame.style.height = `${height ?? 480}px`;
    const title = this.getAttribute('lang') === 'zh-CN' ? '注意力机制演练场' : 'Attention playground';
    this.#frame.title = title;
    if (this.#frame.src !== page.href) {
      this.#ready = new Promise((resolve) => (this.#readyNow = resolve));
      this.#frame.src = page.href;
    }
  }
}

if (!customElements.get('attention-playground')) {
  customElements.define('attention-playground', AttentionPlaygroundElement);
}

export { AttentionPlaygroundElement };
