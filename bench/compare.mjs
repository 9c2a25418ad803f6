// Comparative benchmark of one causal multi-head attention forward (issue 6, item 4):
//
//   node bench/compare.mjs [--samples N] [--sizes small|all|"T,C,NH ..."] [--native PATH] [--kernels PATH]
//
// In one Node process, on one thread, every contender gets the same inputs (bench/inputs.mjs):
// our wasm SIMD and scalar builds (forward-only and full-intermediates paths; the SIMD forward-only
// path also with its output written into one reused array), onnxruntime-web
// (a graph of standard ops, and its fused com.microsoft.Attention), tfjs-backend-wasm and plain
// JavaScript loops. After a warm-up, samples are taken round-robin (one sample of each contender,
// then the next round) so that machine noise hits all alike; each prints the median. Our native
// build runs afterwards in its own process. Figures only: the exit code never depends on them.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { forwardFlops, makeInputs, maxRelativeError } from './inputs.mjs';
import * as ours from './peers/ours.mjs';

const { values: args } = parseArgs({
  options: {
    samples: { type: 'string', default: '7' },
    sizes: { type: 'string', default: 'all' },
    native: { type: 'string', default: fileURLToPath(new URL('../build/native/bench_native', import.meta.url)) },
    kernels: { type: 'string', default: fileURLToPath(new URL('../build/wasm/bench_kernels.cjs', import.meta.url)) },
  },
});
const SAMPLES = Math.max(1, Number.parseInt(args.samples, 10) || 7);
const ALL_SIZES = [
  [6, 3, 1],
  [64, 64, 4],
  [256, 256, 8],
  [1024, 512, 8],
  [2048, 768, 12],
];
// --sizes small | all | a list of T,C,NH separated by spaces, e.g. --sizes "256,256,8 1024,512,8"
const listed = args.sizes
  .trim()
  .split(/\s+/)
  .map((s) => s.split(',').map(Number))
  .filter((s) => s.length === 3 && s.every((n) => n > 0));
const SIZES = args.sizes === 'small' ? ALL_SIZES.slice(0, 3) : listed.length ? listed : ALL_SIZES;

// Sampling policy. A sample times `reps` back-to-back calls, enough to last MIN_SAMPLE_MS, and
// records the time per call. Contenders whose call takes longer than SLOW_MS get at most
// SLOW_SAMPLES samples; those slower than VERY_SLOW_MS get one (their warm-up call, timed).
// Warm-up: the first call, then more calls until WARM_UP_MS have passed (see measureSize).
const MIN_SAMPLE_MS = 25;
const WARM_UP_MS = 300;
const SLOW_MS = 1500;
const SLOW_SAMPLES = 3;
const VERY_SLOW_MS = 8000;
// The scalar build's full path is only timed up to this T (it repeats the forward-only figure).
const SCALAR_FULL_MAX_T = 256;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// Peers are dev-only dependencies: a missing one is reported, not fatal.
async function loadPeer(path) {
  try {
    return await import(path);
  } catch (error) {
    return { loadError: error.message.split('\n')[0] };
  }
}

let simdEngine;
try {
  simdEngine = await ours.engineFor('simd');
} catch (error) {
  console.error(`Could not load our wasm build (${error.message ?? error}): run bash scripts/build-wasm.sh first.`);
  process.exit(1);
}
const forwardOnly = await ours.hasOutputOnly();
const maxTokens = simdEngine.info.limits.maxTokens;
const peers = {
  ortGraph: await loadPeer('./peers/onnx-graph.mjs'),
  ortFused: await loadPeer('./peers/onnx-fused.mjs'),
  tfjs: await loadPeer('./peers/tfjs.mjs'),
  plain: await loadPeer('./peers/plain-js.mjs'),
};
const ort = await loadPeer('./peers/ort.mjs');
let tfjsSimd = '?';
if (!peers.tfjs.loadError) tfjsSimd = (await peers.tfjs.backendInfo()).simd ? 'SIMD' : 'no SIMD';

