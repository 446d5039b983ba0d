import { strictHttpUri } from '../uri.js';
import { compProp } from './oscal-context.js';
import { markupMultiline, oscalString, sha256Hex } from './oscal-text.js';
/** An evidence item as a back-matter resource (`type=evidence` is a value OSCAL defines). */
export function evidenceResource({ evidence, resourceUuid, title }) {
    const resource = {
        uuid: resourceUuid,
        title,
        props: [
            { name: 'type', value: 'evidence' },
            compProp('evidence-id', oscalString(evidence.evidenceId, 'unknown')),
            compProp('evidence-type', evidence.type),
        ],
    };
    if (evidence.description?.trim())
        resource.description = markupMultiline(evidence.description, '');
    const href = strictHttpUri(evidence.fileUrl);
    if (href) {
        const hash = sha256Hex(evidence.contentHash);
        resource.rlinks = [hash ? { href, hashes: [{ algorithm: 'SHA-256', value: hash }] } : { href }];
    }
    return resource;
}
/** Built once per package: the SSP and the assessment results carry the same resources. */
export function evidenceResources(ctx) {
    const resources = [];
    for (const control of ctx.controls) {
        for (const ref of ctx.evidence.get(control) ?? [])
            resources.push(evidenceResource(ref));
    }
    return resources;
}
//# sourceMappingURL=evidence.builder.js.map