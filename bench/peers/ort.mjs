// Loads onnxruntime-web under Node, offline and single-threaded, and runs a model on one input.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as ort from 'onnxruntime-web';

// The .wasm files ship in the package's dist/ folder; point the loader there so that it never
// looks anywhere else (the default is next to the loaded script, which is the same folder, but
// saying so keeps the benchmark independent of bundling).
const require = createRequire(import.meta.url);
const distDir = dirname(require.resolve('onnxruntime-web'));
ort.env.wasm.wasmPaths = `${pathToFileURL(distDir).href}/`;
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;

export const ortVersion = ort.env.versions?.web ?? 'unknown';

/**
 * A contender from a serialized model whose one input `x` has dims `dims`, fed `x.data` every run.
 * run() resolves to the output's Float32Array (copied out of wasm memory by onnxruntime).
 */
export async function ortContender(modelBytes, dims, x) {
  const session = await ort.InferenceSession.create(modelBytes, {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
  });
  const [outputName] = session.outputNames;
  return {
    async run() {
      const feeds = { x: new ort.Tensor('float32', x.data, dims) };
      const result = await session.run(feeds);
      const out = result[outputName];
      const data = out.data;
      out.dispose?.();
      return data;
    },
    dispose: () => session.release(),
  };
}
