/** Vectors ↔ bytes (little-endian float32) for storage in a bytea column, and ↔ plain arrays for real[]. */
export function vectorToBuffer(vector) {
    const buffer = Buffer.alloc(vector.length * 4);
    for (let i = 0; i < vector.length; i++)
        buffer.writeFloatLE(vector[i], i * 4);
    return buffer;
}
export function bufferToVector(buffer) {
    if (buffer.byteLength % 4 !== 0)
        throw new Error(`A float32 vector needs a multiple of 4 bytes, got ${buffer.byteLength}`);
    const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    const vector = new Float32Array(buffer.byteLength / 4);
    for (let i = 0; i < vector.length; i++)
        vector[i] = view.getFloat32(i * 4, true);
    return vector;
}
export function vectorToArray(vector) {
    return Array.from(vector);
}
export function arrayToVector(values) {
    return Float32Array.from(values);
}
//# sourceMappingURL=vector-codec.js.map