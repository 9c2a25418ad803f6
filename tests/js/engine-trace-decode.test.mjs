// The FlashAttention trace and the incremental decode through the JavaScript API, in both builds:
// the trace's tiles, skipped tiles (whatever part of the mask hides them) and final output, in
// self- and cross-attention, also as the page's plan asks for it; the decode's rows against the
// full causal pass for multi-head, grouped-query and multi-query attention; memory figures;
// refusals, after which the engine holds no more memory than before.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention, attentionMemory, kvCacheBytesPerToken, MODEL_SHAPES } from '../../web/src/engine/attention.js';
import { kvCacheAtContext } from '../../web/src/engine/memory-figures.js';
import { skipReason } from '../../web/src/modern/flash-skips.js';
import { decodeHash } from '../../web/src/state/url.js';
import { resultsOf, runnerOf } from './page-runs.mjs';
import { forward64, worstError } from './reference64.mjs';
import { WORKED_EXAMPLE } from './worked-example.mjs';

const BUILDS = ['simd', 'scalar'];
const engines = {};
before(async () => {
  for (const build of BUILDS) engines[build] = await createAttention({ build });
});
const tokens = (T) => Array.from({ length: T }, (_, t) => `k${t % 6}`);

// Checks a trace against float64: each head's tiles cover T × Tk once; a tile is skipped exactly
// when `hidden` hides every pair of it; the output and each head's o/ℓ are the reference's.
function checkTrace(trace, ref, hidden) {
  for (const [h, head] of trace.perHead.entries()) {
    const seen = new Uint8Array(trace.T * trace.Tk);
    for (const tile of head.tiles) {
      let all = true;
      for (let r = tile.row0; r < tile.row0 + tile.rows; r += 1) {
        for (let c = tile.key0; c < tile.key0 + tile.keys; c += 1) {
          seen[r * trace.Tk + c] += 1;
          all &&= hidden(r, c);
        }
      }
      assert.equal(tile.skipped, all, `head ${h}, tile at query ${tile.row0}, key ${tile.key0}`);
    }
    assert.ok(
      seen.every((n) => n === 1),
      `head ${h}: the tiles cover ${trace.T} × ${trace.Tk} once`,
    );
    assert.ok(worstError(head.context, ref.perHead[h].context) <= 1);
  }
  assert.ok(worstError(trace.output, ref.output) <= 1);
}

