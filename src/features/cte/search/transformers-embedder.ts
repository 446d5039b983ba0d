/**
 * A sentence-embedding model run by `@huggingface/transformers` (feature-extraction, mean pooling,
 * normalised), loaded only from a local directory: remote downloads are switched off.
 */
import type { Embedder } from './embedder.js';

export const DEFAULT_TRANSFORMERS_MODEL = 'Xenova/all-MiniLM-L6-v2';

export interface TransformersEmbedderOptions {
  /** Directory holding `<modelName>/config.json`, `tokenizer.json`, `onnx/model.onnx`, ... */
  modelDir: string;
  modelName?: string;
  batchSize?: number;
}

/** Loads the model; rejects (e.g. with `ModelFileNotFoundError`) when its files are not in `modelDir`. */
export async function loadTransformersEmbedder(options: TransformersEmbedderOptions): Promise<Embedder> {
  const { env, pipeline } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = options.modelDir.endsWith('/') ? options.modelDir : `${options.modelDir}/`;
  const modelName = options.modelName ?? DEFAULT_TRANSFORMERS_MODEL;
  const extractor = await pipeline('feature-extraction', modelName, { dtype: 'fp32' });
  const batchSize = options.batchSize ?? 32;

  async function embedBatch(texts: string[]): Promise<Float32Array[]> {
    const output = await extractor(texts, { pooling: 'mean', normalize: true });
    const [rows, dimension] = output.dims as [number, number];
    const data = output.data as Float32Array;
    return Array.from({ length: rows }, (_, row) => data.slice(row * dimension, (row + 1) * dimension));
  }

  const [probe] = await embedBatch(['dimension probe']);
  return {
    model: modelName,
    dimension: probe.length,
    async embed(texts: string[]): Promise<Float32Array[]> {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        vectors.push(...(await embedBatch(texts.slice(start, start + batchSize))));
      }
      return vectors;
    },
  };
}
