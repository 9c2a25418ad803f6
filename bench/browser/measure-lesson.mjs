// How long the lesson's interactions take to reach the screen for T = 32: a measurement that
// prints figures, not a test. Run it on a quiet machine, after `npx vite build`:
//   node bench/browser/measure-lesson.mjs          (PLAYGROUND_DIST=/tmp/x for another build)
//   COMPARE=/tmp/y node bench/browser/measure-lesson.mjs    (two builds side by side: below)
//
// Each interaction is done REPEAT times inside the page, each once the previous frame is out:
//   lesson    the lesson's own share of the handlers: its User Timing measure 'lesson:render'
//             (web/src/lesson/index.js): its extra engine runs and redrawing the lesson, without
//             validation, the main engine run and the other views of the page;
//   handlers  performance.now() around dispatching the event: every handler of the page runs
//             synchronously (validation, the engine, the DOM updates), and the microtasks they
//             queued;
//   frame     wall clock until a task posted from the next requestAnimationFrame callback runs:
//             the frame that shows the change has been rendered on the main thread (style,
//             layout, paint, commit). It includes waiting for that frame's vsync (up to 16.7 ms)
//             and any task the page queued before it;
//   busy      from a Chrome trace (CDP): the main thread's working time from the event to the
//             end of that frame's Commit (where the main thread hands the frame on), i.e. the
//             "frame" figure without the idle wait for vsync: every task that ran (handlers,
//             timers the page queued, the frame's rAF callbacks, style, layout, paint, commit;
//             garbage collection on the main thread included). Tasks that run after the Commit
//             (work the page put off until the frame was out) count in "after". Split into
//             script (everything that is not one of the others), style (UpdateLayoutTree),
//             layout (Layout) and paint (PrePaint, Paint, Layerize, Commit, ...); "idle" is
//             the part of script spent in idle callbacks that ran before the frame;
//   speed     a fixed piece of arithmetic (2 million square roots) timed in the page before each
//             sample: this machine is shared and its speed changes by half from one minute to
//             the next, so figures from two runs compare only at the same speed.
//   work      without the trace: performance.now() from the event to the end of the handlers and
//             a forced style + layout, plus the rendering of the next frame, from the start of
//             its requestAnimationFrame callbacks (one asked for before the event, so it runs
//             first) to a task posted from there (it runs once style, layout, paint and commit
//             are done). No vsync wait; tasks that run between the handlers and the frame are not
//             in it (the trace's "busy" has them), nor what the frame does before its animation
//             frame callbacks: after a layout, Chromium first brings the page to PrePaint and
//             hit-tests the pointer for hover (1–3.5 ms in the lesson's steps at T = 32). So
//             "work" reads 1.4–4.2 ms under the light trace's "busy" (below; medians of 21 samples,
//             2026-11-30): a lower bound.
//   first     "busy" of the first sample alone ("work" with UNTRACED=1): the first time the page
//             does this interaction, its own code not yet compiled and optimised by the JavaScript
//             engine (code shared with the interactions measured before it is). Medians hide it;
//             it was 1.1–2.2 times the median at T = 32 (2026-12-01).
// The trace costs something itself: with it on, the handlers took about 8 % longer and the
// frame came about 1 ms later (temperature, 15 samples, twice each way, 2026-11-30); with the
// stack traces of DUMP also on, the style and layout after an edit of X took 6.2 ms, against
// 2 ms timed in the page without a trace. UNTRACED=1 runs without it: only "lesson",
// "handlers", "frame" and "work" are measured, and COMPARE compares "work". TRACE=light keeps a
// trace of the main thread's top-level tasks and the marks only (categories toplevel and
// blink.user_timing: no event inside a task is recorded; the handler medians were within the
// noise of an untraced run's, 2026-11-30):
// "busy" is then every task from the event to the marker task posted from the frame's
// requestAnimationFrame (that frame's rendering task included, so it ends after the Commit,
// not at it), and there is no split into script, style, layout and paint. Unlike "work", it
// counts the tasks that run between the handlers and the frame.
// "Within one frame" here: busy ≤ 16.7 ms (the median, and the 90th percentile reported beside
// it), i.e. an input that arrives at the start of a frame interval is on screen at the next vsync.
// Work a page defers to idle callbacks after that frame (views off screen) is not in it — it is
// listed separately as "after": the main thread's busy time from the end of the frame until the
// page is idle again, at least AFTER_MS later (idle jobs that wait for an idle period long enough
// for them ran past a shorter window, into the next sample's preparation), so that nothing the
// interaction caused is hidden. The next sample starts only then, so no leftover work of one
// sample lands in the next one's frame.
//
// The events are the ones a reader's input fires (click, input, change, keydown, mouseover /
// mousemove), dispatched by script so that Playwright's own work is not counted; a cell is
// addressed as a table cell (td[data-matrix]) or, for a matrix drawn on a canvas, as a point on
// it. Headless Chromium without a GPU paints in software: real browsers paint faster.
import os from 'node:os';
import path from 'node:path';
import { baseUrl, dist, launchChromium, serveStatic } from '../../tests/browser/harness.mjs';
import { interactionSource, LESSON_PAGE_HELPERS } from './lesson-page-helpers.mjs';

