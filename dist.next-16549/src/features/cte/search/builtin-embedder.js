/**
 * The built-in embedder, `builtin-tfidf-svd-v1`: needs no model weights and is fully deterministic.
 *
 * 1. Features per text: light-stemmed words (title words counted twice), concept tags from the compliance
 *    thesaurus, and character 3/4-grams. Each block is weighted by sublinear TF × IDF (fitted on the
 *    requirement corpus), L2-normalised on its own and scaled by a block weight.
 * 2. The documents × features matrix X is reduced by a truncated SVD computed with randomized subspace
 *    iteration (seeded Gaussian start, a few power iterations through X Xᵀ, then an exact eigen-solve of the
 *    small projected matrix). A text's embedding is its projection onto the top right singular vectors,
 *    Vₖᵀx = Σₖ⁻¹ Uₖᵀ (X x), L2-normalised. The fit multiplies Σₖ⁻¹ Uₖᵀ X out once (one k-vector per
 *    feature), so embedding a text costs k operations per feature it has, whatever the corpus size.
 */
import { createHash } from 'node:crypto';
import { gaussian, orthonormalizeColumns, seededRandom, symmetricEigen } from './linear-algebra.js';
import { textFeatures } from './text-features.js';
export const BUILTIN_MODEL = 'builtin-tfidf-svd-v1';
const BLOCKS = ['words', 'concepts', 'ngrams'];
const PREFIX = { words: 'w:', concepts: 'c:', ngrams: 'g:' };
const DEFAULTS = {
    dimension: 128,
    seed: 20_240_801,
    powerIterations: 2,
    blockWeights: { words: 1, concepts: 0.8, ngrams: 0.6 },
};
function counts(features) {
    const result = new Map();
    for (const block of BLOCKS) {
        for (const feature of features[block]) {
            const key = PREFIX[block] + feature;
            result.set(key, (result.get(key) ?? 0) + 1);
        }
    }
    return result;
}
function featuresOf(text) {
    return counts(textFeatures(text.text, text.emphasis ?? ''));
}
function blockOf(key) {
    return key.startsWith('w:') ? 'words' : key.startsWith('c:') ? 'concepts' : 'ngrams';
}
/** Sublinear TF × IDF, each block L2-normalised and weighted. Unknown features are dropped. */
function vectorize(featureCounts, vocabulary, weights) {
    const entries = [];
    const norms = { words: 0, concepts: 0, ngrams: 0 };
    for (const [key, count] of featureCounts) {
        const index = vocabulary.index.get(key);
        if (index === undefined)
            continue;
        const block = blockOf(key);
        const value = (1 + Math.log(count)) * vocabulary.idf[index];
        norms[block] += value * value;
        entries.push([index, value, block]);
    }
    entries.sort((a, b) => a[0] - b[0]);
    const indices = new Int32Array(entries.length);
    const values = new Float64Array(entries.length);
    entries.forEach(([index, value, block], i) => {
        indices[i] = index;
        values[i] = (value / Math.sqrt(norms[block])) * weights[block];
    });
    return { indices, values };
}
export class BuiltinEmbedder {
    dimension;
    fingerprint;
    vocabulary;
    weights;
    featureVectors;
    model = BUILTIN_MODEL;
    constructor(dimension, 
    /** Identifies the fitted state (corpus and options): vectors stored under another one are stale. */
    fingerprint, vocabulary, weights, 
    /** Row-major `features × dimension`: (Σₖ⁻¹ Uₖᵀ X)ᵀ, the embedding of each feature alone. */
    featureVectors) {
        this.dimension = dimension;
        this.fingerprint = fingerprint;
        this.vocabulary = vocabulary;
        this.weights = weights;
        this.featureVectors = featureVectors;
    }
    /** Fits the vocabulary, IDF and SVD on a corpus (the requirement texts). */
    static fit(corpus, options = {}) {
        const settings = {
            ...DEFAULTS,
            ...options,
            blockWeights: { ...DEFAULTS.blockWeights, ...options.blockWeights },
        };
        const n = corpus.length;
        if (n === 0)
            throw new Error('The built-in embedder needs a non-empty corpus');
        const documentFeatures = corpus.map(featuresOf);
        const df = new Map();
        for (const features of documentFeatures)
            for (const key of features.keys())
                df.set(key, (df.get(key) ?? 0) + 1);
        // Character n-grams seen in one document cannot relate two documents and only add noise.
        const kept = [...df.entries()]
            .filter(([key, count]) => blockOf(key) !== 'ngrams' || count >= 2 || n < 3)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        const vocabulary = { index: new Map(), idf: new Float64Array(kept.length) };
        kept.forEach(([key, count], index) => {
            vocabulary.index.set(key, index);
            vocabulary.idf[index] = Math.log((1 + n) / (1 + count)) + 1;
        });
        const rows = documentFeatures.map((features) => vectorize(features, vocabulary, settings.blockWeights));
        const { projection, dimension } = truncatedProjection(rows, kept.length, n, settings);
        // featureVectors[f][k] = Σ_d projection[k][d] · X[d][f].
        const featureVectors = new Float64Array(kept.length * dimension);
        const column = new Float64Array(dimension);
        for (let doc = 0; doc < n; doc++) {
            for (let k = 0; k < dimension; k++)
                column[k] = projection[k * n + doc];
            const { indices, values } = rows[doc];
            for (let i = 0; i < indices.length; i++) {
                const x = values[i];
                const offset = indices[i] * dimension;
                for (let k = 0; k < dimension; k++)
                    featureVectors[offset + k] += x * column[k];
            }
        }
        const fingerprint = createHash('sha256')
            .update(JSON.stringify({ model: BUILTIN_MODEL, settings, corpus }))
            .digest('hex')
            .slice(0, 16);
        return new BuiltinEmbedder(dimension, fingerprint, vocabulary, settings.blockWeights, featureVectors);
    }
    embedOne(text) {
        const vector = vectorize(featuresOf({ text }), this.vocabulary, this.weights);
        const dimension = this.dimension;
        const sums = new Float64Array(dimension);
        for (let i = 0; i < vector.indices.length; i++) {
            const weight = vector.values[i];
            const offset = vector.indices[i] * dimension;
            for (let k = 0; k < dimension; k++)
                sums[k] += weight * this.featureVectors[offset + k];
        }
        let norm = 0;
        for (let k = 0; k < dimension; k++)
            norm += sums[k] * sums[k];
        const out = new Float32Array(dimension);
        if (norm > 0) {
            const scale = 1 / Math.sqrt(norm);
            for (let k = 0; k < dimension; k++)
                out[k] = sums[k] * scale;
        }
        return out;
    }
    async embed(texts) {
        return texts.map((text) => this.embedOne(text));
    }
}
/**
 * Y = X Xᵀ Q for a row-major `n × l` Q, through the sparse rows of X (never forming X Xᵀ). Plain loops with
 * the row offsets hoisted: this is most of the fitting time. Sums run in the same order as ever.
 */
