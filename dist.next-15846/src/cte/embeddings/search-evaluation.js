export async function evaluateSearch(search, labelled) {
    const perQuery = [];
    for (const { query, expected } of labelled) {
        const refs = (await search.search(query, 10)).results.map((hit) => `${hit.frameworkId}:${hit.requirementId}`);
        const found = expected.filter((ref) => refs.slice(0, 5).includes(ref)).length;
        const first = refs.findIndex((ref) => expected.includes(ref));
        perQuery.push({
            query,
            recallAt5: found / Math.min(5, expected.length),
            firstRank: first >= 0 ? first + 1 : null,
        });
    }
    const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
    return {
        recallAt5: mean(perQuery.map((entry) => entry.recallAt5)),
        mrr: mean(perQuery.map((entry) => (entry.firstRank ? 1 / entry.firstRank : 0))),
        perQuery,
    };
}
//# sourceMappingURL=search-evaluation.js.map