const REPEAT = Number(process.env.REPEAT ?? 21);
const UNTRACED = process.env.UNTRACED === '1';
const LIGHT = process.env.TRACE === 'light';
// GC=1 also records V8's garbage collection on the main thread ("gc": its share of "busy").
const GC = process.env.GC === '1';
const CATEGORIES =
  (LIGHT
    ? 'toplevel,blink.user_timing'
    : `devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing${process.env.DUMP ? ',disabled-by-default-devtools.timeline.stack' : ''}`) +
  (GC ? ',disabled-by-default-v8.gc' : '') +
  // CATEGORIES=<a,b>: more of Chromium's trace categories, for DUMP (e.g. blink,cc,v8).
  (process.env.CATEGORIES ? `,${process.env.CATEGORIES}` : '');
const AFTER_MS = 400; // the shortest "after" window
const server = await serveStatic(dist);
const base = `${baseUrl(server)}index.html`;
const browser = await launchChromium();

// Trace events that are rendering work; the rest of a task's time counts as script.
const STYLE = new Set(['UpdateLayoutTree', 'RecalculateStyles']);
const LAYOUT = new Set(['Layout']);
const IDLE = new Set(['FireIdleCallback']);
const PAINT = new Set(['PrePaint', 'Paint', 'Layerize', 'Commit', 'UpdateLayer', 'CompositeLayers', 'PaintImage', 'Decode Image']);
// V8's collections on the main thread (GC=1): a scavenge, a step of incremental marking, the
// final mark-compact; their inner phases (V8.GC_SCAVENGER_SCAVENGE…) fall inside them.
const GC_EVENTS = new Set([
  'V8.GC_SCAVENGER',
  'V8.GC_MC_INCREMENTAL',
  'V8.GC_MC_INCREMENTAL_START',
  'V8.GC_MC_INCREMENTAL_FINALIZE',
  'V8.GC_MARK_COMPACTOR',
  'V8.GC_MINOR_MARK_SWEEPER',
  'V8.GC_MINOR_MC',
]);

// In the page (one string for the driver to evaluate: the page's Content Security Policy forbids
// building the interaction from its source there): `act(i)` REPEAT times, each after the previous
// frame is out, `prepare(i)` before each, unmeasured.
async function runSamples(act, prepare, repeat, AFTER_MS) {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const idle = () => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 300 }));
  // Until the page has nothing left to do: AFTER_MS at least (its idle jobs may wait for an
  // idle period long enough for them, which comes only once the page is quiet, and the address
  // is written 250 ms after a change), then idle callbacks until one finds time to spare.
  const quiet = async () => {
    await new Promise((resolve) => setTimeout(resolve, AFTER_MS));
    for (let k = 0; k < 20; k += 1) {
      const deadline = await idle();
      if (deadline.timeRemaining() > 10) break;
    }
  };
  const out = [];
  let lesson = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntriesByName('lesson:render')) lesson += entry.duration;
  }).observe({ type: 'measure' });
  await frame();
  let sink = 0;
  for (let i = 0; i < repeat; i += 1) {
    prepare(i);
    // How fast the machine is just now (it is shared, and its speed changes by half from one
    // minute to the next): a fixed piece of arithmetic, timed.
    const c0 = performance.now();
    for (let k = 1; k < 2e6; k += 1) sink += Math.sqrt(k);
    const speed = performance.now() - c0;
    // Whatever the preparation left for later is done (before the first sample, that includes
    // what showing the step and scrolling to the target put off: the idle jobs of a step
    // switch ran into the first sample's frame otherwise, 18 ms once).
    await frame();
    if (i === 0) await quiet();
    else await idle();
    await frame();
    lesson = 0;
    // The frame that shows the change: its start (this callback, asked for before the act,
    // runs before the page's own) and the end of its rendering (a task posted from it runs
    // once the frame's style, layout, paint and commit are done).
    const rendered = new Promise((resolve) =>
      requestAnimationFrame(() => {
        const start = performance.now();
        setTimeout(() => resolve({ start, end: performance.now() }), 0);
      }),
    );
    performance.mark(`m${i}:start`);
    const t0 = performance.now();
    act(i);
    // The microtasks the handlers queued run now, as they would at the end of a real event's
    // dispatch (dispatchEvent from a script runs them only once the script is done).
    await null;
    const t1 = performance.now();
    void document.documentElement.getBoundingClientRect().height; // style + layout, as the frame would
    const t2 = performance.now();
    const rendering = await rendered;
    const t3 = performance.now();
    performance.mark(`m${i}:frame`);
    await quiet();
    performance.mark(`m${i}:idle`);
    await new Promise((resolve) => setTimeout(resolve, 0)); // let the observer report
    out.push({ handlers: t1 - t0, frame: t3 - t0, work: t2 - t0 + (rendering.end - rendering.start), lesson, speed });
  }
  if (sink === 0) out.length = 0; // (never: keeps the loop from being optimised away)
  return out;
}

