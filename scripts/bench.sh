#!/usr/bin/env bash
# Builds what the benchmarks compare (native, wasm SIMD, wasm scalar) and runs them: first our three
# builds side by side (bench/bench.mjs), then ours against onnxruntime-web, tfjs-backend-wasm and
# plain JavaScript (bench/compare.mjs, a few minutes), then training against TensorFlow.js
# (bench/train-compare.mjs, a few minutes) and in Chromium (bench/browser-training.mjs), then loaded
# models (GPT-2 small's and SmolLM-135M's shapes) against onnxruntime-web (bench/model-compare.mjs).
# Arguments go to compare.mjs, e.g. `npm run bench -- --sizes small`.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
cmake --preset native >/dev/null
cmake --build --preset native --target bench_native
bash scripts/build-wasm.sh
cmake --build --preset wasm --target bench_kernels   # the floors compare.mjs prints
node bench/bench.mjs
node bench/compare.mjs "$@"
node bench/train-compare.mjs
node bench/browser-training.mjs
node bench/model-compare.mjs
