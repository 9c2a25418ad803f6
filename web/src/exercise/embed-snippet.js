// What a course author pastes: an iframe of the playground and the script docs/embedding.md asks
// of a host (messages only from that frame and the playground's origin, heights kept between
// MIN_HEIGHT and MAX_HEIGHT), and for an exercise the request for its scores and the score shown
// as text under the frame. Plain ES5 in the output: course pages and LMS editors run anything.
// No DOM.
import { EXERCISE_LIMITS } from '../state/schema.js';
import { EXERCISE_SCORE, MAX_HEIGHT, MIN_HEIGHT, PROTOCOL, PROTOCOL_VERSION } from '../embed/protocol.js';

const escapeAttribute = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

// A value inside <script>: JSON, with "<" escaped so that no text can close the element.
const js = (value) => JSON.stringify(value).replace(/</g, '\\u003c');

const frameTag = (src, title, id) =>
  `<iframe${id ? ` id="${id}"` : ''} src="${escapeAttribute(src)}" title="${escapeAttribute(title)}" style="width:100%;height:640px;border:0" loading="lazy"></iframe>`;

const clamp = `Math.min(${MAX_HEIGHT}, Math.max(${MIN_HEIGHT}, Math.ceil(d.height)))`;

/** The playground's origin a snippet listens to, or null for a page that has none (file:). */
export function playgroundOrigin(src) {
  try {
    const { origin } = new URL(src);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** The iframe, and the lines that fit it to its content (docs/embedding.md, section 2). */
export function iframeSnippet(src, title) {
  const origin = playgroundOrigin(src);
  if (origin === null) return frameTag(src, title); // (no origin to check: the frame keeps its height)
  return [
    frameTag(src, title),
    '<script>',
    'addEventListener("message", function (e) {',
    '  var d = e.data;',
    `  if (e.origin !== ${js(origin)} || !d || d.protocol !== "${PROTOCOL}") return;`,
    '  if (typeof d.height !== "number" || !isFinite(d.height)) return;',
    '  document.querySelectorAll("iframe").forEach(function (f) {',
    `    if (f.contentWindow === e.source) f.style.height = ${clamp} + "px";`,
    '  });',
    '});',
    '</script>',
  ].join('\n');
}

// A text with {answered}, {correct} and {total} as a JS expression over the message `d`.
function scoreExpression(template) {
  return template
    .split(/(\{(?:answered|correct|total)\})/)
    .filter((part) => part !== '')
    .map((part) => (/^\{\w+\}$/.test(part) ? `d.${part.slice(1, -1)}` : js(part)))
    .join(' + ');
}

/**
 * An exercise's frame, a line for its score and the script that asks for the scores and shows
 * them: src (the embed link), title, exercise (its id, exercise/progress.js), waiting (the line
 * before a score), score (a text with {answered}, {correct}, {total}).
 */
export function exerciseSnippet({ src, title, exercise, waiting, score }) {
  const origin = playgroundOrigin(src);
  if (origin === null) return frameTag(src, title); // (an opaque origin gets no scores)
  const id = `ap-exercise-${exercise}`;
  const max = EXERCISE_LIMITS.questions;
  return [
    frameTag(src, title, id),
    `<p><output id="${id}-score">${escapeAttribute(waiting)}</output></p>`,
    '<script>',
    '(function () {',
    `  var origin = ${js(origin)};`,
    `  var frame = document.getElementById(${js(id)});`,
    `  var out = document.getElementById(${js(`${id}-score`)});`,
    '  // The frame sends scores only to a page that asks, once it listens: ask on load and on "ready".',
    '  function ask() {',
    `    frame.contentWindow.postMessage({ protocol: "${PROTOCOL}", version: ${PROTOCOL_VERSION}, type: "request-exercise" }, origin);`,
    '  }',
    `  function count(n) { return Number.isInteger(n) && n >= 0 && n <= ${max}; }`,
    '  frame.addEventListener("load", ask);',
    '  addEventListener("message", function (e) {',
    '    var d = e.data;',
    `    if (e.source !== frame.contentWindow || e.origin !== origin || !d || d.protocol !== "${PROTOCOL}") return;`,
    `    if (typeof d.height === "number" && isFinite(d.height)) frame.style.height = ${clamp} + "px";`,
    '    if (d.type === "ready") ask();',
    `    if (d.type !== "${EXERCISE_SCORE}" || d.exercise !== ${js(exercise)}) return;`,
    '    if (!count(d.answered) || !count(d.correct) || !count(d.total) || d.total < 1 || d.correct > d.answered || d.answered > d.total) return;',
    `    out.textContent = ${scoreExpression(score)};`,
    '  });',
    '})();',
    '</script>',
  ].join('\n');
}