// One interaction's samples (runSamples above) and their figures from the trace: the marks
// m<i>:start, m<i>:frame and m<i>:idle bound each sample.
async function measure(page, cdp, label, act, prep = '', print = true, repeat = REPEAT) {
  const events = [];
  const onData = ({ value }) => events.push(...value);
  cdp.on('Tracing.dataCollected', onData);
  const traced = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  if (!UNTRACED) await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  const samples = await page.evaluate(`(${runSamples})(${interactionSource(act, '')}, ${interactionSource(prep, '')}, ${repeat}, ${AFTER_MS})`);
  if (!UNTRACED) {
    await cdp.send('Tracing.end');
    await traced;
  }
  cdp.off('Tracing.dataCollected', onData);
  if (UNTRACED)
    for (const sample of samples)
      Object.assign(sample, { busy: NaN, script: NaN, idle: NaN, style: NaN, layout: NaN, paint: NaN, after: NaN, gc: NaN, nogc: NaN });
  else addBusy(samples, events);
  // Which samples the collector ran in, and for how long: its median is 0 when it runs in fewer than half.
  if (GC && print)
    console.log(
      `  gc > 0 in ${samples.filter((x) => x.gc > 0).length} samples: ${samples
        .filter((x) => x.gc > 0)
        .map((x) => `${x.gc.toFixed(1)} of ${x.busy.toFixed(1)}`)
        .join(', ')}`,
    );
  if (process.env.DUMP) dumpSpan(events, Number(process.env.DUMP));
  // SAMPLES=1: each sample's busy (or work) in order, to see whether alternate samples differ
  // (a switch turned on, then off).
  if (process.env.SAMPLES && print) console.log(`  samples: ${samples.map((x) => (UNTRACED ? x.work : x.busy).toFixed(1)).join(' ')}`);
  const stat = (key) => {
    const values = samples.map((s) => s[key]).sort((a, b) => a - b);
    return `${values[Math.floor(values.length / 2)].toFixed(1)} / ${values[Math.floor(values.length * 0.9)].toFixed(1)}`;
  };
  const cols = ['lesson', 'handlers', 'frame', 'busy', 'script', 'idle', 'style', 'layout', 'paint', 'after', ...(GC ? ['gc', 'nogc'] : [])];
  // The first sample on its own: the first time the page runs this interaction (its code not yet
  // optimised by the JavaScript engine, what it draws not yet cached), which the median hides.
  const first = (UNTRACED ? samples[0]?.work : samples[0]?.busy) ?? NaN;
  if (print)
    console.log(
      `${label.padEnd(54)} ${cols.map((k) => stat(k).padStart(k === 'frame' || k === 'busy' || k === 'after' || k === 'handlers' ? 14 : 12)).join('')}${stat('speed').padStart(14)}${stat('work').padStart(14)}${first.toFixed(1).padStart(8)}`,
    );
  return samples;
}

