// What Chromium itself costs on this machine to show changed numbers, with none of the page's
// code: a figures-only calibration to read beside measure-lesson.mjs, not a test. The lesson's
// heaviest interactions change 40–80 numbers on screen; this says how much of a frame that takes
// here before any of our code runs, so that a "busy" figure can be read against the machine.
//   node bench/browser/measure-floor.mjs            (SAMPLES=<n>, 41 by default)
// Each case runs in a bare page (no build needed), SAMPLES times, each once the previous frame is
// out; "work" is as in measure-lesson: the change and a forced style + layout, plus the next
// frame's rendering (from its requestAnimationFrame callbacks to a task posted from there: paint
// and commit). The cases:
//   table, 1 number    a 6 × 6 table (the lesson's table style: 0.75rem, tabular figures) with
//                      one entry's text changed: a frame's fixed cost;
//   table, 36 numbers  every entry's text changed (÷√d_k on the worked example changes about
//                      that many in each table on screen);
//   table, 36 + colour every entry's text and background colour changed;
//   4 tables, 144 + colour  the same in four 6 × 6 tables side by side: ÷√d_k on the worked
//                      example with no mask changes every entry of S, S + M, the exponentials
//                      and A, all near the softmax lab, and its row;
//   canvas, 1 024      a 32 × 32 matrix drawn on a canvas as render/matrix-canvas.js does
//                      (fillRect + fillText per entry): the drawing alone, no frame;
//   speed              measure-lesson's arithmetic (2 million square roots), for comparing runs.
import { launchChromium } from '../../tests/browser/harness.mjs';

const SAMPLES = Number(process.env.SAMPLES ?? 41);
const PAGE = `<!doctype html><meta charset="utf-8"><style>
  body { font-family: system-ui, 'DejaVu Sans', 'Noto Sans', sans-serif; }
  table { border-spacing: 0; font-size: 0.75rem; font-variant-numeric: tabular-nums; }
  td { min-width: 40px; padding: 3px 4px; text-align: right; white-space: nowrap; }
</style><table id="t"></table><div id="four" style="display:flex;gap:12px"></div><canvas id="c" width="1440" height="640" style="width:1440px;height:640px"></canvas>`;

const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.setContent(PAGE);
const figures = await page.evaluate(async (samples) => {
  // A 6 × 6 table of '0.000' in `table`.
  const fill = (table) => {
    for (let r = 0; r < 6; r += 1) {
      const row = table.insertRow();
      for (let c = 0; c < 6; c += 1) row.insertCell().textContent = '0.000';
    }
    return table;
  };
  const cells = [...fill(document.getElementById('t')).querySelectorAll('td')];
  const four = document.getElementById('four');
  for (let n = 0; n < 4; n += 1) four.append(fill(document.createElement('table')));
  const fourCells = [...four.querySelectorAll('td')];
  const number = (i, k) => (Math.sin(i * 37 + k) * 0.999).toFixed(3).replace('-', '−'); // new texts each sample
  // Every entry's text and background colour changed.
  const recolour = (tds, i) =>
    tds.forEach((td, k) => {
      td.firstChild.data = number(i, k);
      td.style.backgroundColor = `hsl(${(i * 7 + k * 11) % 360} 60% 85%)`;
    });
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  async function work(change) {
    const times = [];
    for (let i = 0; i < samples; i += 1) {
      await frame();
      const rendered = new Promise((resolve) =>
        requestAnimationFrame(() => {
          const start = performance.now();
          setTimeout(() => resolve(performance.now() - start), 0);
        }),
      );
      const t0 = performance.now();
      change(i);
      void document.documentElement.getBoundingClientRect().height;
      const layout = performance.now() - t0;
      times.push(layout + (await rendered));
    }
    return times;
  }
  const context = document.getElementById('c').getContext('2d');
  context.font = '12px system-ui, "DejaVu Sans", "Noto Sans", sans-serif';
  context.textBaseline = 'middle';
  context.textAlign = 'right';
  const drawing = [];
  for (let i = 0; i < samples; i += 1) {
    const t0 = performance.now();
    for (let k = 0; k < 1024; k += 1) {
      const x = (k % 32) * 45;
      const y = Math.floor(k / 32) * 20;
      context.fillStyle = k % 2 ? '#fde0dc' : '#dce8fd';
      context.fillRect(x, y, 44, 19);
      context.fillStyle = '#1d2330';
      context.fillText(number(i, k), x + 39, y + 9.5, 34);
    }
    drawing.push(performance.now() - t0);
    await frame();
  }
  let sink = 0;
  const speed = [];
  for (let i = 0; i < 9; i += 1) {
    const t0 = performance.now();
    for (let k = 1; k < 2e6; k += 1) sink += Math.sqrt(k);
    speed.push(performance.now() - t0);
  }
  return {
    'table, 1 number': await work((i) => {
      cells[0].firstChild.data = number(i, 0);
    }),
    'table, 36 numbers': await work((i) =>
      cells.forEach((td, k) => {
        td.firstChild.data = number(i, k);
      }),
    ),
    'table, 36 + colour': await work((i) => recolour(cells, i)),
    '4 tables, 144 + colour': await work((i) => recolour(fourCells, i)),
    'canvas, 1 024 (drawing only)': drawing,
    speed: sink > 0 ? speed : [],
  };
}, SAMPLES);
await browser.close();

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
console.log(`Chromium's own cost of showing changed numbers here (ms: median / 90th percentile of ${SAMPLES}; speed of 9)`);
for (const [label, values] of Object.entries(figures)) {
  console.log(`${label.padEnd(30)} ${quantile(values, 0.5).toFixed(1).padStart(6)} / ${quantile(values, 0.9).toFixed(1)}`);
}
