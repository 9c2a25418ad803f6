// The PyTorch and NumPy exports: the scripts hold the page's numbers (inputs, weights, and the
// expected matrices in comments), and, where Python has NumPy or PyTorch, running them prints
// the engine's matrices.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { createAttention } from '../../web/src/engine/attention.js';
import { expectedComment, numpyCode, pytorchCode } from '../../web/src/export/code.js';
import { toRows } from '../../web/src/export/matrices.js';
import { engineConfigOf } from '../../web/src/share/engine-config.js';
import { decodeHash, formatFloat32 } from '../../web/src/state/url.js';

let engine;
before(async () => {
  engine = await createAttention();
});

// Configurations from links, plus engine options the page has no control for yet.
const CASES = [
  { name: 'the worked example', link: '#preset=journey' },
  { name: 'two heads, random weights', link: '' },
  { name: 'four heads, no mask, unscaled', link: '#v=1&d=8&h=4&seed=1&mask=none&scale=0' },
  {
    name: 'window mask, padding, fill −1e9, mask before scale, τ = 0.5',
    link: '#preset=journey&v=1&mask=window&win=2&pad=000011&fill=-1e9&mbs=1&tau=0.5',
  },
  { name: 'custom mask with a fully masked row', link: '#preset=journey&v=1&mask=custom&cm=111111.100000.110000.111000.111100.111110' },
  { name: 'fill 0 does not mask', link: '#preset=journey&v=1&fill=0' },
  { name: 'edited weights', link: '#preset=journey&v=1&s=a+b&d=2&x=1,0;0,1&wq=1,2;3,4&wk=0.5,0;0,0.5&wv=1,0;0,1&wo=0,1;1,0' },
  {
    name: 'naive softmax overflows',
    link: '#preset=journey&v=1&naive=1&x=100,100,100;90,90,90;80,80,80;1,1,1;2,2,2;3,3,3',
  },
  { name: 'sinusoidal positions and two key/value heads', link: '#v=1&d=8&h=4', extra: { positional: 'sinusoidal', kvHeads: 2 } },
  { name: 'softmax over the queries, a padded key', link: '#preset=journey&v=1&smax=queries&pad=001000' },
  { name: 'quotes and unicode in tokens', link: '#v=1&s=%22a%22+b%5C+%E7%8C%AB+%23x' },
];

function run(item) {
  const { state } = decodeHash(item.link);
  const config = { ...engineConfigOf(state), ...(item.extra ?? {}) };
  const result = engine.compute(config);
  return { config, result, link: `https://example.org/playground/${item.link}` };
}

test('the scripts hold the inputs, the weights and the expected numbers', () => {
  for (const item of CASES) {
    const input = run(item);
    for (const [library, generate] of [
      ['PyTorch', pytorchCode],
      ['NumPy', numpyCode],
    ]) {
      const code = generate(input);
      const where = `${library}, ${item.name}`;
      assert.match(code, new RegExp(`as a ${library} script`), where);
      assert.ok(code.includes(input.link), `${where}: the link`);
      // Every embedding entry, written exactly.
      const x = input.result.embeddings ?? input.result.x;
      for (const row of toRows(x)) for (const v of row) assert.ok(code.includes(formatFloat32(v)), `${where}: x ${v}`);
      // Weights: the identity as eye(), anything else entry by entry.
      for (const name of ['wq', 'wk', 'wv', 'wo']) {
        const rows = toRows(input.result.weights[name]);
        const identity = rows.every((row, r) => row.every((v, c) => v === (r === c ? 1 : 0)));
        if (!identity) for (const row of rows) for (const v of row) assert.ok(code.includes(formatFloat32(v)), `${where}: ${name} ${v}`);
      }
      // The expected matrices, as comments.
      for (const [h, head] of input.result.perHead.entries()) {
        for (const matrix of [head.scores, head.weights, head.context]) {
          const comment = expectedComment(matrix).split('\n').slice(1).join('\n');
          assert.ok(code.includes(comment), `${where}: head ${h + 1} expected values`);
        }
      }
      assert.ok(code.includes(expectedComment(input.result.output)), `${where}: output`);
    }
  }
});

