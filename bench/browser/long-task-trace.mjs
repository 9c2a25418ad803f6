// What a long task was made of, for measure-long-tasks.mjs with TRACE=1: a Chrome trace (and a
// sampled CPU profile) of one interaction, and for every main-thread task over 50 ms its biggest
// parts (script entry points, style, layout, paint, GC) and the functions that used its time.
// Each figure is wall time (the main thread's CPU time in brackets).
// Read the names from a build without minifying (`npx vite build --minify false`).
// Tasks longer than this are explained (TRACE_MS=20 shows the ones that are near the limit too).
const MIN_MS = Number(process.env.TRACE_MS ?? 50);
const CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'disabled-by-default-v8.gc'].join(',');

export async function startTrace(page) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  await cdp.send('Profiler.start');
  return async function stop() {
    const { profile } = await cdp.send('Profiler.stop');
    const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await done;
    await cdp.detach();
    return explain(events, profile);
  };
}

const label = (e) => {
  if (e.name === 'MajorGC' || e.name === 'MinorGC') {
    const { usedHeapSizeBefore: before, usedHeapSizeAfter: after } = e.args ?? {};
    const mb = (bytes) => (bytes / 2 ** 20).toFixed(0);
    return before === undefined ? e.name : `${e.name} ${mb(before)} → ${mb(after ?? 0)} MB`;
  }
  const d = e.args?.data ?? {};
  if (d.functionName !== undefined || d.url)
    return `${e.name} ${d.functionName || '(anon)'} ${String(d.url ?? '')
      .split('/')
      .pop()}:${d.lineNumber ?? ''}`;
  if (d.type) return `${e.name} ${d.type}`;
  return e.name;
};

// Lines describing every renderer main-thread task longer than 50 ms.
function explain(events, profile) {
  const mainTid = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')?.tid;
  const pid = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')?.pid;
  const mine = events
    .filter((e) => e.tid === mainTid && e.pid === pid && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const tasks = mine.filter((e) => e.name === 'RunTask' && e.dur > MIN_MS * 1000);
  // CPU samples with their times (µs, the trace's clock) and leaf function.
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const samples = [];
  let t = profile.startTime;
  profile.samples.forEach((id, k) => {
    t += profile.timeDeltas[k] ?? 0;
    const f = nodes.get(id).callFrame;
    samples.push({ t, key: `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}` });
  });
  const lines = [];
  for (const task of tasks) {
    const end = task.ts + task.dur;
    // tdur: the main thread's CPU time (on a busy machine the task's wall time is longer).
    lines.push(`  task ${(task.dur / 1000).toFixed(0)} ms (thread CPU ${((task.tdur ?? 0) / 1000).toFixed(0)} ms):`);
    // Direct and second-level children over 2 ms.
    const inside = mine.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= end && e.dur >= 2000);
    const depthOf = (e) => inside.filter((p) => p !== e && p.ts <= e.ts && p.ts + p.dur >= e.ts + e.dur && p.dur > e.dur).length;
    for (const e of inside) {
      const depth = depthOf(e);
      // GC phases: deeper (which phase of a collection took the time).
      if (depth <= 2 || (process.env.TRACE_GC && e.name.startsWith('V8.GC') && depth <= 5))
        lines.push(
          `    ${'  '.repeat(depth)}${(e.dur / 1000).toFixed(1).padStart(6)} (${((e.tdur ?? 0) / 1000).toFixed(1).padStart(5)})  ${label(e)}`,
        );
    }
    const self = new Map();
    for (const s of samples) if (s.t >= task.ts && s.t <= end) self.set(s.key, (self.get(s.key) ?? 0) + 0.2);
    const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 8);
    if (top.length) lines.push(`    functions (self ms): ${top.map(([k, ms]) => `${k} ${ms.toFixed(1)}`).join('; ')}`);
  }
  return lines;
}