// busy / script / style / layout / paint per sample from the trace: the main thread's top-level
// tasks (RunTask) clipped to [m<i>:start, m<i>:frame]; "after": the same over [frame, idle].
function addBusy(samples, events) {
  const marks = new Map(events.filter((e) => e.cat.includes('blink.user_timing') && /^m\d+:/.test(e.name)).map((e) => [e.name, e]));
  const tid = marks.get('m0:start')?.tid;
  const main = events.filter((e) => e.ph === 'X' && e.tid === tid && e.dur !== undefined).sort((a, b) => a.ts - b.ts);
  // (the task event is RunTask in devtools.timeline, ThreadControllerImpl::RunTask in toplevel)
  const tasks = main.filter((e) => e.name === (LIGHT ? 'ThreadControllerImpl::RunTask' : 'RunTask'));
  // Time covered by events of `names` within [from, to]; nested ones (Paint in Paint, UpdateLayer
  // in Commit) count once.
  const inside = (from, to, names) => {
    let sum = 0;
    let covered = from;
    for (const e of main) {
      if (!names.has(e.name)) continue;
      const a = Math.max(e.ts, covered);
      const b = Math.min(e.ts + e.dur, to);
      if (b > a) sum += b - a;
      covered = Math.max(covered, Math.min(e.ts + e.dur, to));
    }
    return sum / 1000;
  };
  const busy = (from, to) => tasks.reduce((sum, e) => sum + Math.max(0, Math.min(e.ts + e.dur, to) - Math.max(e.ts, from)), 0) / 1000;
  // The frame's rendering ends with its Commit (the main thread hands the frame to the
  // compositor): tasks that run after it, before the marker task, are not part of that frame.
  const commits = main.filter((e) => e.name === 'Commit');
  samples.forEach((sample, i) => {
    const start = marks.get(`m${i}:start`)?.ts;
    const marker = marks.get(`m${i}:frame`)?.ts;
    const commit = commits.find((e) => e.ts > start && e.ts < marker);
    const end = commit ? Math.min(marker, commit.ts + commit.dur) : marker;
    const idle = marks.get(`m${i}:idle`)?.ts;
    if (start === undefined || end === undefined)
      return Object.assign(sample, { busy: NaN, script: NaN, idle: NaN, style: NaN, layout: NaN, paint: NaN, after: NaN, gc: NaN, nogc: NaN });
    sample.busy = busy(start, end);
    sample.after = idle === undefined ? NaN : busy(end, idle);
    if (GC) {
      sample.gc = inside(start, end, GC_EVENTS);
      sample.nogc = sample.busy - sample.gc; // what the median and 90th percentile would be without it
    }
    if (LIGHT) return Object.assign(sample, { script: NaN, idle: NaN, style: NaN, layout: NaN, paint: NaN });
    sample.style = inside(start, end, STYLE);
    sample.layout = inside(start, end, LAYOUT);
    sample.paint = inside(start, end, PAINT);
    sample.script = sample.busy - sample.style - sample.layout - sample.paint;
    // Of the script: idle callbacks that ran before the frame (views drawing in idle time that
    // started a job the input then had to wait for).
    sample.idle = inside(start, end, IDLE);
  });
}

// Debugging the busy figure: the main thread's events of sample i (DUMP=i) that last longer than
// DUMP_MIN µs (300).
function dumpSpan(events, i) {
  const mark = (n) => events.find((e) => e.name === n);
  const start = mark(`m${i}:start`);
  const end = mark(`m${i}:frame`);
  if (!start || !end) return;
  for (const e of events.filter(
    (x) =>
      x.tid === start.tid && x.ph === 'X' && x.ts + (x.dur ?? 0) >= start.ts && x.ts <= end.ts && (x.dur ?? 0) > Number(process.env.DUMP_MIN ?? 300),
  )) {
    const d = e.args?.data ?? {};
    const where =
      d.functionName !== undefined
        ? ` ${d.functionName || '(anon)'} ${String(d.url ?? '')
            .split('/')
            .pop()}:${d.lineNumber ?? ''}`
        : d.type
          ? ` ${d.type}`
          : '';
    const stack = e.args?.beginData?.stackTrace?.[0];
    const forced =
      (stack ? ` forced by ${stack.functionName} :${stack.lineNumber}` : '') +
      (e.name === 'Layout'
        ? ` ${e.args?.beginData?.dirtyObjects}/${e.args?.beginData?.totalObjects} objects`
        : e.name === 'UpdateLayoutTree'
          ? ` ${e.args?.elementCount ?? ''} elements`
          : '') +
      (e.name === 'Paint' && e.args?.data?.clip ? ` layer ${e.args.data.layerId ?? ''} clip ${e.args.data.clip.join(',')}` : '');
    console.log(`  ${((e.ts - start.ts) / 1000).toFixed(1).padStart(7)} ${((e.dur ?? 0) / 1000).toFixed(1).padStart(7)} ${e.name}${where}${forced}`);
  }
  console.log(`  ${((end.ts - start.ts) / 1000).toFixed(1).padStart(7)} end`);
}

