#!/usr/bin/env bash
# The shared set-up step of `npm start`, `npm test`, `npm run build` and `npm run bench`.
# Installs what is missing on Debian 12 (as root, with apt), does nothing when all is present,
# and otherwise says exactly what to install. Then installs the npm dependencies from the lock
# file when node_modules is missing or older than package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."

# emscripten brings clang, lld, binaryen and Embind; libxsimd-dev and catch2 are header-only;
# chromium runs the browser tests; fonts-noto-cjk lets it draw Chinese text; python3-numpy runs
# the exported NumPy code in the export tests (python3-torch, large, is optional: without it the
# PyTorch script is checked by its text only); clang-format applies .clang-format (small: it shares
# emscripten's LLVM libraries).
DEBIAN_PACKAGES=(cmake g++ emscripten libxsimd-dev catch2 chromium fonts-noto-cjk python3-numpy clang-format)

if command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for package in "${DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$package")
  done
  if ((${#missing[@]} > 0)); then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
      echo "bootstrap: installing Debian packages: ${missing[*]}"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
      echo "bootstrap: missing Debian packages: ${missing[*]}" >&2
      echo "bootstrap: install them with:  sudo apt-get install ${missing[*]}" >&2
      exit 1
    fi
  fi
else
  echo "bootstrap: this is not a Debian system (no dpkg-query). The project needs:" >&2
  echo "  CMake ≥ 3.25, g++ 12, Emscripten 3.1.x (em++ with Embind), xsimd 8.1 headers," >&2
  echo "  Catch2 2.13 (catch2/catch.hpp), clang-format 14, Chromium at /usr/bin/chromium, Noto CJK fonts." >&2
  echo "  On Debian 12: sudo apt-get install ${DEBIAN_PACKAGES[*]}" >&2
  exit 1
fi

node_major=$(node -p 'process.versions.node.split(".").map(Number).slice(0, 2).join(".")')
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; then
  echo "bootstrap: Node.js $node_major is too old: Vite needs Node.js 20.19 or newer." >&2
  exit 1
fi

if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "bootstrap: installing npm dependencies from package-lock.json"
  npm ci --no-audit --no-fund --loglevel=error
fi