test('the worked example reads like the course’s complete example', () => {
  const code = pytorchCode(run(CASES[0]));
  assert.match(code, /inputs = torch\.tensor\(\n {2}\[\[0\.43, 0\.15, 0\.89\], +# Your +\(x\^1\)/);
  assert.match(code, /W_Q = torch\.eye\(3\) {2}# identity/);
  assert.match(code, /mask = torch\.triu\(torch\.ones\(6, 6\), diagonal=1\)\.bool\(\)/);
  assert.match(code, /attn_weights = torch\.softmax\(masked, dim=-1\)/);
  // The course's numbers: a₂ = [0.423, 0.577, 0, …], o₂ = [0.499, 0.566, 0.757].
  assert.match(code, /# +0\.4226 +0\.5774 +0\.0000/);
  assert.match(code, /# +0\.4993 +0\.5657 +0\.7572/);
});

// ---- running the scripts ----------------------------------------------------------------------

// The first Python that imports `module` (Debian's python3-numpy / python3-torch), or null.
function pythonWith(module) {
  for (const python of ['python3', '/usr/bin/python3']) {
    const probe = spawnSync(python, ['-c', `import ${module}`], { encoding: 'utf8' });
    if (probe.status === 0) return python;
  }
  return null;
}

// Runs the scripts in one Python process (each in fresh globals) and reads their final matrices
// back as JSON (±∞ and NaN as strings).
function execute(python, codes) {
  const driver = `
import json, math, sys, io, contextlib
def plain(a):
    rows = a.tolist()
    return [[v if math.isfinite(v) else str(v) for v in row] for row in rows]
results = []
for code in json.load(sys.stdin):
    scope = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "export.py", "exec"), scope)
    results.append({name: plain(scope[name]) for name in ["inputs", "Q", "K", "V", "concat", "output"]})
print(json.dumps(results))
`;
  const out = spawnSync(python, ['-c', driver], { input: JSON.stringify(codes), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.equal(out.status, 0, out.stderr);
  return JSON.parse(out.stdout);
}

const asNumber = (v) => (typeof v === 'number' ? v : { inf: Infinity, '-inf': -Infinity, nan: NaN }[v]);

function assertSame(actual, matrix, where) {
  const expected = toRows(matrix);
  assert.equal(actual.length, expected.length, where);
  expected.forEach((row, r) =>
    row.forEach((want, c) => {
      const got = asNumber(actual[r][c]);
      if (!Number.isFinite(want))
        assert.ok(Object.is(got, want) || (Number.isNaN(want) && Number.isNaN(got)), `${where}[${r}][${c}]: ${got} vs ${want}`);
      else assert.ok(Math.abs(got - want) <= 1e-4 + 1e-4 * Math.abs(want), `${where}[${r}][${c}]: ${got} vs ${want}`);
    }),
  );
}

for (const [library, module, generate] of [
  ['NumPy', 'numpy', numpyCode],
  ['PyTorch', 'torch', pytorchCode],
]) {
  test(`the ${library} scripts print the engine's matrices`, (t) => {
    const python = pythonWith(module);
    if (!python) {
      t.skip(`no Python with ${module} (Debian: python3-${module})`);
      return;
    }
    const inputs = CASES.map(run);
    const printed = execute(python, inputs.map(generate));
    CASES.forEach((item, i) => {
      const { result } = inputs[i];
      for (const [name, matrix] of [
        ['inputs', result.x],
        ['Q', result.q],
        ['K', result.k],
        ['V', result.v],
        ['concat', result.concat],
        ['output', result.output],
      ]) {
        assertSame(printed[i][name], matrix, `${library}, ${item.name}: ${name}`);
      }
    });
  });
}

// ---- tokens that are not plain words ------------------------------------------------------------

// What a link or a caller of the engine can put in a token: a NUL, a bell, quotes, backslashes,
// line and paragraph separators, a lone surrogate, CR LF and tab, DEL and NEL.
const HOSTILE_TOKENS = [
  'nul\u0000byte',
  'bell\u0007',
  '"quoted" \'single\' """',
  'back\\slash\\',
  'line\u2028sep\u2029',
  'lone\uD800surrogate',
  'cr\r\nlf\ttab',
  'del\u007F nel\u0085 \\N{BULLET} {x}',
];
const HOSTILE_SOURCE = ['=src;x', '\u0000', '\uDFFF'];

function hostileRun() {
  const config = { ...engineConfigOf(decodeHash('#v=1&d=4&h=2&seed=3').state), tokens: HOSTILE_TOKENS, source: { tokens: HOSTILE_SOURCE } };
  return { config, result: engine.compute(config), link: 'https://example.org/playground/#v=1&s=nul%00byte' };
}

// Each script saved as the page saves it (UTF-8), and Python's own reading of it: the token lists
// as Python parses them (JSON), without running the script.
function parsedByPython(python, files) {
  const reader = `
import ast, json, sys
out = []
for name in sys.argv[1:]:
    with open(name, "rb") as f:
        tree = ast.parse(f.read(), name)
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id in ("tokens", "source_tokens"):
            found[node.targets[0].id] = ast.literal_eval(node.value)
    out.append(found)
print(json.dumps(out))
`;
  const run = spawnSync(python, ['-c', reader, ...files], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

test('tokens with a NUL, control characters, quotes, backslashes or a lone surrogate: the scripts parse and keep them exactly', (t) => {
  const python = pythonWith('ast');
  const input = hostileRun();
  const work = mkdtempSync(path.join(tmpdir(), 'attention-export-'));
  try {
    const files = [
      ['pytorch', pytorchCode],
      ['numpy', numpyCode],
    ].map(([name, generate]) => {
      const code = generate(input);
      // Nothing raw that Python or an editor would stumble on: no control character but the line
      // ends, no lone surrogate (it would be written as U+FFFD and change the token).
      assert.doesNotMatch(code, /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u2028\u2029]/, name);
      assert.ok(code.isWellFormed(), `${name}: no lone surrogate`);
      // The comments show the tokens as Python's repr() would: NUL as \x00, CR LF as \r\n…
      for (const shown of ['# nul\\x00byte', '# bell\\x07', '# cr\\r\\nlf\\ttab', '# del\\x7f nel', '# lone\\ud800surrogate', '# \\udfff']) {
        assert.ok(code.includes(shown), `${name}: ${shown}`);
      }
      const file = path.join(work, `attention_${name}.py`);
      writeFileSync(file, code);
      return file;
    });
    if (!python) {
      t.skip('no python3');
      return;
    }
    for (const [i, found] of parsedByPython(python, files).entries()) {
      assert.deepEqual(found.tokens, HOSTILE_TOKENS, files[i]);
      assert.deepEqual(found.source_tokens, HOSTILE_SOURCE, files[i]);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('the NumPy script with such tokens runs as a file and prints the engine’s output', (t) => {
  const python = pythonWith('numpy');
  if (!python) {
    t.skip('no Python with numpy (Debian: python3-numpy)');
    return;
  }
  const input = hostileRun();
  const work = mkdtempSync(path.join(tmpdir(), 'attention-export-'));
  try {
    const file = path.join(work, 'attention_numpy.py');
    writeFileSync(file, numpyCode(input));
    const run = spawnSync(python, [file], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /output =/);
    // The script's own variables, read back after running it as a file.
    const reader = `
import json, math, runpy, sys, io, contextlib
with contextlib.redirect_stdout(io.StringIO()):
    scope = runpy.run_path(sys.argv[1])
print(json.dumps({"tokens": scope["tokens"], "output": [[v if math.isfinite(v) else str(v) for v in row] for row in scope["output"].tolist()]}))
`;
    const back = spawnSync(python, ['-c', reader, file], { encoding: 'utf8' });
    assert.equal(back.status, 0, back.stderr);
    const { tokens, output } = JSON.parse(back.stdout);
    assert.deepEqual(tokens, HOSTILE_TOKENS);
    assertSame(output, input.result.output, 'NumPy output');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
