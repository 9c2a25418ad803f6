// Where the time of one interaction goes: a figures-only diagnostic, not a test. Repeats an
// interaction (a body of JS run in the page, `i` = repetition) and prints (1) the Chrome trace's
// top-level events summed by name (script, style, layout, paint) and (2) the CPU profile's self
// time by function. Build without minifying to read function names:
//   npx vite build --minify false --outDir /tmp/dist-prof --emptyOutDir
//   DIST=/tmp/dist-prof node bench/browser/profile-interaction.mjs '#v=1&s=a+b' 'JS body'
import { dist as defaultDist, openLessonPage } from '../../tests/browser/harness.mjs';
import { interactionSource } from './lesson-page-helpers.mjs';

const [hash = '', body = '', repeatArg = '10'] = process.argv.slice(2);
const { server, browser, page } = await openLessonPage(process.env.DIST ?? defaultDist, hash);
await page.waitForTimeout(500);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
const events = [];
cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
const traced = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
if (!process.env.NOCPU) await cdp.send('Profiler.start');
// The body runs with the helpers $, fire, cell(name, head, row, col) and point(...) in scope; one
// string for the driver to evaluate (the interaction cannot be built from its source in the page).
async function timeFrames(act, repeat, wait) {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const out = [];
  for (let i = 0; i < repeat; i += 1) {
    await frame();
    const t0 = performance.now();
    act(i);
    await frame();
    out.push(performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return out;
}
const frames = await page.evaluate(`(${timeFrames})(${interactionSource(body)}, ${Number(repeatArg)}, ${Number(process.env.WAIT ?? 30)})`);
const { profile } = process.env.NOCPU ? { profile: { nodes: [], samples: [], timeDeltas: [] } } : await cdp.send('Profiler.stop');
await cdp.send('Tracing.end');
await traced;
console.log('frames (ms):', frames.map((f) => f.toFixed(1)).join(' '));

// (1) trace: main-thread complete events by name (self time approximated by total of top names).
const main = events.filter((e) => e.ph === 'X' && e.cat.includes('devtools.timeline'));
const byName = new Map();
for (const e of main) byName.set(e.name, (byName.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
console.log('\ntrace events (total ms, nested events counted in their parents too):');
for (const [name, ms] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 14)) console.log(`${ms.toFixed(1).padStart(9)}  ${name}`);

if (process.env.LAYOUTS)
  for (const e of main.filter((x) => x.name === 'Layout' || x.name === 'UpdateLayoutTree').slice(0, 40)) {
    const st = e.args?.beginData?.stackTrace?.[0];
    console.log(JSON.stringify(e.args?.endData ?? {}).slice(0, 300));
    console.log(
      e.name,
      (e.dur / 1000).toFixed(1),
      e.args?.beginData?.dirtyObjects,
      '/',
      e.args?.beginData?.totalObjects,
      e.args?.elementCount ?? '',
      st ? `${st.functionName} ${st.url.split('/').pop()}:${st.lineNumber}` : '',
    );
  }

if (process.env.TIMELINE) {
  // Main-thread events of the last repetition, in order (ms from its start), 1 ms or longer.
  const tid = main.find((e) => e.name === 'EventDispatch' || e.name === 'FunctionCall')?.tid;
  const mine = main.filter((e) => e.tid === tid && e.dur >= 1000).sort((a, b) => a.ts - b.ts);
  const t0 = mine[Math.max(0, mine.length - 400)]?.ts ?? 0;
  for (const e of mine.slice(-400)) {
    const d = e.args?.data ?? {};
    const where =
      d.functionName !== undefined
        ? ` ${d.functionName || '(anon)'} ${String(d.url ?? '')
            .split('/')
            .pop()}:${d.lineNumber ?? ''}`
        : '';
    console.log(`${((e.ts - t0) / 1000).toFixed(1).padStart(8)} ${(e.dur / 1000).toFixed(1).padStart(7)}  ${e.name}${where}`);
  }
}

// (2) CPU profile self time by function.
const self = new Map();
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = profile.timeDeltas;
profile.samples.forEach((id, k) => {
  const n = nodes.get(id);
  const f = n.callFrame;
  const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (dt[k] ?? 0) / 1000);
});
console.log('\nCPU self time (ms):');
for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${ms.toFixed(1).padStart(9)}  ${name}`);

// (3) with TOTAL=1: inclusive time by function (each sample counted once per function on its
// stack), to see which caller the self time belongs to (e.g. the lesson or another view); with
// UNDER=<function name> as well, of the samples under that function only.
if (process.env.TOTAL) {
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const keyOf = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
  const total = new Map();
  profile.samples.forEach((id, k) => {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) seen.add(keyOf(nodes.get(at)));
    // UNDER=<name>: only the samples with that function on their stack (e.g. one view's share).
    if (process.env.UNDER && ![...seen].some((key) => key.startsWith(`${process.env.UNDER} `))) return;
    for (const key of seen) total.set(key, (total.get(key) ?? 0) + (dt[k] ?? 0) / 1000);
  });
  console.log('\nCPU inclusive time (ms):');
  for (const [name, ms] of [...total]
    .sort((a, b) => b[1] - a[1])
    .filter(([name]) => !/^\((root|program|idle)\)/.test(name))
    .slice(0, Number(process.env.TOTAL) > 1 ? Number(process.env.TOTAL) : 40))
    console.log(`${ms.toFixed(1).padStart(9)}  ${name}`);
}
await browser.close();
server.close();
