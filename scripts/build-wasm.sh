#!/usr/bin/env bash
# Builds the page's two WebAssembly modules (SIMD and scalar) into web/src/engine/wasm/.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's em++ needs Debian's acorn (TOOLCHAIN.md, quirk 1)
cmake --preset wasm >/dev/null
cmake --build --preset wasm --target attention_simd attention_scalar
