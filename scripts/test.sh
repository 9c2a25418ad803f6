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
echo "== JavaScript and browser tests =="
node --test tests/js/*.test.mjs tests/browser/*.test.mjs