// ---- the contenders, in print order; `skip` returns a reason or null for a size ----------------
const fwdNote = forwardOnly ? '' : ' [outputOnly missing: full path]';
const CONTENDERS = [
  { id: 'simdFwd', label: `ours wasm SIMD, forward-only${fwdNote}`, make: (i) => ours.create(i, { build: 'simd', outputOnly: forwardOnly }) },
  {
    id: 'simdFwdInto',
    label: 'ours wasm SIMD, forward-only into a reused array',
    make: (i) => ours.create(i, { build: 'simd', outputOnly: true, reuseOutput: true }),
    skip: () => (forwardOnly ? null : 'this facade has no forward-only path'),
  },
  {
    id: 'simdFull',
    label: 'ours wasm SIMD, full intermediates',
    make: (i) => ours.create(i, { build: 'simd', outputOnly: false }),
    skip: ({ T }) =>
      T > maxTokens ? `T = ${T} is over the full path's limit of ${maxTokens} tokens (it keeps NH·T² floats per intermediate)` : null,
  },
  { id: 'scalarFwd', label: `ours wasm scalar, forward-only${fwdNote}`, make: (i) => ours.create(i, { build: 'scalar', outputOnly: forwardOnly }) },
  {
    id: 'scalarFull',
    label: 'ours wasm scalar, full intermediates',
    make: (i) => ours.create(i, { build: 'scalar', outputOnly: false }),
    skip: ({ T }) => (T > SCALAR_FULL_MAX_T ? `timed only up to T = ${SCALAR_FULL_MAX_T}, to keep the run short` : null),
  },
  { id: 'ortGraph', label: 'onnxruntime-web, standard ONNX ops', peer: peers.ortGraph },
  { id: 'ortFused', label: 'onnxruntime-web, com.microsoft.Attention', peer: peers.ortFused },
  { id: 'tfjs', label: 'tfjs-backend-wasm, per-head 2-D matMul', peer: peers.tfjs },
  { id: 'plain', label: 'plain JavaScript loops', peer: peers.plain },
];
const PEER_IDS = ['ortGraph', 'ortFused', 'tfjs', 'plain'];
const REFERENCE_ORDER = ['simdFwd', 'simdFull', 'scalarFwd', 'scalarFull', 'plain'];

// ---- timing --------------------------------------------------------------------------------

// Milliseconds per call over `reps` back-to-back calls.
async function timeCalls(c, reps) {
  const start = performance.now();
  if (c.runSync) for (let r = 0; r < reps; ++r) c.runSync();
  else for (let r = 0; r < reps; ++r) await c.run();
  return (performance.now() - start) / reps;
}

async function measureSize([T, C, NH]) {
  const inputs = makeInputs(T, C, NH);
  const rows = [];
  for (const spec of CONTENDERS) {
    const row = { spec, times: [] };
    rows.push(row);
    const reason = spec.peer?.loadError ? `could not load: ${spec.peer.loadError}` : spec.skip?.(inputs);
    if (reason) {
      row.skipped = reason;
      continue;
    }
    try {
      row.c = await (spec.peer ? spec.peer.create(inputs) : spec.make(inputs));
    } catch (error) {
      row.skipped = `failed to set up: ${error.message ?? error}`;
    }
  }

  // Warm-up: the first call of each gives its output (checked below) and its cost.
  for (const row of rows.filter((r) => r.c)) {
    try {
      let start = performance.now();
      row.output = await row.c.run();
      row.first = performance.now() - start;
      if (row.first < VERY_SLOW_MS) {
        // Keep calling for WARM_UP_MS: V8 first runs WebAssembly (and JS) through a baseline
        // compiler and tiers hot functions up in the background, which takes many calls of a
        // microsecond-sized forward. The median of the last warm-up calls then sets the sample
        // size (one call can be a garbage-collection pause a thousand times longer).
        const warmUpStart = performance.now();
        const recent = [];
        do {
          start = performance.now();
          await row.c.run();
          recent.push(performance.now() - start);
          if (recent.length > 51) recent.shift();
        } while (performance.now() - warmUpStart < WARM_UP_MS && recent.at(-1) < SLOW_MS);
        row.second = median(recent);
      }
    } catch (error) {
      row.skipped = `failed to run: ${error.message ?? error}`;
      row.c.dispose();
      row.c = null;
    }
  }
  // The reference output: ours (wasm SIMD) where it ran, else the next best.
  const live = rows.filter((r) => r.c);
  const referenceRow = REFERENCE_ORDER.map((id) => live.find((r) => r.spec.id === id)).find(Boolean);
  const reference = referenceRow?.output;
  for (const row of live) {
    row.error = reference ? maxRelativeError(row.output, reference) : NaN;
    const cost = row.second ?? row.first;
    row.reps = Math.min(100000, Math.max(1, Math.ceil(MIN_SAMPLE_MS / Math.max(cost, 1e-4))));
    if (row.second === undefined) {
      row.samples = 1;
      row.times.push(row.first);
      row.note = 'one sample: its first call';
    } else {
      row.samples = cost > SLOW_MS ? Math.min(SAMPLES, SLOW_SAMPLES) : SAMPLES;
      if (row.samples < SAMPLES) row.note = `${row.samples} samples (slow)`;
    }
  }

  // Round-robin: sample s of every contender that still needs one, then sample s + 1.
  for (let s = 0; s < SAMPLES; ++s) {
    for (const row of live) {
      if (row.times.length < row.samples) row.times.push(await timeCalls(row.c, row.reps));
    }
  }
  for (const row of live) {
    row.ms = median(row.times);
    row.gflops = forwardFlops(T, C) / (row.ms * 1e6);
    row.c.dispose();
    row.c = null;
    row.output = null;
  }
  return { T, C, NH, rows, reference: referenceRow?.spec.label, byId: Object.fromEntries(rows.map((r) => [r.spec.id, r])) };
}

