/**
 * Requirements near each other in meaning, read as candidate crosswalk edges.
 *
 * - Similar requirements: the cosine distance between two requirements' vectors (the vectors semantic
 *   search ranks with), over the requirements of other frameworks than the one asked about.
 * - Suggestions for a pair of frameworks: for each requirement of `from`, its best requirements of `to`
 *   that no edge joins yet. The score blends the vectors' cosine similarity with the weight of the
 *   distinctive terms the two share (an IDF-weighted cosine of their term sets), half each, and adds a
 *   little when the two are each other's best (mutual best matches are the likeliest real mappings);
 *   it lies in 0..1, 1 for the same text. The blend was chosen on the development half of the labelled
 *   pairs (`bench/suggestions.bench.ts`), where it found more of the labelled targets than vectors alone.
 * - The proposed relationship comes from the terms they share: when most of one side's distinctive terms
 *   are in the other and not the reverse, the first is the narrower one (`subset`); when most of both are
 *   shared, `equal`; otherwise `intersect`, NIST IR 8477's default for a partial overlap. An analyst
 *   confirms or corrects it when accepting the edge.
 * - The rationale names the distinctive terms and the compliance concepts both texts use.
 */
import { requirementKey } from './library.js';
import { concepts, stem, words } from './search/text-features.js';
/** How many nearest requirements of `to` each requirement of `from` proposes. */
const CANDIDATES_PER_SOURCE = 3;
/** Share of the score that comes from shared distinctive terms rather than vector similarity. */
const LEXICAL_WEIGHT = 0.5;
/** Added to the similarity of mutual nearest neighbours (then capped at 1). */
const MUTUAL_BONUS = 0.05;
/** Share of a side's distinctive terms found in the other that makes it "contained". */
const CONTAINED = 0.6;
/** Below this share, a side is not contained in the other. */
const NOT_CONTAINED = 0.4;
const RATIONALE_TERMS = 6;
const round = (value) => Math.round(value * 1e6) / 1e6;
/**
 * The vectors and texts of a library's requirements, prepared once per search build: normalised rows, term
 * profiles and their inverse document frequencies.
 */