// Small helpers the interactions use in the page: `cell(name, head, row, col)` is the element to
// fire at and the point (clientX, clientY) of that entry, for a table cell or a canvas entry.
// T=<n> measures another number of tokens (32 unless told): from 8 the matrices with a row per
// token are canvases (canvasFromTokens, render/thresholds.js); below, a page of all steps of more than 1 000
// table cells, and one step at a time a page whose largest step prints more than 150 entries of
// them (at d_model = 8 with 2 heads: every T here), are canvases too (view.js); 32 is the largest
// shown entry by entry. Entries are
// addressed with at(i, first, count): first + i % count, kept below T (at T = 32 every address
// is the one used before T could be chosen).
const T = Number(process.env.T ?? 32);
if (!Number.isInteger(T) || T < 6 || T > 32) throw new Error(`T=${process.env.T}: a whole number from 6 to 32`);
const HELPERS = `${LESSON_PAGE_HELPERS}
  // The page's own tokens where it has fewer than T (the worked example has 6, whatever T says).
  const T = Math.min(${T}, document.querySelectorAll('#token-chips .chip:not(.more)').length || ${T});
  const at = (i, first, count) => first + i % Math.max(1, Math.min(count, T - first));
  const D = Number(document.querySelector('#d-model').value); // d_model: W_Q's rows
  const H = Number(document.querySelector('#heads').value); // heads (the worked example has one)
`;

const tokens = Array.from({ length: T }, (_, i) => `t${i + 1}`).join('+');
// [label, act, prep, where]: `where` is the element the reader acts on; it is scrolled into the
// middle of the window before each sample (in the preparation), as a reader sees what they
// click. VIEW=top leaves the page scrolled to the top instead (the figures before 2026-11-30).
const INTERACTIONS = [
  [
    'hover a weight: explanation + highlights',
    `const p = cell('weights', 0, at(i, 4, 20), 2); fire(p.node, 'mouseover', p); fire(p.node, 'mousemove', p);`,
    '',
    `cell('weights', 0, at(i, 4, 20), 2).node`,
  ],
  // The pointer back on a matrix after it left them (for the panel, the controls), before anything
  // is selected (no cell is selected until the next one); on another entry than the hover's above
  // (FRESH: the same one would change nothing).
  [
    'hover after the pointer left the matrices',
    `const p = cell('weights', 0, at(i + 10, 4, 20), 2); fire(p.node, 'mouseover', p); fire(p.node, 'mousemove', p);`,
    `for (const n of [...document.querySelectorAll('#results .cg-body'), $('#results')]) n.dispatchEvent(new MouseEvent('mouseleave'));`,
    `cell('weights', 0, at(i + 10, 4, 20), 2).node`,
  ],
  // A pointer is over an entry before it clicks it (a touch fires mouseover and mousemove before
  // its click too): the preparation points at it, so the click's figure holds what the click adds.
  [
    'select a weight (click): state, URL, lab row',
    `point('weights', i % Math.min(2, H), at(i, 3, 25), 1, 'click');`,
    `point('weights', i % Math.min(2, H), at(i, 3, 25), 1, 'mouseover'); point('weights', i % Math.min(2, H), at(i, 3, 25), 1, 'mousemove');`,
    `cell('weights', i % Math.min(2, H), at(i, 3, 25), 1).node`,
  ],
  [
    'temperature slider: recompute',
    `const r = $('#lesson-tau-range'); r.value = String(-0.6 + 0.05 * i); fire(r, 'input');`,
    '',
    `$('#lesson-tau-range')`,
  ],
  [
    'naive softmax on/off: recompute + stable run',
    `const b = $('#lesson-naive'); b.checked = !b.checked; fire(b, 'change');`,
    '',
    `$('#lesson-naive')`,
  ],
  [
    'toggle a cell of M (click): recompute',
    `point('mask', null, at(i, 2, 28), at(i, 3, 28), 'click');`,
    `point('mask', null, at(i, 2, 28), at(i, 3, 28), 'mouseover'); point('mask', null, at(i, 2, 28), at(i, 3, 28), 'mousemove');`,
    `cell('mask', null, at(i, 2, 28), at(i, 3, 28)).node`,
  ],
  [
    'fill −∞ / −1e9 / 0: recompute',
    `const f = $('input[name="lesson-fill"][value="' + ['-1e9', '0', '-inf'][i % 3] + '"]'); f.checked = true; fire(f, 'change');`,
    '',
    `$('input[name="lesson-fill"]')`,
  ],
  // W_Q is a canvas from d_model = 16 (a table before 2026-12-01), edited as X is.
  [
    'edit a cell of W_Q, Enter: recompute',
    `fire(document.querySelector('#results input.cell-input'), 'keydown', { key: 'Enter' });`,
    `const p = cell('wq', null, i % Math.min(8, D), 0); if (p.node.tagName === 'TD') p.node.focus(); else fire(p.node, 'click', p); fire(p.node, 'keydown', { key: 'Enter' }); p.node.querySelector('input').value = String((i % 9) / 10);`,
    `cell('wq', null, i % Math.min(8, D), 0).node`,
    'qkv',
  ],
  // X is a canvas at T = 32 (a table before 2026-12-01): a click makes the entry the active one.
  [
    'edit a cell of X, Enter: recompute',
    `fire(document.querySelector('#results input.cell-input'), 'keydown', { key: 'Enter' });`,
    `const p = cell('x', null, at(i, 0, 30), 1); if (p.node.tagName === 'TD') p.node.focus(); else fire(p.node, 'click', p); fire(p.node, 'keydown', { key: 'Enter' }); p.node.querySelector('input').value = String((i % 9) / 10);`,
    `cell('x', null, at(i, 0, 30), 1).node`,
    'x',
  ],
];
// The lesson's other controls (EXTRA=1 adds them; EXTRA=only measures them alone). A fifth
// entry (here and above) is the step an interaction works on, shown first on the page of one step
// at a time (else the step is guessed from the code: softmax or mask).
const EXTRAS = [
  [
    'mask kind causal / window / prefix / none: recompute',
    `const f = $('input[name="lesson-mask"][value="' + ['window', 'prefix', 'none', 'causal'][i % 4] + '"]'); f.checked = true; fire(f, 'change');`,
    '',
    `$('input[name="lesson-mask"]')`,
    'mask',
  ],
  // The mask workbench's chips (the cross-attention source has padding chips too, earlier in the
  // page: until 2026-12-03 three clicks in four at T = 6 padded the source instead).
  [
    'pad a token (click its chip): recompute',
    `fire($('#mask-workbench button[data-pad="' + (T - 1 - i % 4) + '"]'), 'click');`,
    '',
    `$('#mask-workbench button[data-pad="' + (T - 1) + '"]')`,
    'mask',
  ],
  [
    'mask before / after ÷√d_k: recompute',
    `const f = $('input[name="lesson-order"][value="' + (i % 2 ? 'after' : 'before') + '"]'); f.checked = true; fire(f, 'change');`,
    '',
    `$('input[name="lesson-order"]')`,
    'mask',
  ],
  [
    '÷√d_k on/off (softmax lab): recompute',
    `const b = $('#lesson-scale'); b.checked = !b.checked; fire(b, 'change');`,
    '',
    `$('#lesson-scale')`,
    'softmax',
  ],
  // (Rows from 4 on: selecting a weight once, as FRESH does before this, leaves the lab on row 3, and
  // a first pick of row 3 changed nothing: FRESH read 1.5 ms for it until 2026-12-01.)
  ['softmax lab: pick a row', `fire($('button[data-lab-row="' + at(i, 4, 25) + '"]'), 'click');`, '', `$('#softmax-lab .lab-rows')`, 'softmax'],
  // W_O is edited on the last step, just above the head split (whose parts were all built anew
  // at every change until 2026-12-03).
  [
    'edit a cell of W_O, Enter: recompute',
    `fire(document.querySelector('#results input.cell-input'), 'keydown', { key: 'Enter' });`,
    `const p = cell('wo', null, i % Math.min(8, D), 0); if (p.node.tagName === 'TD') p.node.focus(); else fire(p.node, 'click', p); fire(p.node, 'keydown', { key: 'Enter' }); p.node.querySelector('input').value = String((i % 9) / 10);`,
    `cell('wo', null, i % Math.min(8, D), 0).node`,
    'output',
  ],
  [
    'Randomise W_Q (button): recompute',
    `fire($('button[data-tool="random"][data-target="wq"]'), 'click');`,
    '',
    `$('button[data-tool="random"][data-target="wq"]')`,
    'qkv',
  ],
];
const STEPPER = ['stepper: next / previous', `fire($(i % 2 ? '#step-prev' : '#step-next'), 'click');`, '', `$('#stepper')`];
const SHOW = process.env.VIEW !== 'top';

