// What an interaction changes in the page: a figures-only diagnostic, not a test. Does the
// interaction (a body of JS run in the page, with the helpers of lesson-page-helpers.mjs) twice to
// warm up, then once more under a MutationObserver over the body, and prints each kind of change
// (text, attribute, children added/removed) with where it happened and how often. A panel built
// anew shows as its children replaced (+n −n) where only some numbers should have changed.
//   DIST=/tmp/dist-x node bench/browser/dom-mutations.mjs '#preset=journey' '#lesson-scale' 'JS body'
// The second argument is the element scrolled to the middle of the window first (views off screen
// are updated in idle time: WAIT=<ms> (500) is how long changes are recorded after the event);
// PREP='JS body' runs once before (e.g. select a cell). A body that sets a value should set a new
// one each time (e.g. from a counter kept on window).
import { dist as defaultDist, openLessonPage } from '../../tests/browser/harness.mjs';
import { interactionSource } from './lesson-page-helpers.mjs';

const [hash = '', show = '#results', body = ''] = process.argv.slice(2);
const { server, browser, page } = await openLessonPage(process.env.DIST ?? defaultDist, hash);
await page.mouse.move(0, 0); // where no figure comes under it
await page.evaluate((selector) => document.querySelector(selector).scrollIntoView({ block: 'center' }), show);
if (process.env.PREP) await page.evaluate(`${interactionSource(process.env.PREP)}(0)`);
await page.waitForTimeout(1500);
for (let k = 0; k < 2; k += 1) {
  await page.evaluate(`${interactionSource(body)}(${k})`);
  await page.waitForTimeout(800);
}
// (One string for the driver to evaluate: the interaction cannot be built from its source in the page.)
async function recordChanges(act, wait) {
  // An element as tag#id.class (two classes), with three of its ancestors.
  const where = (node) => {
    const parts = [];
    for (let e = node.nodeType === 1 ? node : node.parentElement; e && parts.length < 4; e = e.parentElement) {
      const classes = typeof e.className === 'string' && e.className.trim() ? `.${e.className.trim().split(/\s+/).slice(0, 2).join('.')}` : '';
      parts.push(`${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${classes}`);
    }
    return parts.join(' < ');
  };
  const out = [];
  const observer = new MutationObserver((list) => {
    for (const m of list) {
      const what =
        m.type === 'attributes'
          ? `attribute ${m.attributeName}`
          : m.type === 'childList'
            ? `children +${m.addedNodes.length} −${m.removedNodes.length}`
            : 'text';
      out.push(`${what}  ${where(m.target)}`);
    }
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  act(2);
  await new Promise((resolve) => setTimeout(resolve, wait));
  observer.disconnect();
  return out;
}
const records = await page.evaluate(`(${recordChanges})(${interactionSource(body)}, ${Number(process.env.WAIT ?? 500)})`);
const counts = new Map();
for (const record of records) counts.set(record, (counts.get(record) ?? 0) + 1);
console.log(`${records.length} changes`);
for (const [record, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(5)}  ${record}`);
await browser.close();
server.close();
