/** Brute-force cosine search over requirement vectors held in one Float32Array. */
export class VectorIndex {
    dimension;
    items;
    matrix;
    /** Vectors are L2-normalised on the way in, so a dot product is the cosine. */
    constructor(dimension, items, vectors) {
        this.dimension = dimension;
        this.items = items;
        if (items.length !== vectors.length)
            throw new Error('Each indexed requirement needs exactly one vector');
        this.matrix = new Float32Array(items.length * dimension);
        vectors.forEach((vector, row) => {
            if (vector.length !== dimension) {
                throw new Error(`Vector for ${items[row].frameworkId} ${items[row].requirementId} has ${vector.length} dimensions, expected ${dimension}`);
            }
            this.matrix.set(normalized(vector), row * dimension);
        });
    }
    get size() {
        return this.items.length;
    }
    /** The indexed requirement of a row. */
    item(row) {
        return this.items[row];
    }
    /** The stored (L2-normalised) vector of a row; a view, not a copy. */
    vector(row) {
        return this.matrix.subarray(row * this.dimension, (row + 1) * this.dimension);
    }
    /** Cosine similarity of the query with every row, in index order. */
    similarities(query) {
        if (query.length !== this.dimension) {
            throw new Error(`Query has ${query.length} dimensions, the index ${this.dimension}`);
        }
        const q = normalized(query);
        const d = this.dimension;
        const rows = this.items.length;
        const matrix = this.matrix;
        const scores = new Float32Array(rows);
        // Four rows at a time: each query component is loaded once for four products, which makes the scan
        // about a third faster. Every row still sums its products in component order, so scores are unchanged.
        let row = 0;
        for (; row + 3 < rows; row += 4) {
            const o0 = row * d;
            const o1 = o0 + d;
            const o2 = o1 + d;
            const o3 = o2 + d;
            let s0 = 0;
            let s1 = 0;
            let s2 = 0;
            let s3 = 0;
            for (let k = 0; k < d; k++) {
                const qk = q[k];
                s0 += matrix[o0 + k] * qk;
                s1 += matrix[o1 + k] * qk;
                s2 += matrix[o2 + k] * qk;
                s3 += matrix[o3 + k] * qk;
            }
            scores[row] = s0;
            scores[row + 1] = s1;
            scores[row + 2] = s2;
            scores[row + 3] = s3;
        }
        for (; row < rows; row++) {
            let score = 0;
            const offset = row * d;
            for (let k = 0; k < d; k++)
                score += matrix[offset + k] * q[k];
            scores[row] = score;
        }
        return scores;
    }
    /** The `limit` nearest requirements by cosine distance, nearest first (ties keep index order). */
    search(query, limit) {
        return this.best(this.similarities(query), limit);
    }
    /** The `limit` rows of highest score as hits, `distance` = 1 − score (ties keep index order). */
    best(scores, limit) {
        return Array.from(this.bestRows(scores, limit), (row) => ({
            ...this.items[row],
            distance: Math.round((1 - scores[row]) * 1e6) / 1e6,
        }));
    }
    /** The `limit` rows of highest score, best first (ties keep index order). */
    bestRows(scores, limit) {
        const count = Math.min(Math.max(0, Math.floor(limit)), this.items.length);
        if (count === 0)
            return new Int32Array(0);
        // Keep the best `count` rows in a sorted buffer: cheap for the small limits searches use.
        const bestRows = new Int32Array(count).fill(-1);
        const bestScores = new Float64Array(count).fill(Number.NEGATIVE_INFINITY);
        for (let row = 0; row < this.items.length; row++) {
            const score = scores[row];
            if (score <= bestScores[count - 1])
                continue;
            let at = count - 1;
            while (at > 0 && bestScores[at - 1] < score) {
                bestScores[at] = bestScores[at - 1];
                bestRows[at] = bestRows[at - 1];
                at--;
            }
            bestScores[at] = score;
            bestRows[at] = row;
        }
        const filled = bestRows.indexOf(-1);
        return filled < 0 ? bestRows : bestRows.subarray(0, filled);
    }
}
function normalized(vector) {
    let norm = 0;
    for (let i = 0; i < vector.length; i++)
        norm += vector[i] * vector[i];
    if (norm === 0 || Math.abs(norm - 1) < 1e-6)
        return vector;
    const scale = 1 / Math.sqrt(norm);
    return vector.map((value) => value * scale);
}
//# sourceMappingURL=vector-index.js.map