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
# Two files run alone, last: the Train panel's tests time the page's main-thread tasks (a second
# browser beside them makes those long), and the student test once failed beside another file
# (docs/performance.md, "The browser tests' pages").
ALONE='/(train|exercise-student)\.test\.mjs$'
echo "== JavaScript and browser tests, two files at a time =="
node --test --test-concurrency=2 tests/js/*.test.mjs $(ls tests/browser/*.test.mjs | grep -Ev "$ALONE")
echo "== the Train panel's and the student's tests, alone =="
node --test --test-concurrency=1 $(ls tests/browser/*.test.mjs | grep -E "$ALONE")
