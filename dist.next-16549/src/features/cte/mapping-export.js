/**
 * Exports the crosswalk as an OSCAL 1.2.1 `mapping-collection`: one mapping per ordered pair of frameworks,
 * one map entry per edge, with NIST IR 8477 set-theory relationships. UUIDs are v5, derived from stable
 * names: a map keeps its UUID across exports while the collection's UUID changes with its content.
 */
import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import { COMPLY_PROP_NS, OSCAL_VERSION } from '../../platform/oscal/constants.js';
import { oscalSchemaErrors } from '../../platform/oscal/validation.js';
import { edgeName } from './library.js';
const UUID_NAMESPACE = 'b3c1d0a4-6f2e-5d8a-9c47-3e1f0b2a6d58';
const IR_8477 = {
    equal: 'equal-to',
    subset: 'subset-of',
    superset: 'superset-of',
    intersect: 'intersects-with',
};
function stableUuid(name) {
    return uuidv5(name, UUID_NAMESPACE);
}
/**
 * A map's UUID is its edge's id. Edges an analyst added through the API say so (`added`, with who and when,
 * and the published mapping they come from when one was named); shipped edges have no such props.
 */
function mapEntry(edge) {
    const props = [
        { name: 'origin', ns: COMPLY_PROP_NS, value: edge.origin },
        { name: 'inferred', ns: COMPLY_PROP_NS, value: String(edge.inferred) },
    ];
    if (edge.added) {
        props.push({ name: 'added', ns: COMPLY_PROP_NS, value: 'true' }, { name: 'created-by', ns: COMPLY_PROP_NS, value: edge.added.createdBy }, { name: 'created-at', ns: COMPLY_PROP_NS, value: edge.added.createdAt });
        if (edge.added.reference) {
            props.push({ name: 'reference', ns: COMPLY_PROP_NS, value: edge.added.reference });
        }
    }
    return {
        uuid: edge.edgeId,
        'matching-rationale': 'semantic',
        relationship: IR_8477[edge.relationship],
        sources: [{ type: 'control', 'id-ref': edge.source.requirementId }],
        targets: [{ type: 'control', 'id-ref': edge.target.requirementId }],
        ...(edge.confidence ? { 'confidence-score': { category: edge.confidence } } : {}),
        props,
        ...(edge.rationale?.trim() ? { remarks: edge.rationale.trim() } : {}),
    };
}
/** The crosswalk of a library as an OSCAL mapping-collection document (`{"mapping-collection": …}`). */
export function exportMappingCollection(library, options = {}) {
    // OSCAL requires at least one mapping; an empty crosswalk has nothing to export.
    if (library.edges.length === 0)
        throw new Error('The library has no crosswalk edge to export');
    const resourceUuid = (frameworkId) => stableUuid(`framework:${frameworkId}`);
    const pairs = new Map();
    for (const edge of library.edges) {
        const key = `${edge.source.frameworkId}\u001f${edge.target.frameworkId}`;
        pairs.set(key, [...(pairs.get(key) ?? []), edge]);
    }
    const mappings = [...pairs.entries()].map(([key, edges]) => {
        const [from, to] = key.split('\u001f');
        return {
            uuid: stableUuid(`mapping:${key}`),
            'source-resource': { type: 'catalog', href: `#${resourceUuid(from)}` },
            'target-resource': { type: 'catalog', href: `#${resourceUuid(to)}` },
            maps: edges.map(mapEntry),
        };
    });
    const usedFrameworks = new Set(library.edges.flatMap((edge) => [edge.source.frameworkId, edge.target.frameworkId]));
    const resources = library.frameworks
        .filter((framework) => usedFrameworks.has(framework.id))
        .map((framework) => ({
        uuid: resourceUuid(framework.id),
        title: framework.name,
        props: [
            { name: 'framework-id', ns: COMPLY_PROP_NS, value: framework.id },
            { name: 'version', value: framework.version },
        ],
    }));
    const contentHash = createHash('sha256').update(library.edges.map(edgeName).join('\n')).digest('hex');
    return {
        'mapping-collection': {
            uuid: stableUuid(`mapping-collection:${contentHash}`),
            metadata: {
                title: 'Crosswalk between AI governance, security and data-protection frameworks',
                'last-modified': (options.lastModified ?? new Date()).toISOString(),
                version: options.version ?? contentHash.slice(0, 12),
                'oscal-version': OSCAL_VERSION,
            },
            provenance: {
                method: 'hybrid',
                'matching-rationale': 'semantic',
                status: 'draft',
                'mapping-description': 'Requirement-level crosswalk edges between the frameworks of the library. Relationships follow NIST IR 8477 set theory; each map names where its edge comes from (the origin prop) and whether it is an analyst inference.',
            },
            mappings,
            ...(resources.length > 0 ? { 'back-matter': { resources } } : {}),
        },
    };
}
/** Schema errors of a mapping-collection document (empty when it is valid). */
export function mappingCollectionErrors(document) {
    return oscalSchemaErrors('mapping', document);
}
//# sourceMappingURL=mapping-export.js.map