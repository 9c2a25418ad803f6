// <attention-playground preset="journey" lang="zh-CN"></attention-playground>
//
// The custom element that course pages load with one <script type="module">. Each element owns a
// shadow root holding an iframe of the playground in embed mode: the iframe is a separate
// document, so two elements on a page share no state, and neither their styles nor the host's
// cross the shadow boundary. The iframe reports its height (embed/protocol.js) and the element
// fits it. Attributes (docs/embedding.md):
//   preset      an example of the playground (default: the playground's default)
//   lang        'en' or 'zh-CN'
//   link        a playground link (e.g. from "Copy link"); preset/lang/hide override it
//   hide        controls to hide, separated by spaces or commas: "heads mask"
//   hide-prose  present → the explanations are hidden
//   src         the playground page (default: index.html next to this script)
//   height      the height before the first report, in px (default 480)
import { embedFragment, makeMessage, readMessage } from './protocol.js';

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
  #onMessage = (event) => {
    if (!this.#frame || event.source !== this.#frame.contentWindow) return;
    const message = readMessage(event.data);
    if (!message) return;
    if (message.height !== undefined) {
      this.#frame.style.height = `${Math.max(80, message.height)}px`;
    }
    if (message.link) this.dataset.link = message.link;
    this.dispatchEvent(new CustomEvent(`attention-playground-${message.type}`, { detail: message }));
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
      this.#frame.contentWindow?.postMessage(makeMessage('request-height'), '*');
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

  #render() {
    const page = new URL(this.getAttribute('src') || DEFAULT_PAGE, this.getAttribute('src') ? document.baseURI : HERE);
    const fragment = embedFragment({
      link: this.getAttribute('link') ?? '',
      preset: this.getAttribute('preset') ?? '',
      lang: this.getAttribute('lang') ?? '',
      hide: (this.getAttribute('hide') ?? '').split(/[\s,]+/).filter(Boolean),
      hideProse: this.hasAttribute('hide-prose'),
    });
    page.hash = fragment;
    const height = Number.parseInt(this.getAttribute('height') ?? '', 10);
    if (!this.#frame.style.height) this.#frame.style.height = `${Number.isFinite(height) && height > 0 ? height : 480}px`;
    const title = this.getAttribute('lang') === 'zh-CN' ? '注意力机制演练场' : 'Attention playground';
    this.#frame.title = title;
    if (this.#frame.src !== page.href) this.#frame.src = page.href;
  }
}

if (!customElements.get('attention-playground')) {
  customElements.define('attention-playground', AttentionPlaygroundElement);
}

export { AttentionPlaygroundElement };
