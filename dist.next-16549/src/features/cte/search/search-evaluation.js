export async function evaluateSearch(search, labelled) {
    const perQuery = [];
    for (const { query, expected } of labelled) {
        const refs = (await search.search(query, 10)).results.map((hit) => `${hit.frameworkId}:${hit.requirementId}`);
        const relevant = new Set(expected);
        const found = refs.slice(0, 5).filter((ref) => relevant.has(ref)).length;
        const first = refs.findIndex((ref) => relevant.has(ref));
        let dcg = 0;
        refs.forEach((ref, i) => {
            if (relevant.has(ref))
                dcg += 1 / Math.log2(i + 2);
        });
        let ideal = 0;
        for (let i = 0; i < Math.min(10, relevant.size); i++)
            ideal += 1 / Math.log2(i + 2);
        perQuery.push({
            query,
            recallAt5: found / Math.min(5, relevant.size),
            firstRank: first >= 0 ? first + 1 : null,
            ndcg: ideal > 0 ? dcg / ideal : 0,
        });
    }
    const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
    return {
        recallAt5: mean(perQuery.map((entry) => entry.recallAt5)),
        mrr: mean(perQuery.map((entry) => (entry.firstRank ? 1 / entry.firstRank : 0))),
        ndcg: mean(perQuery.map((entry) => entry.ndcg)),
        perQuery,
    };
}
//# sourceMappingURL=search-evaluation.js.map