// The postMessage protocol between an embedded playground (an iframe in embed mode) and the page
// that holds it. docs/embedding.md documents it for course authors, with the origin rules. No DOM here.
//
// Every message is a plain object { protocol: 'attention-playground', version: 3, type, … }:
//   embed → host  { type: 'ready',  height }        once, when the first result is on screen
//   embed → host  { type: 'resize', height }        whenever the content's height changes
//   embed → host  { type: 'state',  link }          only in answer to 'request-state', and only
//                                                   to the origin that asked
//   embed → host  { type: 'attention-playground:exercise', exercise, answered, correct, total }
//                                                   after each answer to an exercise (exercise: its
//                                                   id), only to the origin that sent 'request-exercise'
//   embed → host  { type: 'drawn', id }             in answer to 'request-drawn' (to any origin: it
//                                                   says nothing of the state), once every part of
//                                                   the embed shows its current state
//   host → embed  { type: 'request-height' }        asks for a 'resize' now
//   host → embed  { type: 'request-drawn', id }     asks for a 'drawn' (id: a whole number, echoed)
//   host → embed  { type: 'request-state', watch }  asks for a 'state' now (watch: true → and
//                                                   after every change, until asked again)
//   host → embed  { type: 'request-exercise' }      asks for the latest score now and every later one
// height: CSS pixels of the embed's content; link: an http(s) or file URL of the full
// playground showing the same state. Unknown fields are ignored (later versions may add some);
// anything else — another protocol, a wrong type, a bad height or link — is not a message of ours.
import { EXERCISE_LIMITS } from '../state/schema.js';

export const PROTOCOL = 'attention-playground';
// 2: the state (what the reader typed) is no longer broadcast; 'ready' carries no link.
// 3: nor are exercise scores: a host asks for them with 'request-exercise'.
export const PROTOCOL_VERSION = 3;

export const EXERCISE_SCORE = 'attention-playground:exercise';
const FROM_EMBED = new Set(['ready', 'resize', 'state', 'drawn', EXERCISE_SCORE]);
const FROM_HOST = new Set(['request-height', 'request-state', 'request-drawn', 'request-exercise']);
export const MESSAGE_TYPES = Object.freeze([...FROM_EMBED, ...FROM_HOST]);

// The heights a host gives an embed: below MIN the "open in the full playground" bar alone would
// not fit; above MAX (a page of all steps at large sizes) the embed scrolls inside its frame
// rather than a hostile or broken frame making the host page kilometres long.
export const MIN_HEIGHT = 80;
export const MAX_HEIGHT = 20000;
const MAX_LINK = 4_000_000;

/** A reported height as the frame's height: whole pixels in [MIN_HEIGHT, MAX_HEIGHT]; null if not a finite number. */
export function fitHeight(height) {
  if (typeof height !== 'number' || !Number.isFinite(height)) return null;
  return Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(height)));
}

/** The message object for `type` with its fields (height is rounded up to whole pixels). */
export function makeMessage(type, { height, link, watch, id, exercise, answered, correct, total } = {}) {
  if (!MESSAGE_TYPES.includes(type)) throw new Error(`unknown message type ${type}`);
  const message = { protocol: PROTOCOL, version: PROTOCOL_VERSION, type };
  if (height !== undefined) message.height = Math.max(0, Math.ceil(height));
  if (link !== undefined) message.link = String(link);
  if (watch !== undefined) message.watch = Boolean(watch);
  if (id !== undefined) message.id = id;
  if (exercise !== undefined) Object.assign(message, { exercise: String(exercise), answered, correct, total });
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
 * The page an element's `src` names, resolved against `base` (the host document's address):
 * a URL without its fragment, or null unless it is http: or https: (javascript:, data:, blob:,
 * file:, … are refused: they would run script as the host, or give the frame an origin that
 * cannot be told apart from any other).
 */
export function playgroundPage(src, base) {
  try {
    const url = new URL(String(src), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url;
  } catch {
    return null;
  }
}

/** `link` if it is a link to `page` (same origin, path and query; any fragment), else null. */
export function linkToPage(link, page) {
  const safe = safeLink(link);
  if (safe === null || !page) return null;
  const url = new URL(safe);
  url.hash = '';
  return url.href === new URL(page).href.split('#')[0] ? safe : null;
}

// An exercise's id as the page writes it (exercise/progress.js: a hash of its text).
const EXERCISE_ID = /^[0-9a-f]{8}$/;

/**
 * { exercise, answered, correct, total } of a score the playground could have posted, else null:
 * whole numbers with 0 ≤ correct ≤ answered ≤ total, 1 ≤ total ≤ EXERCISE_LIMITS.questions (a
 * score follows an answer to one of its questions). Each field is read once: a getter cannot pass
 * the checks with one value and hand over another.
 */
export function readScore(data) {
  if (!data || typeof data !== 'object') return null;
  const { exercise, answered, correct, total } = data;
  if (typeof exercise !== 'string' || !EXERCISE_ID.test(exercise)) return null;
  if (![answered, correct, total].every(Number.isInteger)) return null;
  if (correct < 0 || correct > answered || answered > total || total < 1 || total > EXERCISE_LIMITS.questions) return null;
  return { exercise, answered, correct, total };
}

/**
 * event.data → { type, height?, link?, watch?, id?, exercise?, answered?, correct?, total? } for a
 * valid message of this protocol, else null. A height is any finite number, given back fitted
 * (fitHeight); a score is one readScore accepts. Never throws, whatever `data` is.
 */
export function readMessage(data) {
  try {
    if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
    if (data.protocol !== PROTOCOL) return null;
    if (!Number.isInteger(data.version) || data.version < 1) return null;
    if (typeof data.type !== 'string' || !MESSAGE_TYPES.includes(data.type)) return null;
    const message = { type: data.type };
    if (data.type === 'ready' || data.type === 'resize') {
      const height = fitHeight(data.height);
      if (height === null) return null;
      message.height = height;
    }
    if (data.type === 'state') {
      const link = safeLink(data.link);
      if (link === null) return null;
      message.link = link;
    }
    if (data.type === 'request-state') message.watch = data.watch === true;
    if (data.type === 'drawn' || data.type === 'request-drawn') {
      if (!Number.isSafeInteger(data.id) || data.id < 0) return null;
      message.id = data.id;
    }
    if (data.type === EXERCISE_SCORE) {
      const score = readScore(data);
      if (score === null) return null;
      Object.assign(message, score);
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
