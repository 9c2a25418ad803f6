// The ids the page passes to the engine (web/src/engine/module-ids.js) are the ones the C++
// bindings use: each build reports its enums by name (moduleIds), read from the enums themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from '../../web/src/engine/load-module.js';
import * as ids from '../../web/src/engine/module-ids.js';

const TABLES = [
  'INPUT',
  'BYTE_INPUT',
  'MODEL_OUTPUT',
  'HEAD_OUTPUT',
  'TRACE_OUTPUT',
  'DECODE_OUTPUT',
  'WEIGHTS_KIND',
  'MASK_KIND',
  'POSITIONAL',
  'ROPE_PAIRING',
];

for (const build of ['simd', 'scalar']) {
  test(`the ${build} build uses the ids of module-ids.js`, async () => {
    const fromCore = (await loadModule(build)).moduleIds();
    for (const table of TABLES) assert.deepEqual({ ...fromCore[table] }, { ...ids[table] }, table);
    // OPTION_NAMES is the order of the settings block: each name at its index in the core.
    assert.equal(ids.OPTION_NAMES.length, fromCore.OPTION_COUNT, 'how many settings');
    assert.deepEqual(
      ids.OPTION_NAMES.map((name) => fromCore.OPTION[name]),
      ids.OPTION_NAMES.map((_, i) => i),
    );
  });
}
