// The engine in a Web Worker, for computations large enough to block the page. Messages:
//   in:  { id, kind, config, options }              kind: 'compute' (options as for engine.compute,
//                                                   no callbacks), 'trace' (options: the tile) or 'decode'
//   out: { id, progress }                           now and then, the fraction done (0…1)
//        { id, result, memoryBytes, ms } | { id, error } at the end; result buffers are transferred;
//                                                   ms: the engine's time, measured here (the
//                                                   page's clock would add the wait for its own
//                                                   busy main thread to read the message)
//        { info }                                   once, when the engine is ready
import { createAttention } from './attention.js';

const enginePromise = createAttention();
enginePromise.then((engine) => self.postMessage({ info: engine.info }));

// Every ArrayBuffer under a result, once each (the full path packs all matrices into one).
function buffersOf(value, found = new Set()) {
  if (ArrayBuffer.isView(value)) found.add(value.buffer);
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => buffersOf(v, found));
  return [...found];
}

self.onmessage = async ({ data: { id, kind = 'compute', config, options = {} } }) => {
  const engine = await enginePromise;
  let lastReported = 0;
  const onProgress = (fraction) => {
    // At most ~100 messages per computation.
    if (fraction - lastReported >= 0.01 || fraction === 1) {
      lastReported = fraction;
      self.postMessage({ id, progress: fraction });
    }
  };
  try {
    const start = performance.now();
    const result =
      kind === 'trace'
        ? engine.flashTrace(config, options)
        : kind === 'decode'
          ? engine.decode(config)
          : engine.compute(config, { ...options, onProgress });
    const ms = performance.now() - start;
    self.postMessage({ id, result, memoryBytes: engine.memoryBytes(), ms }, buffersOf(result));
  } catch (error) {
    self.postMessage({ id, error: error.message });
  }
};
