/** The crosswalk's edges as `comply mappings list` shows them, read from the OSCAL mapping export. */
/** NIST IR 8477 names in the OSCAL export → the API's relationship words. */
const FROM_IR_8477 = {
    'equal-to': 'equal',
    'subset-of': 'subset',
    'superset-of': 'superset',
    'intersects-with': 'intersect',
};
/** Every edge of the OSCAL mapping export, one row each (the export is the crosswalk's published form). */
export function edgesOf(document) {
    const collection = document['mapping-collection'];
    const frameworkOf = new Map((collection['back-matter']?.resources ?? []).map((resource) => [
        `#${resource.uuid}`,
        resource.props?.find((prop) => prop.name === 'framework-id')?.value ?? resource.uuid,
    ]));
    return collection.mappings.flatMap((mapping) => mapping.maps.map((map) => {
        const prop = (name) => map.props?.find((candidate) => candidate.name === name)?.value;
        return {
            edgeId: map.uuid,
            sourceFrameworkId: frameworkOf.get(mapping['source-resource'].href) ?? '',
            sourceId: map.sources[0]?.['id-ref'] ?? '',
            relationship: FROM_IR_8477[map.relationship] ?? map.relationship,
            targetFrameworkId: frameworkOf.get(mapping['target-resource'].href) ?? '',
            targetId: map.targets[0]?.['id-ref'] ?? '',
            origin: prop('origin') ?? '',
            added: prop('added') === 'true',
            ...(prop('created-by') ? { createdBy: prop('created-by') } : {}),
            ...(prop('created-at') ? { createdAt: prop('created-at') } : {}),
        };
    }));
}
//# sourceMappingURL=mapping-edges.js.map