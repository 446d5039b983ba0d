/**
 * Quality of the crosswalk suggestions with the built-in embedder (no database): the hand-labelled SP 800-53
 * → ISO/IEC 27001 pairs (test/cte/suggestion-labels.json) and the shipped crosswalk found again with each
 * pair's edges left out, on the development and test halves. Run: npm run bench -- suggestions
 * (SUGGESTION_SPLITS=dev prints the development half only, which is all tuning may look at).
 */
import { readFileSync } from 'node:fs';
import { extendLibrary, type FrameworkLibrary, loadBuiltinLibrary } from '../src/features/cte/library.js';
import { importOscalCatalog } from '../src/features/cte/oscal-import.js';
import { createEmbedder } from '../src/features/cte/search/create-embedder.js';
import { libraryDocuments } from '../src/features/cte/search/embedder.js';
import {
  evaluateSuggestions,
  type SuggestionLabel,
  withoutPair,
} from '../src/features/cte/suggestion-evaluation.js';
import { ROOT } from './support.js';

const lexicalWeight = process.env.SUGGESTION_LEXICAL_WEIGHT
  ? Number(process.env.SUGGESTION_LEXICAL_WEIGHT)
  : undefined;
const splits = (process.env.SUGGESTION_SPLITS ?? 'dev,test').split(',') as ('dev' | 'test')[];
const labelled = JSON.parse(readFileSync(`${ROOT}/test/cte/suggestion-labels.json`, 'utf8')) as {
  from: string;
  to: string;
  labels: SuggestionLabel[];
};
const catalog = JSON.parse(
  readFileSync(`${ROOT}/test/fixtures/oscal/NIST_SP-800-53_rev5.0.1_catalog-min.json`, 'utf8'),
);
const { framework } = importOscalCatalog(catalog, { frameworkId: labelled.from });
const library = extendLibrary(loadBuiltinLibrary(), { frameworks: [framework] });

async function vectorsOf(of: FrameworkLibrary) {
  const documents = libraryDocuments(of.frameworks);
  const embedder = await createEmbedder({ frameworks: of.frameworks });
  return {
    documents,
    vectors: await embedder.embed(documents.map((document) => document.text)),
    model: embedder.model,
  };
}

const { documents, vectors, model } = await vectorsOf(library);
console.log(`model ${model}; hit@1, hit@3, recall@3 per source; precision@N of the best-scored N`);
const row = (name: string, split: string, quality: ReturnType<typeof evaluateSuggestions>) =>
  console.log(
    `${name.padEnd(34)} ${split.padEnd(4)} n=${String(quality.sources).padStart(3)}  hit@1 ${quality.hitAt1.toFixed(3)}  hit@3 ${quality.hitAt3.toFixed(3)}  recall@3 ${quality.recallAt3.toFixed(3)}  precision@N ${quality.precisionAtN.toFixed(3)}`,
  );
for (const split of splits) {
  const labels = labelled.labels.filter((label) => label.split === split);
  const quality = evaluateSuggestions(library, documents, vectors, labelled, labels, { lexicalWeight });
  console.log(
    `  ${split}: share right among suggestions scoring at least ${quality.byThreshold
      .map((t) => `${t.minScore}: ${t.precision.toFixed(2)} of ${t.suggestions}`)
      .join(', ')}`,
  );
  row(
    `${labelled.from.slice(0, 20)} → ${labelled.to}`,
    split,
    evaluateSuggestions(library, documents, vectors, labelled, labels, { lexicalWeight }),
  );
}
for (const pair of [
  { from: 'nist-ai-rmf', to: 'iso-42001' },
  { from: 'eu-ai-act', to: 'iso-42001' },
  { from: 'gdpr', to: 'iso-27001' },
  { from: 'gdpr', to: 'iso-42001' },
]) {
  const left = withoutPair(library, pair);
  for (const split of splits) {
    const labels = left.labels.filter((label) => label.split === split);
    row(
      `${pair.from} → ${pair.to} (shipped)`,
      split,
      evaluateSuggestions(left.library, documents, vectors, pair, labels, { lexicalWeight }),
    );
  }
}
