// A trained model as a file: its full config, the step count, its accuracy on fresh sequences
// (evaluated when it was saved) and every parameter as base64 of little-endian float32.
//   { format: 1, config, step, evaluation: { loss, accuracy }, parameters: { name: { rows, cols, base64 } } }

export const CHECKPOINT_FORMAT = 1;

// Steps each shipped checkpoint is trained for (tools/train-checkpoints.mjs): past 97 % accuracy.
export const CHECKPOINT_STEPS = Object.freeze({ previous: 600, induction: 1500, sort: 400 });

// Sequences the saved accuracy is measured on.
const EVALUATION_SEQUENCES = 1024;

function toBase64(data) {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
  return new Float32Array(bytes.buffer);
}

/** The checkpoint of a trainer, as JSON text. */
export function encodeCheckpoint(trainer) {
  const parameters = Object.fromEntries(
    Object.entries(trainer.parameters()).map(([name, { rows, cols, data }]) => [name, { rows, cols, base64: toBase64(data) }]),
  );
  const evaluation = trainer.evaluate(EVALUATION_SEQUENCES);
  return JSON.stringify({ format: CHECKPOINT_FORMAT, config: trainer.config, step: trainer.steps, evaluation, parameters });
}

/** A trainer of `engine` holding the checkpoint's model (JSON text or its parsed object). */
export function openCheckpoint(engine, checkpoint) {
  const { format, config, parameters } = typeof checkpoint === 'string' ? JSON.parse(checkpoint) : checkpoint;
  if (format !== CHECKPOINT_FORMAT) throw new Error(`unknown checkpoint format ${format}`);
  const trainer = engine.createTrainer(config);
  try {
    trainer.setParameters(
      Object.fromEntries(Object.entries(parameters).map(([name, { rows, cols, base64 }]) => [name, { rows, cols, data: fromBase64(base64) }])),
    );
  } catch (error) {
    trainer.dispose();
    throw error;
  }
  return trainer;
}
