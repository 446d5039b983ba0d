/** Vectors ↔ bytes (little-endian float32) for storage in a bytea column, and ↔ plain arrays for real[]. */

export function vectorToBuffer(vector: Float32Array): Buffer {
  const buffer = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) buffer.writeFloatLE(vector[i], i * 4);
  return buffer;
}

export function bufferToVector(buffer: Uint8Array): Float32Array {
  if (buffer.byteLength % 4 !== 0)
    throw new Error(`A float32 vector needs a multiple of 4 bytes, got ${buffer.byteLength}`);
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const vector = new Float32Array(buffer.byteLength / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}

export function vectorToArray(vector: Float32Array): number[] {
  return Array.from(vector);
}

export function arrayToVector(values: readonly number[]): Float32Array {
  return Float32Array.from(values);
}
