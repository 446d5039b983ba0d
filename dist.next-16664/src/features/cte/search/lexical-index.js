/**
 * A BM25 index over requirement texts: light-stemmed words plus the concept tags of the compliance thesaurus,
 * title words counted twice. It rewards the exact words a query shares with a requirement, which the dense
 * embedder blurs; the search blends the two.
 */
import { concepts, stem, words } from './text-features.js';
/** The terms of a text: stemmed words and `c:`-prefixed concept tags. */
export function lexicalTerms(text, emphasis = '') {
    const body = words(`${emphasis} ${text}`).map(stem);
    const emphasised = words(emphasis).map(stem);
    return [...body, ...emphasised, ...concepts(`${emphasis} ${text}`).map((concept) => `c:${concept}`)];
}
export class LexicalIndex {
    /** postings[term] = [doc, weight, doc, weight, ...], weight = BM25 term-frequency part × IDF. */
    postings = new Map();
    size;
    constructor(documents, options = {}) {
        const K1 = options.k1 ?? 1.2;
        const B = options.b ?? 0.75;
        const n = documents.length;
        const termCounts = documents.map((document) => {
            const counts = new Map();
            for (const term of lexicalTerms(document.text, document.title))
                counts.set(term, (counts.get(term) ?? 0) + 1);
            return counts;
        });
        const lengths = termCounts.map((counts) => [...counts.values()].reduce((sum, count) => sum + count, 0));
        const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, n);
        const lists = new Map();
        termCounts.forEach((counts, doc) => {
            const norm = K1 * (1 - B + (B * lengths[doc]) / (averageLength || 1));
            for (const [term, count] of counts) {
                let list = lists.get(term);
                if (!list) {
                    list = [];
                    lists.set(term, list);
                }
                list.push(doc, (count * (K1 + 1)) / (count + norm));
            }
        });
        for (const [term, list] of lists) {
            const df = list.length / 2;
            const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
            const weighted = Float64Array.from(list);
            for (let i = 1; i < weighted.length; i += 2)
                weighted[i] *= idf;
            this.postings.set(term, weighted);
        }
        this.size = n;
    }
    /** BM25 score of every document for a query (each distinct query term counted once). */
    scores(query) {
        return this.weightedScores(new Map([...new Set(lexicalTerms(query))].map((term) => [term, 1])));
    }
    /** BM25 score of every document for weighted terms (an expanded query). */
    weightedScores(terms) {
        const scores = new Float64Array(this.size);
        for (const [term, weight] of terms) {
            const list = this.postings.get(term);
            if (!list)
                continue;
            for (let i = 0; i < list.length; i += 2)
                scores[list[i]] += weight * list[i + 1];
        }
        return scores;
    }
    /** Whether a term occurs in some document. */
    has(term) {
        return this.postings.has(term);
    }
}
/**
 * BM25 over single phrases of a set of items (each phrase prefixed with its item's title); an item scores
 * its best phrase. A question that matches one phrase closely is not diluted by the rest of the item's text.
 */
export class PhraseIndex {
    size;
    index;
    owners;
    constructor(size, phrases, options) {
        this.size = size;
        this.index = new LexicalIndex(phrases.map(({ title, phrase }) => ({ title: '', text: `${title}. ${phrase}` })), options);
        this.owners = Int32Array.from(phrases.map(({ item }) => item));
    }
    /** The best phrase score of every item for a query (0 for items without phrases). */
    scores(query) {
        const best = new Float64Array(this.size);
        const scores = this.index.scores(query);
        for (let i = 0; i < scores.length; i++) {
            if (scores[i] > best[this.owners[i]])
                best[this.owners[i]] = scores[i];
        }
        return best;
    }
}
//# sourceMappingURL=lexical-index.js.map