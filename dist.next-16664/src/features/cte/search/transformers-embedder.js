export const DEFAULT_TRANSFORMERS_MODEL = 'Xenova/all-MiniLM-L6-v2';
/** Loads the model; rejects (e.g. with `ModelFileNotFoundError`) when its files are not in `modelDir`. */
export async function loadTransformersEmbedder(options) {
    const { env, pipeline } = await import('@huggingface/transformers');
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = options.modelDir.endsWith('/') ? options.modelDir : `${options.modelDir}/`;
    const modelName = options.modelName ?? DEFAULT_TRANSFORMERS_MODEL;
    const extractor = await pipeline('feature-extraction', modelName, { dtype: 'fp32' });
    const batchSize = options.batchSize ?? 32;
    async function embedBatch(texts) {
        const output = await extractor(texts, { pooling: 'mean', normalize: true });
        const [rows, dimension] = output.dims;
        const data = output.data;
        return Array.from({ length: rows }, (_, row) => data.slice(row * dimension, (row + 1) * dimension));
    }
    const [probe] = await embedBatch(['dimension probe']);
    return {
        model: modelName,
        dimension: probe.length,
        async embed(texts) {
            const vectors = [];
            for (let start = 0; start < texts.length; start += batchSize) {
                vectors.push(...(await embedBatch(texts.slice(start, start + batchSize))));
            }
            return vectors;
        },
    };
}
//# sourceMappingURL=transformers-embedder.js.map