// The postMessage protocol between an embedded playground (an iframe in embed mode) and the page
// that holds it. docs/embedding.md documents it for course authors. No DOM here.
//
// Every message is a plain object { protocol: 'attention-playground', version: 1, type, … }:
//   embed → host  { type: 'ready',  height, link }  once, when the first result is on screen
//   embed → host  { type: 'resize', height }        whenever the content's height changes
//   embed → host  { type: 'state',  link }          after each change: the full-page link
//   host → embed  { type: 'request-height' }        asks for a 'resize' now
// height: CSS pixels of the embed's content; link: an http(s) or file URL of the full
// playground showing the same state. Unknown fields are ignored (later versions may add some);
// anything else — another protocol, a wrong type, a bad height or link — is not a message of ours.
export const PROTOCOL = 'attention-playground';
export const PROTOCOL_VERSION = 1;

const FROM_EMBED = new Set(['ready', 'resize', 'state']);
const FROM_HOST = new Set(['request-height']);
export const MESSAGE_TYPES = Object.freeze([...FROM_EMBED, ...FROM_HOST]);

export const MAX_HEIGHT = 100000;
const MAX_LINK = 4_000_000;

/** The message object for `type` with its fields (height is rounded up to whole pixels). */
export function makeMessage(type, { height, link } = {}) {
  if (!MESSAGE_TYPES.includes(type)) throw new Error(`unknown message type ${type}`);
  const message = { protocol: PROTOCOL, version: PROTOCOL_VERSION, type };
  if (height !== undefined) message.height = Math.min(MAX_HEIGHT, Math.max(0, Math.ceil(height)));
  if (link !== undefined) message.link = String(link);
  return message;
}

// A link a host may put in an href: http, https or file only (never javascript: or data:).
export function safeLink(text) {
  if (typeof text !== 'string' || text.length > MAX_LINK) return null;
  try {
    const url = new URL(text);
    return ['http:', 'https:', 'file:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * event.data → { type, height?, link? } for a valid message of this protocol, else null.
 * Never throws, whatever `data` is.
 */
export function readMessage(data) {
  try {
    if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
    if (data.protocol !== PROTOCOL) return null;
    if (!Number.isInteger(data.version) || data.version < 1) return null;
    if (typeof data.type !== 'string' || !MESSAGE_TYPES.includes(data.type)) return null;
    const message = { type: data.type };
    if (data.type === 'ready' || data.type === 'resize') {
      const { height } = data;
      if (typeof height !== 'number' || !Number.isFinite(height) || height < 0 || height > MAX_HEIGHT) return null;
      message.height = Math.ceil(height);
    }
    if (data.type === 'ready' || data.type === 'state') {
      const link = safeLink(data.link);
      if (link === null) return null;
      message.link = link;
    }
    return message;
  } catch {
    return null; // e.g. a Proxy or a getter that throws
  }
}

// The fragment of an embed link built from a custom element's attributes (see element.js):
// { link?, preset?, lang?, hide?: string[], hideProse? } → 'v=1&…&embed=1&…' (no '#').
// `link` is a playground link or fragment; the other attributes override what it says.
export function embedFragment({ link = '', preset = '', lang = '', hide = [], hideProse = false } = {}) {
  const text = String(link);
  const hashAt = text.indexOf('#');
  const fragment = hashAt >= 0 ? text.slice(hashAt + 1) : text.includes('=') ? text : '';
  const pairs = new Map();
  for (const part of fragment.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    if (!pairs.has(name)) pairs.set(name, eq < 0 ? '' : part.slice(eq + 1));
  }
  const set = (name, value) => pairs.set(encodeURIComponent(name), encodeURIComponent(value));
  if (preset) set('preset', preset);
  if (lang) set('lang', lang);
  if (!pairs.has('v')) pairs.set('v', '1');
  set('embed', '1');
  for (const name of hide) if (/^[A-Za-z][\w-]{0,40}$/.test(name)) set(`${name}_hide`, '1');
  if (hideProse) set('prose_hide', '1');
  // `preset` and `v` first, as the playground writes them.
  const order = ['preset', 'v'];
  const names = [...order.filter((n) => pairs.has(n)), ...[...pairs.keys()].filter((n) => !order.includes(n))];
  return names.map((name) => `${name}=${pairs.get(name)}`).join('&');
}
