// Loads one of the two WebAssembly builds of the core. The browser fetches the .wasm next to this
// file (Vite turns `new URL(…, import.meta.url)` into the asset's address); Node reads it from
// disk. Either way the bytes are handed to the factory as `wasmBinary`, which is what lets Node
// load a module built for the web (TOOLCHAIN.md, quirks 2 and 5).
import { simd as detectWasmSimd } from 'wasm-feature-detect';

const BUILDS = {
  simd: {
    factory: () => import('./wasm/attention-simd.mjs'),
    wasmUrl: new URL('./wasm/attention-simd.wasm', import.meta.url),
  },
  scalar: {
    factory: () => import('./wasm/attention-scalar.mjs'),
    wasmUrl: new URL('./wasm/attention-scalar.wasm', import.meta.url),
  },
};

async function readBytes(url) {
  if (url.protocol === 'file:') {
    // Only Node gets here. The specifier is in a variable so that bundlers leave it alone.
    const fsModule = 'node:fs/promises';
    const { readFile } = await import(/* @vite-ignore */ fsModule);
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load ${url.pathname}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** 'simd' where WebAssembly SIMD128 is available, else 'scalar'. */
export async function pickBuild(requested = 'auto') {
  if (requested === 'simd' || requested === 'scalar') return requested;
  if (requested !== 'auto') throw new Error(`unknown build "${requested}": use "auto", "simd" or "scalar"`);
  return (await detectWasmSimd()) ? 'simd' : 'scalar';
}

/** Instantiates the Embind module of `build` ('simd' or 'scalar'). */
export async function loadModule(build) {
  const { factory, wasmUrl } = BUILDS[build];
  const [{ default: createModule }, wasmBinary] = await Promise.all([factory(), readBytes(wasmUrl)]);
  return createModule({ wasmBinary });
}