const pages = [
  [`T = ${T}, d_model = 8, 2 heads, one step at a time`, `#v=1&s=${tokens}&d=8&h=2&step=softmax`, true],
  [`T = ${T}, d_model = 8, 2 heads, all steps`, `#v=1&s=${tokens}&d=8&h=2`, false],
  [`T = ${T}, d_model = 16, 4 heads, all steps`, `#v=1&s=${tokens}&d=16&h=4`, false],
  // The size of the first page a visitor sees (6 tokens, state/presets.js), measured when asked.
  [`T = ${T}, d_model = 6, 2 heads, all steps`, `#v=1&s=${tokens}&d=6&h=2`, false, 'asked'],
  // The course's worked example (T = 6, d_model = 3, one head, whatever T says), when asked.
  ['the worked example, all steps', '#preset=journey', false, 'asked'],
  ['the worked example, one step at a time', '#preset=journey&step=softmax', true, 'asked'],
].filter(([title, , , asked]) => (process.env.PAGES ? process.env.PAGES.split('|').some((p) => title.includes(p)) : !asked));
// PAGES=<a>|<b> keeps the pages whose title holds one of the parts ("one step", "d_model = 16";
// "d_model = 6" and "worked example" are measured only so: the worked example one step at a time
// is the page of tables one step at a time, stepTableCells in render/thresholds.js);
// ONLY=<a>|<b> the interactions whose label holds one ("stepper|pad a token": an interaction after
// the stepper has visited other steps).

