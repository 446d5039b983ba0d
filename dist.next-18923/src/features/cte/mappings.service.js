/**
 * Analyst crosswalk edges and the suggestions that lead to them. An added edge is stored and joins the
 * library at once (the library's revision covers the added edges), so propagation, gaps, coverage and the
 * OSCAL mapping export all see it on the next request, on every daemon instance. Shipped edges are part of
 * the release and cannot be deleted; at most one edge joins two requirements.
 */
import { randomUUID } from 'node:crypto';
import { AppError, conflict, invalidField, resourceNotFound } from '../../platform/errors.js';
import { analystEdgeBetween, deleteAnalystEdge, insertAnalystEdge } from './analyst-edges.store.js';
import { RequirementNeighbourhood } from './crosswalk-suggestions.js';
import { currentLibrary, requireFramework } from './library.service.js';
import { readySearch } from './search/search.service.js';
/** The search build's neighbourhood (its vectors read with the library asked with), kept on the build. */
async function neighbourhood(em, deps, current) {
    const ready = await readySearch(em, current, deps.settings, deps.log);
    let found = ready.neighbourhood;
    if (!found || found.library !== current.library) {
        found = new RequirementNeighbourhood(current.library, ready.documents, ready.vectors);
        ready.neighbourhood = found;
    }
    return { model: ready.search.embedder.model, found };
}
function requireRequirement(library, ref, field) {
    requireFramework(library, ref.frameworkId);
    const requirement = library.requirement(ref.frameworkId, ref.requirementId);
    if (!requirement) {
        throw resourceNotFound('Requirement', { ...(field ? { field } : {}), ...ref });
    }
    return requirement;
}
export async function similarRequirements(em, deps, ref, query) {
    const current = await currentLibrary(em);
    const { library } = current;
    requireRequirement(library, ref);
    if (query.frameworkId !== undefined) {
        requireFramework(library, query.frameworkId);
        if (query.frameworkId === ref.frameworkId) {
            throw invalidField('querystring.frameworkId', 'must name another framework than the requirement’s');
        }
    }
    const { model, found } = await neighbourhood(em, deps, current);
    return {
        frameworkId: ref.frameworkId,
        requirementId: ref.requirementId,
        model,
        results: found.similar(ref, query.limit, query.frameworkId),
    };
}
export async function suggestMappings(em, deps, query) {
    const current = await currentLibrary(em);
    const { library } = current;
    requireFramework(library, query.from);
    requireFramework(library, query.to);
    if (query.from === query.to)
        throw invalidField('querystring.to', 'must differ from `from`');
    const { model, found } = await neighbourhood(em, deps, current);
    return {
        from: query.from,
        to: query.to,
        model,
        suggestions: found.suggest(query.from, query.to, query),
    };
}
/** An analyst edge as the API shows it. */
export function edgeView(edge) {
    return {
        edgeId: edge.edgeId,
        sourceFrameworkId: edge.source.frameworkId,
        sourceId: edge.source.requirementId,
        targetFrameworkId: edge.target.frameworkId,
        targetId: edge.target.requirementId,
        relationship: edge.relationship,
        rationale: edge.rationale ?? '',
        ...(edge.added?.reference ? { source: edge.added.reference } : {}),
        origin: 'analyst',
        inferred: edge.inferred,
        createdBy: edge.added?.createdBy ?? '',
        createdAt: edge.added?.createdAt ?? '',
    };
}
const alreadyJoined = (edge) => conflict('An edge already joins these two requirements', {
    edgeId: edge.edgeId,
    relationship: edge.relationship,
    origin: edge.origin,
    shipped: !edge.added,
});
export async function addAnalystEdge(em, input, createdBy) {
    const { library } = await currentLibrary(em);
    const source = { frameworkId: input.sourceFrameworkId, requirementId: input.sourceId };
    const target = { frameworkId: input.targetFrameworkId, requirementId: input.targetId };
    if (source.frameworkId === target.frameworkId) {
        throw invalidField('body.targetFrameworkId', 'must differ from sourceFrameworkId: edges join frameworks');
    }
    requireRequirement(library, source, 'body.sourceId');
    requireRequirement(library, target, 'body.targetId');
    const [existing] = library.edgesBetween(source, target);
    if (existing)
        throw alreadyJoined(existing);
    const stored = await insertAnalystEdge(em, {
        edgeId: randomUUID(),
        source,
        target,
        relationship: input.relationship,
        rationale: input.rationale.trim(),
        reference: input.source?.trim(),
        createdBy,
        createdAt: new Date(),
    });
    if (!stored) {
        // Another request added one first.
        const winner = await analystEdgeBetween(em, source, target);
        if (winner)
            throw alreadyJoined(winner);
        throw new AppError('CONFLICT', 'An edge already joins these two requirements');
    }
    return edgeView(stored);
}
export async function removeAnalystEdge(em, edgeId) {
    const { library } = await currentLibrary(em);
    const known = library.edge(edgeId.toLowerCase());
    if (known && !known.added) {
        throw conflict('Shipped crosswalk edges cannot be deleted; only edges added through the API can', {
            edgeId,
            origin: known.origin,
        });
    }
    if (!(await deleteAnalystEdge(em, edgeId.toLowerCase())))
        throw resourceNotFound('Edge', { edgeId });
}
//# sourceMappingURL=mappings.service.js.map