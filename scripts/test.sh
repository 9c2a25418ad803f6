#!/usr/bin/env bash
# Everything `npm test` runs, in order; stops at the first failure.
set -euo pipefail
shopt -s globstar  # cpp/**/ reaches every folder of the core
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs

echo "== lint and JavaScript format (biome.jsonc) =="
npx biome lint
npx biome format
echo "== C++ format (.clang-format) =="
clang-format --dry-run -Werror cpp/**/*.[ch]pp tests/cpp/**/*.[ch]pp bench/*.cpp
echo "== Catch2, native =="
cmake --workflow --preset native
echo "== Catch2, WebAssembly SIMD under Node (also builds the page's modules) =="
cmake --workflow --preset wasm
echo "== static site (dist/) =="
npx vite build --logLevel warn
# Two test files at a time: a browser test mostly waits for its page, so two share the two cores.
# The Train panel's tests time the page's main-thread tasks; a second browser beside them makes
# those long, so they run alone, last.
echo "== JavaScript and browser tests, two files at a time =="
node --test --test-concurrency=2 tests/js/*.test.mjs $(ls tests/browser/*.test.mjs | grep -v '/train\.test\.mjs$')
echo "== the Train panel's tests, alone =="
node --test tests/browser/train.test.mjs
