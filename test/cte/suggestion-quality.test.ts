import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { extendLibrary, type FrameworkLibrary, loadBuiltinLibrary } from '../../src/features/cte/library.js';
import { importOscalCatalog } from '../../src/features/cte/oscal-import.js';
import { createEmbedder } from '../../src/features/cte/search/create-embedder.js';
import { libraryDocuments, type RequirementDocument } from '../../src/features/cte/search/embedder.js';
import {
  evaluateSuggestions,
  type SuggestionLabel,
  splitOf,
  withoutPair,
} from '../../src/features/cte/suggestion-evaluation.js';

const labelled = JSON.parse(readFileSync(new URL('./suggestion-labels.json', import.meta.url), 'utf8')) as {
  from: string;
  to: string;
  labels: SuggestionLabel[];
};

/**
 * Floors on the test half of the suggestion labels (figures measured when the score was chosen, on the
 * development half only, are in the comments): a regression of the suggestions or of the vectors under them
 * fails here. Floors sit about 0.1 below the measured figure.
 */
describe('crosswalk suggestion quality on the test half (built-in embedder)', { timeout: 120_000 }, () => {
  let library: FrameworkLibrary;
  let documents: RequirementDocument[];
  let vectors: Float32Array[];

  beforeAll(async () => {
    const catalog = JSON.parse(
      readFileSync(
        new URL('../fixtures/oscal/NIST_SP-800-53_rev5.0.1_catalog-min.json', import.meta.url),
        'utf8',
      ),
    );
    const { framework } = importOscalCatalog(catalog, { frameworkId: labelled.from });
    library = extendLibrary(loadBuiltinLibrary(), { frameworks: [framework] });
    documents = libraryDocuments(library.frameworks);
    const embedder = await createEmbedder({ frameworks: library.frameworks });
    vectors = await embedder.embed(documents.map((document) => document.text));
  }, 120_000);

  it('keeps the recorded split: the label file says what the hash says', () => {
    for (const label of labelled.labels) expect(label.split, label.sourceId).toBe(splitOf(label.sourceId));
    expect(labelled.labels.filter((label) => label.split === 'test')).toHaveLength(20);
    for (const label of labelled.labels) {
      expect(library.requirement(labelled.from, label.sourceId), label.sourceId).toBeDefined();
      for (const target of label.targets)
        expect(library.requirement(labelled.to, target), target).toBeDefined();
    }
  });

  it('finds the hand-labelled ISO/IEC 27001 controls for SP 800-53 controls', () => {
    const test = labelled.labels.filter((label) => label.split === 'test');
    const quality = evaluateSuggestions(library, documents, vectors, labelled, test);
    // Measured: hit@1 0.55, hit@3 0.70, recall@3 0.58, precision@N 0.50 (vectors alone: 0.45, 0.65, 0.56, 0.35);
    // with plain-language phrases added to the search texts: 0.55, 0.60, 0.51, 0.55. The floors leave room for both.
    expect(quality.hitAt3).toBeGreaterThanOrEqual(0.5);
    expect(quality.recallAt3).toBeGreaterThanOrEqual(0.4);
    expect(quality.precisionAtN).toBeGreaterThanOrEqual(0.4);
  });

  it('finds the shipped crosswalk again when a pair’s edges are left out', () => {
    const measure = (pair: { from: string; to: string }) => {
      const left = withoutPair(library, pair);
      const test = left.labels.filter((label) => label.split === 'test');
      return evaluateSuggestions(left.library, documents, vectors, pair, test);
    };
    // Measured: hit@3 0.85, recall@3 0.49 (vectors alone 0.74, 0.42).
    const nist = measure({ from: 'nist-ai-rmf', to: 'iso-42001' });
    expect(nist.hitAt3).toBeGreaterThanOrEqual(0.75);
    expect(nist.recallAt3).toBeGreaterThanOrEqual(0.39);
    // Measured: hit@3 0.91, recall@3 0.76 (vectors alone 0.82, 0.62).
    const act = measure({ from: 'eu-ai-act', to: 'iso-42001' });
    expect(act.hitAt3).toBeGreaterThanOrEqual(0.8);
    expect(act.recallAt3).toBeGreaterThanOrEqual(0.65);
  });
});