function gramTimes(rows, featureCount, q, l) {
    const z = new Float64Array(featureCount * l);
    for (let doc = 0; doc < rows.length; doc++) {
        const { indices, values } = rows[doc];
        const qOffset = doc * l;
        for (let i = 0; i < indices.length; i++) {
            const x = values[i];
            const zOffset = indices[i] * l;
            for (let c = 0; c < l; c++)
                z[zOffset + c] += x * q[qOffset + c];
        }
    }
    const y = new Float64Array(rows.length * l);
    for (let doc = 0; doc < rows.length; doc++) {
        const { indices, values } = rows[doc];
        const yOffset = doc * l;
        for (let i = 0; i < indices.length; i++) {
            const x = values[i];
            const zOffset = indices[i] * l;
            for (let c = 0; c < l; c++)
                y[yOffset + c] += x * z[zOffset + c];
        }
    }
    return y;
}
function truncatedProjection(rows, featureCount, n, settings) {
    const l = Math.min(n, settings.dimension + 16);
    let q = new Float64Array(n * l);
    if (l === n) {
        for (let i = 0; i < n; i++)
            q[i * l + i] = 1;
    }
    else {
        const normal = gaussian(seededRandom(settings.seed));
        for (let i = 0; i < q.length; i++)
            q[i] = normal();
        for (let iteration = 0; iteration <= settings.powerIterations; iteration++) {
            q = gramTimes(rows, featureCount, q, l);
            orthonormalizeColumns(q, n, l);
        }
    }
    const y = gramTimes(rows, featureCount, q, l);
    const b = new Float64Array(l * l);
    for (let i = 0; i < l; i++) {
        for (let j = 0; j < l; j++) {
            let sum = 0;
            for (let d = 0; d < n; d++)
                sum += q[d * l + i] * y[d * l + j];
            b[i * l + j] = sum;
        }
    }
    for (let i = 0; i < l; i++) {
        for (let j = i + 1; j < l; j++) {
            const mean = (b[i * l + j] + b[j * l + i]) / 2;
            b[i * l + j] = mean;
            b[j * l + i] = mean;
        }
    }
    const { values, vectors } = symmetricEigen(b, l);
    const floor = Math.max(values[0], 0) * 1e-9;
    let dimension = 0;
    while (dimension < Math.min(settings.dimension, l) && values[dimension] > floor)
        dimension++;
    // projection[k][d] = U[d][k] / σₖ with U = Q S.
    const projection = new Float64Array(dimension * n);
    for (let k = 0; k < dimension; k++) {
        const inverseSigma = 1 / Math.sqrt(values[k]);
        for (let d = 0; d < n; d++) {
            let u = 0;
            for (let c = 0; c < l; c++)
                u += q[d * l + c] * vectors[c * l + k];
            projection[k * n + d] = u * inverseSigma;
        }
    }
    return { projection, dimension };
}
//# sourceMappingURL=builtin-embedder.js.map