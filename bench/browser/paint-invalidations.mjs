// What an interaction has Chromium paint again: a figures-only diagnostic, not a test. Repeats an
// interaction (a body of JS run in the page, `i` = repetition, with the helpers of
// lesson-page-helpers.mjs) and prints, per repetition, how many display items Chromium
// invalidated and the time of its Layout, PrePaint, Paint, Layerize and Commit, then the most
// frequent invalidated items by kind and reason. A count, unlike a time, does not depend on how
// busy the machine is: "geometry" means the item moved and was recorded again at its new place.
//   DIST=/tmp/dist-x node bench/browser/paint-invalidations.mjs '#preset=journey' 'JS body' [repeat]
// SHOW=<selector>: the element scrolled to the middle of the window first (the control acted on:
// what is off screen is not painted); PREP='JS body': run once before, untraced (e.g. select a
// cell first); EXTRA_CSS='…' adds a style sheet to try a rule without a build; TOP=<n> items
// listed (20); FRAME=1 counts only the frame that shows each change (from the interaction to the
// end of the first Commit after it), not what the page put off until after that frame.
import { dist as defaultDist, openLessonPage } from '../../tests/browser/harness.mjs';
import { interactionSource } from './lesson-page-helpers.mjs';

const [hash = '', body = '', repeatArg = '3'] = process.argv.slice(2);
const repeat = Number(repeatArg);
const { server, browser, page } = await openLessonPage(process.env.DIST ?? defaultDist, hash);
await page.mouse.move(0, 0); // where no figure comes under it
if (process.env.EXTRA_CSS) await page.addStyleTag({ content: process.env.EXTRA_CSS });
if (process.env.SHOW) await page.evaluate((selector) => document.querySelector(selector).scrollIntoView({ block: 'center' }), process.env.SHOW);
if (process.env.PREP) await page.evaluate(`${interactionSource(process.env.PREP)}(0)`);
await page.waitForTimeout(800);
const cdp = await page.context().newCDPSession(page);
const events = [];
cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
const traced = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
await cdp.send('Tracing.start', {
  categories: 'blink.user_timing,devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-blink.invalidation,blink',
  transferMode: 'ReportEvents',
});
// (One string for the driver to evaluate: the interaction cannot be built from its source in the page.)
async function repeatInteraction(act, repeat) {
  for (let i = 0; i < repeat; i += 1) {
    performance.mark('interaction');
    act(i);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    await new Promise((resolve) => setTimeout(resolve, 300)); // what the page put off, too
  }
}
await page.evaluate(`(${repeatInteraction})(${interactionSource(body)}, ${repeat})`);
await cdp.send('Tracing.end');
await traced;

// FRAME=1: the events from each interaction's mark to the end of the first Commit after it.
const starts = events.filter((e) => e.name === 'interaction').map((e) => e.ts);
const commitEnds = events
  .filter((e) => e.name === 'Commit' && e.ph === 'X')
  .map((e) => e.ts + e.dur)
  .sort((a, b) => a - b);
const frames = starts.map((start) => [start, commitEnds.find((end) => end > start) ?? Infinity]);
const counted = process.env.FRAME ? events.filter((e) => frames.some(([start, end]) => e.ts >= start && e.ts <= end)) : events;
const invalidated = counted.filter((e) => e.name === 'InvalidateDisplayItemClient');
const ms = (name) => (counted.filter((e) => e.name === name && e.ph === 'X').reduce((sum, e) => sum + e.dur, 0) / 1000 / repeat).toFixed(1);
// Elements styled and objects laid out: counts too, which the machine's speed does not change.
const count = (name, of) => Math.round(counted.filter((e) => e.name === name && e.ph === 'X').reduce((sum, e) => sum + (of(e) ?? 0), 0) / repeat);
const styled = count('UpdateLayoutTree', (e) => e.args?.elementCount);
const laidOut = count('Layout', (e) => e.args?.beginData?.dirtyObjects);
console.log(
  `per repetition${process.env.FRAME ? ' (its frame only)' : ''}: ${styled} elements styled, ${laidOut} objects laid out, ${Math.round(invalidated.length / repeat)} display items invalidated; Layout ${ms('Layout')} ms, PrePaint ${ms('PrePaint')}, Paint ${ms('Paint')}, Layerize ${ms('Layerize')}, Commit ${ms('Commit')}`,
);
// Layerize either sorts the whole page's paint into layers again (PaintArtifactCompositor::Update,
// which Chromium does when the paint chunks changed in number, bounds, opacity or properties) or
// only updates the layers that were repainted (its quick path).
const full = counted.filter((e) => e.name === 'PaintArtifactCompositor::Update' && e.ph === 'X');
console.log(
  `layerized in full ${(full.length / repeat).toFixed(1)} times per repetition (${(full.reduce((sum, e) => sum + e.dur, 0) / 1000 / repeat).toFixed(1)} ms)`,
);
const kinds = new Map();
for (const e of invalidated) {
  const key = `${e.args?.client ?? '?'} (${e.args?.reason ?? '?'})`;
  kinds.set(key, (kinds.get(key) ?? 0) + 1);
}
for (const [key, count] of [...kinds].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 20))) {
  console.log(`${(count / repeat).toFixed(1).padStart(8)}  ${key}`);
}
await browser.close();
server.close();
