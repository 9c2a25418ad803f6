#!/usr/bin/env bash
# Builds what the benchmark compares (native, wasm SIMD, wasm scalar) and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
cmake --preset native >/dev/null
cmake --build --preset native --target bench_native
bash scripts/build-wasm.sh
node bench/bench.mjs "$@"