// COMPARE=<another build>: side by side in one browser, interaction by interaction, the two builds
// take turns (ROUNDS times each, REPEAT samples a turn), so that the machine's slow and fast phases
// fall on both alike; printed: each build's medians over its samples and the ratio of the busy
// medians (this build ÷ the other).
const other = process.env.COMPARE ? path.resolve(process.env.COMPARE) : null;
const otherServer = other ? await serveStatic(other) : null;
const ROUNDS = Number(process.env.ROUNDS ?? 3);
// FRESH=n: the first time each interaction is done (which the medians hide), on n pages loaded
// afresh: each page does every interaction once, in the order above (code shared with the
// interactions before is compiled by then, as for a reader), and the builds take turns page by
// page; printed: medians and 90th percentiles of those first samples. One first sample, as in
// the "first" column, is too noisy to compare two builds by.
const FRESH = Number(process.env.FRESH ?? 0);
const builds = [{ dir: dist, base }, ...(other ? [{ dir: other, base: `${baseUrl(otherServer)}index.html` }] : [])];
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(
      ' ',
    )} on ${os.cpus().length} CPUs; ${REPEAT} runs each${other ? ` × ${ROUNDS} turns` : ''}; ${builds.map((b) => b.dir).join(' against ')}; ${SHOW ? 'each target scrolled into view' : 'page at the top (VIEW=top)'}`,
);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile90 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)];
// A new page of `hash` for `build` (its context, page and CDP session kept on it).
async function openPage(build, hash) {
  build.context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  build.page = await build.context.newPage();
  build.cdp = await build.context.newCDPSession(build.page);
  await build.page.goto(`${build.base}${hash}`);
  await build.page.waitForSelector('#results section:not(.parked) [data-matrix]'); // (a parked step's are unseen)
  if (process.env.EXTRA_CSS) await build.page.addStyleTag({ content: process.env.EXTRA_CSS }); // for experiments
}

// One interaction done `repeat` times on the build's page → { samples, label } (the label with the
// count of table cells and canvases of the steps shown).
async function runInteraction(build, single, [label, act, prep, where, shownStep], repeat, print) {
  const { page, cdp } = build;
  // One step at a time: show the step the interaction works on.
  if (single) {
    const step = shownStep ?? (/lesson-tau|lesson-naive|weights/.test(act) ? 'softmax' : /mask|fill/.test(act) ? 'mask' : 'softmax');
    await page.click(`button[data-step="${step}"]`);
    // The pointer rests where no figure comes under it when the page scrolls (the window's
    // top left corner): left on the step's button it could land on a matrix once the target
    // is scrolled into view, and Chromium then fires mouseover there after a layout, a hover
    // the measured interaction did not ask for ("hover" is measured on its own).
    await page.mouse.move(0, 0);
  }
  const [cells, canvases] = await page.$$eval('#results section.lesson-step:not(.parked) :is(td[data-matrix], .cg-body)', (n) => [
    n.filter((x) => x.tagName === 'TD').length,
    n.filter((x) => x.tagName !== 'TD').length,
  ]);
  const counted = `${label} [${cells} cells, ${canvases} canvases]`;
  // HASH=1: the page's state (its link) before the interaction, to study it on its own.
  if (process.env.HASH && print) console.log(`  before "${label}": ${await page.evaluate(() => location.hash)}`);
  const show = SHOW ? `${where}.scrollIntoView({ block: 'center', inline: 'nearest' });` : '';
  return { samples: await measure(page, cdp, counted, HELPERS + act, HELPERS + show + prep, print, repeat), label: counted };
}

const figure = (sample) => (UNTRACED ? sample.work : sample.busy);
const cell = (values) => `${median(values).toFixed(1)} / ${percentile90(values).toFixed(1)}`.padStart(14);
// Each interaction's figures of this build, for the summary at the end: { page, label, median,
// p90, first } (the first sample, or in FRESH's run the median of the first times).
const measured = [];
for (const [title, hash, single] of pages) {
  const lesson = process.env.EXTRA === 'only' ? EXTRAS : process.env.EXTRA ? [...INTERACTIONS, ...EXTRAS] : INTERACTIONS;
  const interactions = (single && process.env.EXTRA !== 'only' ? [STEPPER, ...lesson] : lesson).filter(
    ([label]) => !process.env.ONLY || process.env.ONLY.split('|').some((part) => label.includes(part)),
  );
  console.log(`\n${title}`);
  if (FRESH) {
    // Each load: a new page per build (taking turns), every interaction once, in order.
    const firsts = builds.map(() => new Map()); // label → first samples
    for (let load = 0; load < FRESH; load += 1) {
      for (const [b, build] of builds.entries()) {
        await openPage(build, hash);
        for (const interaction of interactions) {
          const { samples, label } = await runInteraction(build, single, interaction, 1, false);
          firsts[b].set(label, [...(firsts[b].get(label) ?? []), samples[0]]);
        }
        await build.context.close();
      }
    }
    console.log(
      `${`first time (${UNTRACED ? 'work' : 'busy'} ms: median / 90th percentile of ${FRESH} pages)`.padEnd(54)} ${'this'.padStart(14)}${other ? ` ${'other'.padStart(14)} ${'this ÷ other'.padStart(14)}` : ''} ${'speed'.padStart(14)}`,
    );
    for (const label of firsts[0].keys()) {
      const values = firsts.map((map) => (map.get(label) ?? []).map(figure));
      const speeds = firsts.flatMap((map) => (map.get(label) ?? []).map((sample) => sample.speed));
      console.log(
        `${label.padEnd(54)} ${cell(values[0])}${other ? ` ${cell(values[1])} ${(median(values[0]) / median(values[1])).toFixed(3).padStart(14)}` : ''} ${cell(speeds)}`,
      );
      measured.push({ page: title, label, median: NaN, p90: NaN, first: median(values[0]) });
    }
    continue;
  }
  for (const build of builds) await openPage(build, hash);
  const heads = ['lesson', 'handlers', 'frame', 'busy', 'script', 'idle', 'style', 'layout', 'paint', 'after', ...(GC ? ['gc', 'nogc'] : [])];
  if (!other)
    console.log(
      `${'interaction (ms: median / 90th percentile)'.padEnd(54)} ${heads.map((k) => k.padStart(k === 'frame' || k === 'busy' || k === 'after' || k === 'handlers' ? 14 : 12)).join('')}${'speed'.padStart(14)}${'work'.padStart(14)}${'first'.padStart(8)}`,
    );
  else
    console.log(
      `${`interaction (${UNTRACED ? 'work' : 'busy'} ms: median / 90th percentile)`.padEnd(54)} ${'this'.padStart(14)} ${'other'.padStart(14)} ${'this ÷ other'.padStart(14)} ${'speed'.padStart(14)}`,
    );
  for (const interaction of interactions) {
    let counted = '';
    for (const build of builds) build.samples = [];
    for (let round = 0; round < (other ? ROUNDS : 1); round += 1) {
      for (const build of builds) {
        const { samples, label } = await runInteraction(build, single, interaction, REPEAT, !other);
        build.samples.push(...samples);
        if (build === builds[0]) counted = label; // this build's cells and canvases, not the other's
      }
    }
    const mine = builds[0].samples.map(figure);
    measured.push({ page: title, label: counted, median: median(mine), p90: percentile90(mine), first: mine[0] });
    if (other) {
      const [a, b] = builds.map((build) => build.samples.map(figure));
      const speeds = builds.flatMap((build) => build.samples.map((sample) => sample.speed));
      console.log(`${counted.padEnd(54)} ${cell(a)} ${cell(b)} ${(median(a) / median(b)).toFixed(3).padStart(14)} ${cell(speeds)}`);
    }
  }
  for (const build of builds) await build.context.close();
}

// The summary: how many of the interactions measured come within one frame (16.7 ms, the figure
// the lesson is held to), by the median, the 90th percentile and the first sample (issue 3 does
// not say which it means). Of this build (the first, with COMPARE).
const FRAME_MS = 1000 / 60;
const within = (key) => measured.filter((m) => m[key] <= FRAME_MS).length;
const largest = (key) => measured.reduce((a, b) => (b[key] > a[key] ? b : a), measured[0]);
if (measured.length > 0) {
  console.log(
    `\nwithin one frame (${FRAME_MS.toFixed(1)} ms of ${UNTRACED ? 'work' : 'busy'}), of ${measured.length} interactions on ${pages.length} page${pages.length === 1 ? '' : 's'}, T = ${T}:`,
  );
  for (const [key, name] of FRESH
    ? [['first', `first time (median of ${FRESH} fresh pages)`]]
    : [
        ['median', 'median'],
        ['p90', '90th percentile'],
        ['first', 'first sample'],
      ]) {
    const top = largest(key);
    console.log(
      `  ${name.padEnd(40)} ${String(within(key)).padStart(3)} of ${measured.length}; largest ${top[key].toFixed(1)} ms (${top.label.replace(/ \[.*/, '')}; ${top.page})`,
    );
  }
}
await browser.close();
server.close();
otherServer?.close();
