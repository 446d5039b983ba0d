import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
/**
 * RFC 8785 canonical JSON of the body without its signature: the exact text an L2 signature covers and
 * `contentHash` digests. Throws on values JSON cannot carry faithfully (lone surrogates, NaN).
 */
export function signedContent(body) {
    const { signature: _signature, ...content } = body;
    const text = canonicalize(content);
    if (text === undefined)
        throw new TypeError('The attestation has no JSON representation');
    return text;
}
export const contentHashOf = (content) => createHash('sha256').update(content).digest('hex');
/** Rebuilds the signed content of a stored record, so that anyone can check its hash and signature. */
export function contentOfRecord(record) {
    return {
        ...(record.serverAssignedId ? {} : { attestationId: record.attestationId }),
        level: record.level,
        epochId: record.epochId,
        ...(record.systemId === null ? {} : { systemId: record.systemId }),
        controlIds: record.controlIds,
        timestamp: record.timestamp,
        claims: record.claims,
    };
}
//# sourceMappingURL=attestation-content.js.map