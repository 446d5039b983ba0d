import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmbedder } from '../../src/features/cte/search/create-embedder.js';
import { loadTransformersEmbedder } from '../../src/features/cte/search/transformers-embedder.js';
import { framework, requirement } from './hand-built.js';
import { writeTinyModel } from './tiny-transformers-model.js';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i], 0);

describe('transformers embedder on a local model', () => {
  const modelDir = mkdtempSync(join(tmpdir(), 'comply-tiny-model-'));
  writeTinyModel(modelDir, 'test/tiny-embedder');

  it('loads from the local directory and mean-pools normalised vectors', async () => {
    const embedder = await loadTransformersEmbedder({ modelDir, modelName: 'test/tiny-embedder' });
    expect(embedder.model).toBe('test/tiny-embedder');
    expect(embedder.dimension).toBe(3);
    const [logs, record, fairness] = await embedder.embed(['logs', 'record', 'fairness']);
    expect(Math.hypot(...logs)).toBeCloseTo(1, 5);
    expect(cosine(logs, record)).toBeGreaterThan(cosine(logs, fairness));
    // [CLS] and [SEP] are zero vectors here, so pooling "log bias" mixes the two directions evenly.
    const [mixed] = await embedder.embed(['log bias']);
    expect(mixed[0]).toBeCloseTo(mixed[1], 5);
  });

  it('is what createEmbedder picks when the model is present', async () => {
    const messages: string[] = [];
    const embedder = await createEmbedder({
      modelDir,
      modelName: 'test/tiny-embedder',
      frameworks: [framework('f', [requirement('R1', 'Logging')])],
      log: {
        info: (message) => messages.push(message),
        warn: (message) => messages.push(`warn: ${message}`),
      },
    });
    expect(embedder.model).toBe('test/tiny-embedder');
    expect(messages).toEqual([expect.stringContaining('test/tiny-embedder (3 dimensions)')]);
  });

  it('rejects a model that is not in the directory', async () => {
    await expect(loadTransformersEmbedder({ modelDir, modelName: 'test/missing' })).rejects.toThrow(
      /not found locally/,
    );
  });
});