export class RequirementNeighbourhood {
    library;
    documents;
    rows = new Map();
    matrix;
    dimension;
    profiles;
    idf = new Map();
    lexicalWeight;
    suggestionCache = new Map();
    frameworkRows = new Map();
    totals;
    constructor(library, documents, vectors, options = {}) {
        this.library = library;
        this.documents = documents;
        this.lexicalWeight = options.lexicalWeight ?? LEXICAL_WEIGHT;
        this.dimension = vectors[0]?.length ?? 0;
        this.matrix = new Float32Array(documents.length * this.dimension);
        documents.forEach((document, row) => {
            this.rows.set(requirementKey(document.frameworkId, document.requirementId), row);
            const vector = vectors[row];
            let norm = 0;
            for (let k = 0; k < vector.length; k++)
                norm += vector[k] * vector[k];
            const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
            for (let k = 0; k < vector.length; k++)
                this.matrix[row * this.dimension + k] = vector[k] * scale;
        });
        this.profiles = documents.map((document) => profileOf(document.text));
        const df = new Map();
        for (const profile of this.profiles) {
            for (const term of profile.terms.keys())
                df.set(term, (df.get(term) ?? 0) + 1);
        }
        for (const [term, count] of df)
            this.idf.set(term, Math.log((documents.length + 1) / (count + 0.5)));
        this.totals = this.profiles.map((profile) => [...profile.terms.keys()].reduce((sum, term) => sum + (this.idf.get(term) ?? 0), 0));
    }
    /** The weight of the distinctive terms two requirements share, as a cosine of IDF-weighted term sets. */
    lexical(a, b) {
        const [small, large] = this.profiles[a].terms.size <= this.profiles[b].terms.size
            ? [this.profiles[a], this.profiles[b]]
            : [this.profiles[b], this.profiles[a]];
        let shared = 0;
        for (const term of small.terms.keys())
            if (large.terms.has(term))
                shared += this.idf.get(term) ?? 0;
        const norm = Math.sqrt(this.totals[a] * this.totals[b]);
        return norm > 0 ? shared / norm : 0;
    }
    /** What a suggestion is ranked by: vector similarity blended with shared distinctive terms. */
    pairScore(a, b) {
        const w = this.lexicalWeight;
        return w === 0 ? this.similarity(a, b) : (1 - w) * this.similarity(a, b) + w * this.lexical(a, b);
    }
    rowOf(ref) {
        return this.rows.get(requirementKey(ref.frameworkId, ref.requirementId));
    }
    similarity(a, b) {
        const d = this.dimension;
        let dot = 0;
        for (let k = 0; k < d; k++)
            dot += this.matrix[a * d + k] * this.matrix[b * d + k];
        return dot;
    }
    /** Rows of one framework, in library order (computed once per framework). */
    rowsOf(frameworkId) {
        let rows = this.frameworkRows.get(frameworkId);
        if (rows)
            return rows;
        const framework = this.library.framework(frameworkId);
        rows = (framework?.requirements ?? []).flatMap((requirement) => {
            const row = this.rowOf({ frameworkId, requirementId: requirement.id });
            return row === undefined ? [] : [row];
        });
        this.frameworkRows.set(frameworkId, rows);
        return rows;
    }
    /** The `limit` requirements of other frameworks (or of `onlyFrameworkId`) nearest to `ref`. */
    similar(ref, limit, onlyFrameworkId) {
        const origin = this.rowOf(ref);
        if (origin === undefined)
            return [];
        const scored = [];
        const frameworks = onlyFrameworkId
            ? [onlyFrameworkId]
            : this.library.frameworks.map((framework) => framework.id).filter((id) => id !== ref.frameworkId);
        for (const frameworkId of frameworks) {
            for (const row of this.rowsOf(frameworkId)) {
                scored.push({ row, similarity: this.similarity(origin, row) });
            }
        }
        scored.sort((a, b) => b.similarity - a.similarity || a.row - b.row);
        return scored.slice(0, limit).map(({ row, similarity }) => {
            const document = this.documents[row];
            const other = { frameworkId: document.frameworkId, requirementId: document.requirementId };
            return {
                ...other,
                title: document.title,
                distance: round(1 - similarity),
                mapped: this.library.edgesBetween(ref, other).length > 0,
            };
        });
    }
    /** Candidate edges from `from` to `to` that no edge covers yet, best first (each pair computed once). */
    suggest(from, to, options) {
        const key = `${from}\u001f${to}`;
        let all = this.suggestionCache.get(key);
        if (!all) {
            all = this.allSuggestions(from, to);
            this.suggestionCache.set(key, all);
        }
        const kept = [];
        for (const suggestion of all) {
            if (kept.length >= options.limit)
                break;
            if (suggestion.score >= options.minScore)
                kept.push(suggestion);
        }
        return kept;
    }
    allSuggestions(from, to) {
        const sources = this.rowsOf(from);
        const targets = this.rowsOf(to);
        if (sources.length === 0 || targets.length === 0)
            return [];
        const similarities = new Float32Array(sources.length * targets.length);
        sources.forEach((source, i) => {
            targets.forEach((target, j) => {
                similarities[i * targets.length + j] = this.pairScore(source, target);
            });
        });
        // Each side's nearest on the other, for the mutual bonus.
        const bestTargetOf = sources.map((_, i) => argmax(targets.length, (j) => similarities[i * targets.length + j]));
        const bestSourceOf = targets.map((_, j) => argmax(sources.length, (i) => similarities[i * targets.length + j]));
        const suggestions = [];
        sources.forEach((source, i) => {
            const sourceRef = this.refOf(source);
            const ranked = targets
                .map((target, j) => ({ target, j, similarity: similarities[i * targets.length + j] }))
                .filter(({ target }) => this.library.edgesBetween(sourceRef, this.refOf(target)).length === 0)
                .sort((a, b) => b.similarity - a.similarity || a.j - b.j)
                .slice(0, CANDIDATES_PER_SOURCE);
            for (const { target, j, similarity } of ranked) {
                const mutual = bestTargetOf[i] === j && bestSourceOf[j] === i;
                const score = round(Math.min(1, Math.max(0, similarity + (mutual ? MUTUAL_BONUS : 0))));
                const { relationship, rationale } = this.explain(source, target);
                suggestions.push({
                    sourceId: sourceRef.requirementId,
                    targetId: this.documents[target].requirementId,
                    relationship,
                    score,
                    rationale,
                });
            }
        });
        suggestions.sort((a, b) => b.score - a.score || a.sourceId.localeCompare(b.sourceId) || a.targetId.localeCompare(b.targetId));
        return suggestions;
    }
    refOf(row) {
        const { frameworkId, requirementId } = this.documents[row];
        return { frameworkId, requirementId };
    }
    /** The proposed relationship and the words behind it (the rules at the top of this file). */
    explain(source, target) {
        const a = this.profiles[source];
        const b = this.profiles[target];
        const weight = (term) => this.idf.get(term) ?? 0;
        const total = (profile) => [...profile.terms.keys()].reduce((sum, term) => sum + weight(term), 0);
        const shared = [...a.terms.keys()].filter((term) => b.terms.has(term));
        const sharedWeight = shared.reduce((sum, term) => sum + weight(term), 0);
        const inA = total(a) > 0 ? sharedWeight / total(a) : 0;
        const inB = total(b) > 0 ? sharedWeight / total(b) : 0;
        let relationship = 'intersect';
        if (inA >= CONTAINED && inB >= CONTAINED)
            relationship = 'equal';
        else if (inA >= CONTAINED && inB < NOT_CONTAINED)
            relationship = 'subset';
        else if (inB >= CONTAINED && inA < NOT_CONTAINED)
            relationship = 'superset';
        const terms = shared
            .sort((x, y) => weight(y) - weight(x) || x.localeCompare(y))
            .slice(0, RATIONALE_TERMS)
            .map((term) => a.terms.get(term));
        const sharedConcepts = [...a.concepts].filter((concept) => b.concepts.has(concept)).sort();
        const parts = [
            terms.length > 0 ? `Both speak of ${terms.join(', ')}` : 'Close in meaning without shared terms',
            ...(sharedConcepts.length > 0 ? [`shared concepts: ${sharedConcepts.join(', ')}`] : []),
        ];
        const coverage = `${Math.round(inA * 100)}% of the source's distinctive terms are in the target, ${Math.round(inB * 100)}% the other way`;
        return { relationship, rationale: `${parts.join('; ')}. ${coverage}.` };
    }
}
function argmax(count, value) {
    let best = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let index = 0; index < count; index++) {
        const v = value(index);
        if (v > bestValue) {
            bestValue = v;
            best = index;
        }
    }
    return best;
}
function profileOf(text) {
    const terms = new Map();
    for (const word of words(text)) {
        const stemmed = stem(word);
        // Numbers and two-letter words (ids, "ai") carry little meaning between frameworks.
        if (word.length < 3 || /^\d+$/.test(word))
            continue;
        if (!terms.has(stemmed))
            terms.set(stemmed, word);
    }
    return { terms, concepts: new Set(concepts(text)) };
}
//# sourceMappingURL=crosswalk-suggestions.js.map