for (const build of BUILDS) {
  describe(`the ${build} build`, () => {
    const engine = () => engines[build];

    test('the worked example in 2 × 2 tiles: nine tiles per head, those above the diagonal skipped', () => {
      const trace = engine().flashTrace(WORKED_EXAMPLE, { blockRows: 2, blockKeys: 2 });
      const tiles = trace.perHead[0].tiles;
      assert.equal(tiles.length, 9);
      assert.deepEqual(tiles.map((t) => (t.skipped ? 'x' : '.')).join(''), '.xx..x...');
      const first = tiles[0];
      assert.deepEqual([first.row0, first.rows, first.key0, first.keys], [0, 2, 0, 2]);
      assert.equal(first.logits.data[1], -Infinity); // query 0 may not see key 1
      assert.ok(Math.abs(first.max[1] - 0.863) < 5e-4); // row 1's max after its keys 0, 1
      assert.ok(Math.abs(first.sum[1] - 1.732) < 5e-3);
      assert.equal(tiles[1].logits, undefined);
      // e^(m_old − m_new): 0 on a row's first tile (m_old = −∞: nothing to rescale), then in (0, 1]
      assert.deepEqual(Array.from(first.rescale), [0, 0]);
      for (const tile of tiles.filter((t) => !t.skipped)) tile.rescale.forEach((f) => assert.ok(f >= 0 && f <= 1));
      assert.ok(tiles[4].rescale.some((f) => f > 0 && f < 1) || tiles[7].rescale.some((f) => f > 0 && f < 1));
      const full = engine().compute(WORKED_EXAMPLE);
      assert.ok(worstError(trace.output, forward64(full).output) <= 1);
      assert.ok(worstError(trace.perHead[0].context, forward64(full).perHead[0].context) <= 1);
      assert.deepEqual(trace.memory.current, { T: 6, Tk: 6, scoresBytes: 144, tiledBytes: 64, qkvoBytes: 288 });
      assert.equal(trace.memory.long.scoresBytes, 8192 * 8192 * 4);
    });

    for (const { T, dModel, heads, kvHeads, blockRows, blockKeys, mask } of [
      { T: 1, dModel: 5, heads: 5, blockRows: 1, blockKeys: 1, mask: 'causal' },
      { T: 7, dModel: 5, heads: 5, blockRows: 3, blockKeys: 2, mask: 'causal' },
      { T: 7, dModel: 3, heads: 1, blockRows: 2, blockKeys: 3, mask: 'none' },
      { T: 13, dModel: 12, heads: 3, kvHeads: 1, blockRows: 4, blockKeys: 5, mask: 'causal' },
    ]) {
      test(`a trace at T=${T}, heads=${heads}, ${blockRows}×${blockKeys} tiles gives the float64 output`, () => {
        const config = { tokens: tokens(T), dModel, heads, kvHeads, mask, positional: 'rope', alibi: heads > 1, seed: 6 };
        const trace = engine().flashTrace(config, { blockRows, blockKeys });
        const ref = forward64(engine().compute(config), { mask, rope: true, alibi: heads > 1 });
        assert.ok(worstError(trace.output, ref.output) <= 1);
        trace.perHead.forEach((head, h) => {
          assert.equal(head.tiles.length, Math.ceil(T / blockRows) * Math.ceil(T / blockKeys));
          assert.ok(worstError(head.context, ref.perHead[h].context) <= 1);
          // the last tile of each row holds its final m and ℓ: o/ℓ is the context
          const last = head.tiles.filter((t) => !t.skipped).at(-1);
          for (let a = 0; a < last.rows; ++a) {
            for (let e = 0; e < trace.dK; ++e) {
              const got = last.partial.data[a * trace.dK + e] / last.sum[a];
              assert.ok(Math.abs(got - ref.perHead[h].context[last.row0 + a][e]) <= 1e-5 * Math.max(1, Math.abs(got)));
            }
          }
        });
      });
    }

    for (const mask of ['none', 'causal']) {
      test(`cross-attention (${mask}): 7 target tokens × 5 source tokens, the tiles padding hides skipped`, () => {
        const padding = [false, false, true, true, true];
        const source = { tokens: ['s0', 's1', 's2', 's3', 's4'] };
        const config = { tokens: tokens(7), source, dModel: 6, heads: 2, mask, padding, seed: 9 };
        const trace = engine().flashTrace(config, { blockRows: 3, blockKeys: 2 });
        assert.deepEqual([trace.T, trace.Tk], [7, 5]);
        const ref = forward64(engine().compute(config), { mask, padding });
        checkTrace(trace, ref, (i, j) => padding[j] || (mask === 'causal' && j > i));
        // keys 3–4 and 5 of every block: padding alone
        const tiles = trace.perHead[0].tiles;
        assert.deepEqual(
          tiles.filter((t) => t.key0 >= 2).map((t) => [t.skipped, skipReason(config, t)]),
          Array(6).fill([true, 'padding']),
        );
        assert.deepEqual(trace.memory.current, {
          T: 7,
          Tk: 5,
          scoresBytes: 2 * 7 * 5 * 4,
          tiledBytes: (2 * 2 * 7 + 6) * 4,
          qkvoBytes: 2 * 12 * 6 * 4,
        });
      });
    }

    test('a custom mask that hides a whole tile skips it; a row that sees no key gives zeros', () => {
      // queries 0–3 see none of keys 3–5; query 6 sees no key at all
      const customMask = Array.from({ length: 7 }, (_, i) => Array.from({ length: 7 }, (_, j) => i === 6 || (i < 4 && j >= 3 && j < 6)));
      const config = { tokens: tokens(7), dModel: 6, heads: 2, mask: 'custom', customMask, seed: 4 };
      for (const blockRows of [1, 4]) {
        const trace = engine().flashTrace(config, { blockRows, blockKeys: 3 });
        checkTrace(trace, forward64(engine().compute(config), { customMask }), (i, j) => customMask[i][j]);
        const skipped = trace.perHead[0].tiles.filter((t) => t.skipped);
        assert.ok(skipped.every((t) => skipReason(config, t) === 'custom'));
        assert.equal(skipped.length, blockRows === 1 ? 4 + 3 : 1); // (rows 1–4 × keys 4–6, then row 7 alone)
        assert.ok(trace.perHead[1].context.data.subarray(6 * 3).every((v) => v === 0));
      }
    });

    test('the page asks for the trace of its cross-attention through the plan: the source on the key axis', () => {
      const { state } = decodeHash('#s=one+two+three+four+five+six+seven&cross=1&src=uno+dos+tres+cuatro+cinco&spad=00011&xc=1&br=2&bc=2');
      const results = resultsOf(runnerOf(engine()), state, { shown: ['flash'] });
      const trace = results.get('flash');
      assert.deepEqual([trace.T, trace.Tk], [7, 5]);
      const main = results.get('main');
      assert.deepEqual(main.source.tokens, ['uno', 'dos', 'tres', 'cuatro', 'cinco']);
      const padding = [false, false, false, true, true];
      checkTrace(trace, forward64(main, { padding }), (i, j) => padding[j] || j > i);
    });

    for (const [kind, kvHeads] of [
      ['multi-head', 6],
      ['grouped-query', 2],
      ['multi-query', 1],
    ]) {
      test(`${kind} decoding: the rows computed against the cache equal the full causal rows`, () => {
        const config = { tokens: tokens(7), dModel: 18, heads: 6, kvHeads, positional: 'rope', seed: 3 };
        const d = engine().decode(config);
        const full = engine().compute(config);
        const ref = forward64(full, { rope: true });
        assert.ok(worstError(d.output, ref.output) <= 1);
        d.perHead.forEach((head, h) => assert.ok(worstError(head.weights, ref.perHead[h].weights) <= 1));
        d.difference.forEach((diff) => assert.ok(diff <= 1e-5));
        assert.deepEqual([d.kCache.rows, d.kCache.cols], [7, kvHeads * 3]);
        assert.equal(d.cacheBytesPerToken, kvCacheBytesPerToken({ kvHeads, dK: 3 }));
        assert.equal(d.multiplyAdds.cached[0], d.multiplyAdds.uncached[0]);
        assert.ok(d.multiplyAdds.cached[6] < d.multiplyAdds.uncached[6]);
      });
    }

    test('T = 1 and an odd head size decode too', () => {
      const one = engine().decode({ tokens: ['only'], dModel: 5, heads: 5, alibi: true });
      assert.equal(one.perHead[0].weights.data[0], 1);
      const odd = engine().decode({ tokens: tokens(7), dModel: 3, heads: 1, positional: 'rope' });
      assert.ok(
        worstError(odd.output, forward64(engine().compute({ tokens: tokens(7), dModel: 3, heads: 1, positional: 'rope' }), { rope: true }).output) <=
          1,
      );
    });

    test('bad calls are refused and leave no memory in use', () => {
      engine().compute(WORKED_EXAMPLE);
      const idle = engine().memoryInUse();
      const refused = (run, message) => {
        assert.throws(run, (e) => e instanceof Error && message.test(e.message));
        assert.ok(engine().memoryInUse() <= idle);
      };
      refused(
        () => engine().flashTrace(WORKED_EXAMPLE, { blockRows: 0, blockKeys: 2 }),
        /^blockRows must be a whole number between 1 and 64 \(got 0\)$/,
      );
      refused(() => engine().flashTrace(WORKED_EXAMPLE, { blockRows: '2', blockKeys: 2 }), /^blockRows must be a whole number \(got "2"\)$/);
      refused(() => engine().flashTrace(WORKED_EXAMPLE), /^blockRows must be a whole number \(got undefined\)$/);
      refused(
        () => engine().flashTrace({ tokens: tokens(65), dModel: 4 }, { blockRows: 8, blockKeys: 8 }),
        /^the FlashAttention trace takes at most 64 tokens \(got 65\)/,
      );
      refused(() => engine().decode({ ...WORKED_EXAMPLE, mask: 'none' }), /^the incremental decode needs mask "causal" without padding/);
      refused(() => engine().decode({ ...WORKED_EXAMPLE, maskFill: -1e9 }), /^the incremental decode needs maskFill -Infinity/);
      refused(() => engine().decode({ ...WORKED_EXAMPLE, source: { tokens: ['a'] } }), /^the incremental decode is self-attention only/);
      refused(() => engine().decode({ tokens: tokens(257), dModel: 4 }), /^the incremental decode takes at most 256 tokens \(got 257\)$/);
      assert.equal(engine().decode(WORKED_EXAMPLE).T, 6);
    });
  });
}

