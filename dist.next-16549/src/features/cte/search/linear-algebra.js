/** The little dense linear algebra the built-in embedder needs: a seeded PRNG, QR and symmetric eigen. */
/** mulberry32: a small, fast, seedable PRNG; the same seed gives the same sequence everywhere. */
export function seededRandom(seed) {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
/** Standard normal samples (Box–Muller) from a uniform source. */
export function gaussian(random) {
    return () => {
        const u = Math.max(random(), Number.EPSILON);
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
    };
}
/**
 * Orthonormalises the columns of a row-major `rows × cols` matrix in place (modified Gram–Schmidt, run
 * twice for stability). Columns that vanish are left as zeros.
 */
export function orthonormalizeColumns(matrix, rows, cols) {
    for (let pass = 0; pass < 2; pass++) {
        for (let j = 0; j < cols; j++) {
            for (let k = 0; k < j; k++) {
                let dot = 0;
                for (let i = 0; i < rows; i++)
                    dot += matrix[i * cols + j] * matrix[i * cols + k];
                for (let i = 0; i < rows; i++)
                    matrix[i * cols + j] -= dot * matrix[i * cols + k];
            }
            let norm = 0;
            for (let i = 0; i < rows; i++)
                norm += matrix[i * cols + j] ** 2;
            norm = Math.sqrt(norm);
            const scale = norm > 1e-12 ? 1 / norm : 0;
            for (let i = 0; i < rows; i++)
                matrix[i * cols + j] *= scale;
        }
    }
}
/**
 * Eigen-decomposition of a symmetric `n × n` matrix (row-major) by cyclic Jacobi rotations. Exact to
 * rounding and fine for the small matrices (a few hundred rows) the embedder reduces to.
 */
export function symmetricEigen(input, n, maxSweeps = 60) {
    const a = Float64Array.from(input);
    const v = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
        v[i * n + i] = 1;
    let scale = 0;
    for (let i = 0; i < n * n; i++)
        scale += a[i] * a[i];
    const tolerance = 1e-22 * Math.max(scale, Number.MIN_VALUE);
    for (let sweep = 0; sweep < maxSweeps; sweep++) {
        let off = 0;
        for (let p = 0; p < n; p++)
            for (let q = p + 1; q < n; q++)
                off += a[p * n + q] ** 2;
        if (off <= tolerance)
            break;
        for (let p = 0; p < n - 1; p++) {
            for (let q = p + 1; q < n; q++) {
                const apq = a[p * n + q];
                if (Math.abs(apq) < 1e-300)
                    continue;
                const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
                const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
                const c = 1 / Math.sqrt(t * t + 1);
                const s = t * c;
                for (let r = 0; r < n; r++) {
                    if (r === p || r === q)
                        continue;
                    const arp = a[r * n + p];
                    const arq = a[r * n + q];
                    const newRp = c * arp - s * arq;
                    const newRq = s * arp + c * arq;
                    a[r * n + p] = newRp;
                    a[p * n + r] = newRp;
                    a[r * n + q] = newRq;
                    a[q * n + r] = newRq;
                }
                a[p * n + p] -= t * apq;
                a[q * n + q] += t * apq;
                a[p * n + q] = 0;
                a[q * n + p] = 0;
                for (let r = 0; r < n; r++) {
                    const vrp = v[r * n + p];
                    const vrq = v[r * n + q];
                    v[r * n + p] = c * vrp - s * vrq;
                    v[r * n + q] = s * vrp + c * vrq;
                }
            }
        }
    }
    const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => a[j * n + j] - a[i * n + i] || i - j);
    const values = new Float64Array(n);
    const vectors = new Float64Array(n * n);
    order.forEach((source, target) => {
        values[target] = a[source * n + source];
        for (let r = 0; r < n; r++)
            vectors[r * n + target] = v[r * n + source];
    });
    return { values, vectors };
}
//# sourceMappingURL=linear-algebra.js.map