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
    /** The `limit` nearest requirements by cosine distance, nearest first (ties keep index order). */
    search(query, limit) {
        if (query.length !== this.dimension) {
            throw new Error(`Query has ${query.length} dimensions, the index ${this.dimension}`);
        }
        const q = normalized(query);
        const count = Math.min(Math.max(0, Math.floor(limit)), this.items.length);
        if (count === 0)
            return [];
        // Keep the best `count` rows in a sorted buffer: cheap for the small limits searches use.
        const bestRows = new Int32Array(count).fill(-1);
        const bestScores = new Float64Array(count).fill(Number.NEGATIVE_INFINITY);
        const d = this.dimension;
        for (let row = 0; row < this.items.length; row++) {
            let score = 0;
            const offset = row * d;
            for (let k = 0; k < d; k++)
                score += this.matrix[offset + k] * q[k];
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
        const hits = [];
        for (let i = 0; i < count; i++) {
            if (bestRows[i] < 0)
                break;
            const item = this.items[bestRows[i]];
            hits.push({ ...item, distance: Math.round((1 - bestScores[i]) * 1e6) / 1e6 });
        }
        return hits;
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