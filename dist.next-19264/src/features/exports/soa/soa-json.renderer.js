/** The statement as JSON (camelCase, like every response of the API). */
export function renderSoaJson(view) {
    return JSON.stringify({
        framework: view.framework,
        orgId: view.orgId,
        orgName: view.orgName,
        generatedAt: view.generatedAt,
        lastModified: view.lastModified,
        score: view.score,
        counts: view.counts,
        snapshot: view.snapshot,
        controls: view.rows,
    });
}
//# sourceMappingURL=soa-json.renderer.js.map