// ---- printing ------------------------------------------------------------------------------

const fmtMs = (ms) => {
  if (ms === undefined) return '—';
  if (ms < 0.1) return `${(ms * 1000).toFixed(2)} µs`;
  return ms < 1000 ? `${ms.toPrecision(4)} ms` : `${(ms / 1000).toPrecision(4)} s`;
};
const fmt = (x, digits = 2) => (x === undefined || Number.isNaN(x) ? '—' : x.toFixed(digits));
const fmtRate = (x) => (x === undefined || Number.isNaN(x) ? '—' : x >= 100 ? x.toFixed(0) : x.toPrecision(3));
const fmtErr = (e) => (e === undefined ? '—' : Number.isNaN(e) ? 'NaN' : e.toExponential(1));

function table(header, lines) {
  const widths = header.map((h, j) => Math.max(h.length, ...lines.map((l) => String(l[j]).length)));
  const line = (cells) => cells.map((cell, j) => (j === 0 ? String(cell).padEnd(widths[j]) : String(cell).padStart(widths[j]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(line)].join('\n');
}

function printSize(result) {
  const { T, C, NH, rows, byId } = result;
  const flops = forwardFlops(T, C);
  console.log(`\n(T, C, NH) = (${T}, ${C}, ${NH}); d_k = ${C / NH}; ${(flops / 1e6).toPrecision(4)} MFLOP per forward`);
  if (result.reference !== byId.simdFwd.spec.label) console.log(`  errors against: ${result.reference ?? 'nothing (no reference ran)'}`);
  const fwd = byId.simdFwd?.ms;
  const full = byId.simdFull?.ms;
  const lines = rows
    .filter((r) => r.ms !== undefined)
    .map((r) => [
      r.spec.label,
      `${r.times.length}×${r.reps}`,
      fmtMs(r.ms),
      fmtRate(r.gflops),
      fmt(fwd / r.ms, 3),
      fmt(full / r.ms, 3),
      fmtErr(r.error),
    ]);
  console.log(table(['contender', 'samples×calls', 'median', 'GFLOP/s', 'ours fwd ÷ this', 'ours full ÷ this', 'max rel err'], lines));
  for (const r of rows) {
    if (r.skipped) console.log(`  skipped ${r.spec.label}: ${r.skipped}`);
    else if (r.note) console.log(`  note ${r.spec.label}: ${r.note}`);
  }
}

function fastestPeer(result) {
  const peerRows = PEER_IDS.map((id) => result.byId[id]).filter((r) => r?.ms !== undefined);
  return peerRows.reduce((best, r) => (best && best.ms <= r.ms ? best : r), null);
}

function printTargets(results) {
  const at = (T, C, NH) => results.find((r) => r.T === T && r.C === C && r.NH === NH);
  console.log('\nIssue 6 targets (figures only) — target | measured');
  for (const [T, C, NH] of [
    [256, 256, 8],
    [1024, 512, 8],
    [2048, 768, 12],
  ]) {
    const r = at(T, C, NH);
    if (!r) {
      console.log(`  our full forward ≤ 0.5 × fastest peer at (${T}, ${C}, ${NH}) | not run (--sizes small)`);
      continue;
    }
    const peer = fastestPeer(r);
    const ratio = (id) => {
      const ms = r.byId[id]?.ms;
      return ms === undefined || !peer ? 'not measured' : `${(ms / peer.ms).toFixed(3)} × (${fmtMs(ms)} vs ${fmtMs(peer.ms)})`;
    };
    console.log(
      `  our full forward ≤ 0.5 × fastest peer (${peer?.spec.label ?? 'none'}) at (${T}, ${C}, ${NH}) | full intermediates: ${ratio('simdFull')}; forward-only: ${ratio('simdFwd')}; into a reused array: ${ratio('simdFwdInto')}`,
    );
  }
  const mid = at(1024, 512, 8);
  console.log(
    `  ≥ 30 GFLOP/s in wasm at (1024, 512, 8) | ${mid ? `forward-only ${fmtRate(mid.byId.simdFwd?.gflops)}, full intermediates ${fmtRate(mid.byId.simdFull?.gflops)} GFLOP/s` : 'not run (--sizes small)'}`,
  );
  const tiny = at(6, 3, 1);
  console.log(
    `  ≤ 10 µs per call at (6, 3, 1), every intermediate handed to JS | ${tiny?.byId.simdFull?.ms !== undefined ? `${(tiny.byId.simdFull.ms * 1000).toFixed(2)} µs` : 'not measured'}`,
  );
  const small = at(256, 256, 8);
  const speedup = (a, b) => (a?.ms !== undefined && b?.ms !== undefined ? `${(a.ms / b.ms).toFixed(2)} ×` : 'not measured');
  console.log(
    `  wasm SIMD ≥ 3 × wasm scalar at (256, 256, 8) | forward-only ${speedup(small?.byId.scalarFwd, small?.byId.simdFwd)}, full intermediates ${speedup(small?.byId.scalarFull, small?.byId.simdFull)}`,
  );
}

// Our native build, in its own process after the wasm contenders: the same sizes, its own inputs
// (token-derived X, seeded weights; see bench/bench_native.cpp). Each JSON line becomes a row.
function printNative() {
  console.log(`\nNative build (${args.native}), a separate process:`);
  if (!existsSync(args.native)) {
    console.log('  not built: cmake --preset native && cmake --build --preset native --target bench_native');
    return;
  }
  let out;
  try {
    // bench_native [samples] [T,C,NH ...]: the same sizes as above.
    const sizes = SIZES.map(([T, C, NH]) => `${T},${C},${NH}`);
    out = execFileSync(args.native, [String(SAMPLES), ...sizes], { encoding: 'utf8', timeout: 300000 });
  } catch (error) {
    console.log(`  failed: ${error.message.split('\n')[0]}`);
    return;
  }
  const lines = [];
  for (const text of out.trim().split('\n')) {
    let row;
    try {
      row = JSON.parse(text);
    } catch {
      console.log(`  ${text}`);
      continue;
    }
    const { T, C, NH, medianMs, ...rest } = row;
    lines.push([
      `(${T}, ${C}, ${NH})`,
      fmtMs(medianMs),
      fmtRate(forwardFlops(T, C) / (medianMs * 1e6)),
      Object.entries(rest)
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
    ]);
  }
  if (lines.length) console.log(table(['(T, C, NH)', 'median', 'GFLOP/s', 'details'], lines));
}

// How close to the possible: bench_kernels (wasm, its own process) times our forward-only path
// side by side with its kernels alone and with the machine's multiply-add ceiling. Its ratios
// (floor ÷ our forward) times this run's (our forward ÷ fastest peer) give floor ÷ fastest peer
// — robust to the load changing between the two runs, as each ratio is taken side by side.
function printFloors(results) {
  const sizes = results.filter((r) => r.T >= 256);
  console.log(`\nFloors (${args.kernels}, wasm SIMD, a separate process; bench/bench_kernels.cpp):`);
  if (!sizes.length) return console.log('  only for T ≥ 256 (--sizes small ran none)');
  if (!existsSync(args.kernels)) return console.log('  not built: cmake --build --preset wasm --target bench_kernels');
  let out;
  try {
    const list = sizes.map(({ T, C, NH }) => `${T},${C},${NH}`);
    out = execFileSync(process.execPath, ['--no-experimental-fetch', args.kernels, String(SAMPLES), ...list], { encoding: 'utf8', timeout: 600000 });
  } catch (error) {
    return console.log(`  failed: ${error.message.split('\n')[0]}`);
  }
  const lines = [];
  for (const text of out.trim().split('\n')) {
    const k = JSON.parse(text);
    const r = sizes.find((s) => s.T === k.T && s.C === k.C && s.NH === k.NH);
    const peer = fastestPeer(r);
    const oursOverPeer = r.byId.simdFwd?.ms !== undefined && peer ? r.byId.simdFwd.ms / peer.ms : NaN;
    lines.push([
      `(${k.T}, ${k.C}, ${k.NH})`,
      fmtMs(k.forwardMs),
      fmtMs(k.projectionsMs),
      fmtMs(k.attentionMs),
      fmtMs(k.expMs),
      fmtMs(k.floorMs),
      `${fmtMs(k.ceilingMs)} @ ${fmtRate(k.ceilingGflops)}`,
      fmt(k.floorMs / k.forwardMs, 3),
      fmt((k.floorMs / k.forwardMs) * oursOverPeer, 3),
      fmt((k.ceilingMs / k.forwardMs) * oursOverPeer, 3),
    ]);
  }
  console.log(
    table(
      ['(T, C, NH)', 'our fwd', 'projections', 'attention', 'exp', 'floor', 'ceiling @ GFLOP/s', 'floor ÷ ours', 'floor ÷ peer', 'ceiling ÷ peer'],
      lines,
    ),
  );
  console.log("  floor: the forward's kernels alone at full speed; ceiling: its FLOPs (causal pairs only) at the");
  console.log('  multiply-add rate, plus the exps. "÷ peer": × (ours ÷ fastest peer) above; a target of 0.5 × the');
  console.log('  fastest peer is out of reach for this build where floor ÷ peer > 0.5.');
}

// ---- main ----------------------------------------------------------------------------------

const load = os.loadavg()[0];
console.log('Causal multi-head attention forward: Q,K,V = X·W_Q,K,V; per head softmax(QKᵀ/√d_k + causal mask)·V; Y = concat·W_O');
console.log(
  `FLOPs per forward = 8·T·C² + 4·T²·C. ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}; one thread.`,
);
console.log(
  `Ours: ${simdEngine.info.simdPath}; forward-only path: ${forwardOnly ? 'engine.compute(config, { outputOnly: true })' : 'NOT AVAILABLE in this build (the full path is timed under both names)'}.`,
);
console.log(
  `Peers: onnxruntime-web ${ort.ortVersion ?? `(${ort.loadError})`} (wasm EP, numThreads 1); tfjs-backend-wasm ${peers.tfjs.tfjsVersion ?? '(missing)'} (${tfjsSimd}, 1 thread).`,
);
console.log(`Median of up to ${SAMPLES} round-robin samples after warm-up; max rel err = max |a − b| / max(1, |b|) against ours (wasm SIMD).`);
console.log(`Load average at start: ${load.toFixed(2)}${load > 0.5 ? ' — other processes are running: figures are noisy' : ''}.`);

const results = [];
for (const size of SIZES) {
  const result = await measureSize(size);
  printSize(result);
  results.push(result);
}
printTargets(results);
printFloors(results);
printNative();
console.log(`\nLoad average at end: ${os.loadavg()[0].toFixed(2)}.`);
