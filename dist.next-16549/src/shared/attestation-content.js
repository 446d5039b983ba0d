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
/**
 * Rebuilds the signed content of a stored record, so that anyone can check its hash and signature. It needs
 * the signed fields only, so a listed record (the console's, without its signature) will do.
 */
export function contentOfRecord(record) {
    return {
        ...(record.serverAssignedId ? {} : { attestationId: record.attestationId }),
        level: record.level,
        epochId: record.epochId,
        ...(record.systemId === null ? {} : { systemId: record.systemIdAsPosted ?? record.systemId }),
        controlIds: record.controlIds,
        timestamp: record.timestamp,
        claims: record.claims,
    };
}
//# sourceMappingURL=attestation-content.js.map