import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_MODEL, BuiltinEmbedder } from '../../src/features/cte/search/builtin-embedder.js';
import { createEmbedder, fitBuiltinEmbedder } from '../../src/features/cte/search/create-embedder.js';
import {
  gaussian,
  orthonormalizeColumns,
  seededRandom,
  symmetricEigen,
} from '../../src/features/cte/search/linear-algebra.js';
import { RequirementSearch } from '../../src/features/cte/search/requirement-search.js';
import { concepts, stem, words } from '../../src/features/cte/search/text-features.js';
import {
  arrayToVector,
  bufferToVector,
  vectorToArray,
  vectorToBuffer,
} from '../../src/features/cte/search/vector-codec.js';
import { VectorIndex } from '../../src/features/cte/search/vector-index.js';
import { LruCache } from '../../src/platform/cache/lru-cache.js';
import { framework, requirement, smallLibrary } from './hand-built.js';

describe('linear algebra', () => {
  it('decomposes a symmetric matrix exactly, eigenvalues descending', () => {
    const n = 12;
    const normal = gaussian(seededRandom(7));
    const m = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) m[i * n + j] = m[j * n + i] = normal();
    const { values, vectors } = symmetricEigen(m, n);
    for (let k = 0; k < n; k++) {
      if (k > 0) expect(values[k]).toBeLessThanOrEqual(values[k - 1]);
      for (let i = 0; i < n; i++) {
        let av = 0;
        for (let j = 0; j < n; j++) av += m[i * n + j] * vectors[j * n + k];
        expect(av).toBeCloseTo(values[k] * vectors[i * n + k], 9);
      }
      for (let other = 0; other < n; other++) {
        let dot = 0;
        for (let i = 0; i < n; i++) dot += vectors[i * n + k] * vectors[i * n + other];
        expect(dot).toBeCloseTo(k === other ? 1 : 0, 9);
      }
    }
  });

  it('orthonormalises columns and repeats a seeded sequence', () => {
    const rows = 6;
    const cols = 3;
    const random = seededRandom(1);
    const m = Float64Array.from({ length: rows * cols }, () => random());
    orthonormalizeColumns(m, rows, cols);
    for (let a = 0; a < cols; a++) {
      for (let b = 0; b < cols; b++) {
        let dot = 0;
        for (let i = 0; i < rows; i++) dot += m[i * cols + a] * m[i * cols + b];
        expect(dot).toBeCloseTo(a === b ? 1 : 0, 12);
      }
    }
    const first = seededRandom(99);
    const second = seededRandom(99);
    expect([first(), first(), first()]).toEqual([second(), second(), second()]);
  });
});

describe('text features', () => {
  it('stems lightly and drops stopwords', () => {
    expect(['logs', 'logging', 'logged', 'log'].map(stem)).toEqual(['log', 'log', 'log', 'log']);
    expect(stem('policies')).toBe('policy');
    expect(stem('access')).toBe('access');
    expect(words('Keep the logs of the AI-system')).toEqual(['keep', 'logs', 'ai', 'system']);
  });

  it('maps thesaurus phrases to shared concepts', () => {
    expect(concepts('an audit trail of decisions')).toContain('logging');
    expect(concepts('record-keeping duties')).toContain('logging');
    expect(concepts('human-in-the-loop review')).toContain('oversight');
    expect(concepts('a personal data breach')).toEqual(expect.arrayContaining(['incident', 'personal-data']));
  });

  it('matches a phrase whose meaning rests on a stopword only with that stopword', () => {
    expect(concepts('the rules come into force in August')).not.toContain('timeline');
    expect(concepts('the rules are in force')).toContain('timeline');
    expect(concepts('customers can see their own name')).toContain('value-chain');
    expect(concepts('print customer names')).not.toContain('value-chain');
    expect(concepts('does the model still work')).not.toContain('workplace');
    expect(concepts('cameras at work')).toContain('workplace');
    // Stopwords still do not block the other phrases: "record events" meets "record all of the events".
    expect(concepts('we record all of the events')).toContain('logging');
  });
});

describe('built-in embedder', () => {
  const corpus = [
    { text: 'Record-keeping: the system automatically records events in logs.', emphasis: 'Record-keeping' },
    {
      text: 'Human oversight: natural persons can intervene and stop the system.',
      emphasis: 'Human oversight',
    },
    { text: 'Fairness: evaluate discrimination against protected groups.', emphasis: 'Fairness' },
    {
      text: 'Breach notification: tell the authority about a personal data breach.',
      emphasis: 'Breach notification',
    },
    { text: 'Encryption of data at rest and in transit.', emphasis: 'Cryptography' },
  ];

  it('is deterministic, normalised and no wider than the corpus allows', async () => {
    const a = BuiltinEmbedder.fit(corpus);
    const b = BuiltinEmbedder.fit(corpus);
    expect(a.model).toBe(BUILTIN_MODEL);
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(a.dimension).toBeLessThanOrEqual(corpus.length);
    const [va] = await a.embed(['audit trail']);
    const [vb] = await b.embed(['audit trail']);
    expect(Array.from(va)).toEqual(Array.from(vb));
    expect(Math.hypot(...va)).toBeCloseTo(1, 5);
    expect(BuiltinEmbedder.fit(corpus.slice(1)).fingerprint).not.toBe(a.fingerprint);
    expect(() => BuiltinEmbedder.fit([])).toThrow(/non-empty/);
  });

  it('relates synonyms that share no word through the thesaurus', async () => {
    const embedder = BuiltinEmbedder.fit(corpus);
    const items = corpus.map((entry, i) => ({
      frameworkId: 'f',
      requirementId: `R${i}`,
      title: entry.emphasis,
    }));
    const index = new VectorIndex(
      embedder.dimension,
      items,
      await embedder.embed(corpus.map((entry) => entry.text)),
    );
    const top = async (query: string) => index.search((await embedder.embed([query]))[0], 1)[0].title;
    expect(await top('audit trail')).toBe('Record-keeping');
    expect(await top('human in the loop')).toBe('Human oversight');
    expect(await top('bias')).toBe('Fairness');
    expect(await top('security incident')).toBe('Breach notification');
  });

  it('returns a zero vector for text with no known feature', async () => {
    const embedder = BuiltinEmbedder.fit(corpus);
    const [vector] = await embedder.embed(['zzzqqq']);
    expect(vector.every((value) => value === 0)).toBe(true);
  });
});