test('memory figures and the published model shapes', () => {
  const m = attentionMemory({ T: 8192, dModel: 768, heads: 12, blockRows: 64, blockKeys: 64 });
  assert.equal(m.scoresBytes, 12 * 8192 * 8192 * 4); // 3 GiB of scores for one layer
  assert.equal(m.tiledBytes, (12 * 2 * 8192 + 64 * 64) * 4);
  const kib = (shape) => (shape.layers * kvCacheBytesPerToken({ ...shape, bytesPerValue: 2 })) / 1024;
  const byName = Object.fromEntries(MODEL_SHAPES.map((s) => [s.name, s]));
  assert.equal(kib(byName['GPT-2 small']), 36);
  assert.equal(kib(byName['Llama 2 7B']), 512);
  assert.equal(kib(byName['Llama 3 8B']), 128);
  assert.equal(kib(byName['Mistral 7B']), 128);
  assert.equal(kib(byName['Falcon 7B']), 8);
  for (const s of MODEL_SHAPES) {
    assert.equal(s.heads % s.kvHeads, 0, s.name);
    assert.equal(s.heads * s.dK, s.dModel, s.name);
    assert.match(s.source, /^https:\/\/huggingface\.co\//);
    // Every model says how many tokens it takes, and where that is written.
    assert.ok(Number.isInteger(s.context) && s.context > 0, s.name);
    assert.match(s.contextSource ?? s.source, new RegExp(`${s.context}|n_positions|max_position_embeddings`), s.name);
  }
});

test('a published model’s whole cache stops at its context length, or at its sliding window', () => {
  const byName = Object.fromEntries(MODEL_SHAPES.map((s) => [s.name, s]));
  const at = (name) => kvCacheAtContext(byName[name]);
  // GPT-2 small takes 1 024 tokens: 36 KiB a token over its 12 layers, 36 MiB in all (never 8 192 tokens' 288 MiB).
  assert.deepEqual(at('GPT-2 small'), { tokens: 1024, bytes: 36 * 1024 * 1024 });
  assert.deepEqual(at('Llama 2 7B'), { tokens: 4096, bytes: 512 * 1024 * 4096 });
  assert.deepEqual(at('Llama 3 8B'), { tokens: 8192, bytes: 128 * 1024 * 8192 });
  assert.deepEqual(at('Falcon 7B'), { tokens: 2048, bytes: 8 * 1024 * 2048 });
  // Mistral 7B takes 32 768 tokens, but each layer sees the latest 4 096: a rolling cache keeps those.
  assert.equal(byName['Mistral 7B'].context, 32768);
  assert.deepEqual(at('Mistral 7B'), { tokens: 4096, bytes: 128 * 1024 * 4096 });
  for (const s of MODEL_SHAPES) assert.ok(kvCacheAtContext(s).tokens <= s.context, s.name);
});