describe('vector index', () => {
  const items = ['a', 'b', 'c'].map((id) => ({
    frameworkId: 'f',
    requirementId: id,
    title: id.toUpperCase(),
  }));
  const index = new VectorIndex(2, items, [
    Float32Array.of(1, 0),
    Float32Array.of(0, 2),
    Float32Array.of(-1, 0),
  ]);

  it('ranks by cosine distance with the distance 1 − cosine', () => {
    const hits = index.search(Float32Array.of(3, 1), 3);
    expect(hits.map((hit) => hit.requirementId)).toEqual(['a', 'b', 'c']);
    expect(hits[0].distance).toBeCloseTo(1 - 3 / Math.sqrt(10), 5);
    expect(hits[1].distance).toBeCloseTo(1 - 1 / Math.sqrt(10), 5);
    expect(hits[2].distance).toBeCloseTo(1 + 3 / Math.sqrt(10), 5);
    expect(index.search(Float32Array.of(0, 1), 1)).toEqual([{ ...items[1], distance: 0 }]);
    expect(index.search(Float32Array.of(0, 1), 10)).toHaveLength(3);
    expect(index.search(Float32Array.of(0, 1), 0)).toEqual([]);
  });

  it('scores every row as its own dot product, whatever the number of rows', () => {
    const dimension = 5;
    const vector = (seed: number) =>
      Float32Array.from({ length: dimension }, (_, k) => Math.sin(seed * 7 + k * 3) + 0.1 * k);
    const query = vector(99);
    const norm = (v: Float32Array) => Math.hypot(...v);
    for (let rows = 0; rows <= 9; rows++) {
      const vectors = Array.from({ length: rows }, (_, row) => vector(row));
      const rowItems = vectors.map((_, row) => ({ frameworkId: 'f', requirementId: `r${row}`, title: '' }));
      const scores = new VectorIndex(dimension, rowItems, vectors).similarities(query);
      expect(scores).toHaveLength(rows);
      vectors.forEach((v, row) => {
        const cosine = v.reduce((sum, x, k) => sum + x * query[k], 0) / (norm(v) * norm(query));
        expect(scores[row]).toBeCloseTo(cosine, 5);
      });
    }
  });

  it('rejects vectors of the wrong width', () => {
    expect(() => index.search(Float32Array.of(1, 2, 3), 1)).toThrow(/dimensions/);
    expect(() => new VectorIndex(2, items.slice(0, 1), [Float32Array.of(1)])).toThrow(/expected 2/);
    expect(() => new VectorIndex(2, items, [])).toThrow(/exactly one vector/);
  });
});

describe('vector serialisation and query cache', () => {
  it('round-trips vectors through bytes and arrays', () => {
    const vector = Float32Array.of(0.5, -1.25, 1234.5678, 0);
    const buffer = vectorToBuffer(vector);
    expect(buffer.byteLength).toBe(16);
    expect(Array.from(bufferToVector(buffer))).toEqual(Array.from(vector));
    expect(Array.from(bufferToVector(new Uint8Array(buffer).subarray(4)))).toEqual(
      Array.from(vector.subarray(1)),
    );
    expect(Array.from(arrayToVector(vectorToArray(vector)))).toEqual(Array.from(vector));
    expect(() => bufferToVector(new Uint8Array(3))).toThrow(/multiple of 4/);
  });

  it('evicts the least recently used entry', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.size).toBe(2);
    expect(() => new LruCache(0)).toThrow();
  });

  it('caches query embeddings and names the model', async () => {
    const library = smallLibrary();
    const search = await RequirementSearch.build(library, fitBuiltinEmbedder(library.frameworks));
    const first = await search.embedQuery('Keep  logs');
    expect(await search.embedQuery('keep logs')).toBe(first);
    const response = await search.search('keep logs', 2);
    expect(response.model).toBe(BUILTIN_MODEL);
    expect(response.results).toHaveLength(2);
    expect(response.results[0].distance).toBeLessThanOrEqual(response.results[1].distance);
  });
});

describe('embedder choice', () => {
  const frameworks = [framework('f', [requirement('R1', 'Logging'), requirement('R2', 'Oversight')])];

  it('falls back to the built-in embedder when the local model is missing, saying why', async () => {
    const warnings: string[] = [];
    const modelDir = mkdtempSync(join(tmpdir(), 'comply-models-'));
    const embedder = await createEmbedder({
      modelDir,
      modelName: 'Xenova/all-MiniLM-L6-v2',
      frameworks,
      log: { info: () => {}, warn: (message) => warnings.push(message) },
    });
    expect(embedder.model).toBe(BUILTIN_MODEL);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(modelDir);
    expect(warnings[0]).toMatch(/not found locally|ModelFileNotFoundError/);
  });

  it('uses the built-in embedder directly without a model directory', async () => {
    const embedder = await createEmbedder({ frameworks });
    expect(embedder.model).toBe(BUILTIN_MODEL);
  });
});
