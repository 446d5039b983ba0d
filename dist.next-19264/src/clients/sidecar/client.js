import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { signedContent, } from '../../shared/attestation-content.js';
import { sidecarKeyIdOf } from '../../shared/sidecar-key-id.js';
export { contentOfRecord, signedContent } from '../../shared/attestation-content.js';
export { contentHashOf } from '../../shared/content-hash.js';
export { sidecarKeyIdOf } from '../../shared/sidecar-key-id.js';
export function buildAttestation(draft) {
    const timestamp = draft.timestamp ?? new Date();
    return {
        attestationId: draft.attestationId ?? randomUUID(),
        level: draft.level,
        epochId: draft.epochId,
        ...(draft.systemId === undefined ? {} : { systemId: draft.systemId }),
        controlIds: draft.controlIds,
        timestamp: typeof timestamp === 'string' ? timestamp : timestamp.toISOString(),
        claims: draft.claims ?? {},
    };
}
export function loadPrivateKey(key) {
    const privateKey = typeof key === 'string' ? createPrivateKey(key) : key;
    if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'ed25519') {
        throw new TypeError('A sidecar signs with an Ed25519 private key');
    }
    return privateKey;
}
/** Signs the RFC 8785 canonical JSON of the attestation without `signature`. */
export function signAttestation(attestation, signer) {
    const { signature: _previous, ...unsigned } = attestation;
    const privateKey = loadPrivateKey(signer.privateKey);
    const value = sign(null, Buffer.from(signedContent(unsigned)), privateKey).toString('base64');
    const keyId = signer.keyId ?? sidecarKeyIdOf(privateKey);
    return { ...unsigned, signature: { alg: 'Ed25519', keyId, value } };
}
/** A final refusal (4xx other than 429), or the last failure once retries are spent. */
export class AttestationPostError extends Error {
    status;
    code;
    details;
    constructor(message, status, code, details) {
        super(message);
        this.status = status;
        this.code = code;
        this.details = details;
        this.name = 'AttestationPostError';
    }
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export class AttestationClient {
    options;
    fetch;
    constructor(options) {
        this.options = options;
        this.fetch = options.fetch ?? globalThis.fetch;
    }
    /** Builds, signs when a signer is given (L2), and posts. */
    attest(draft, signer) {
        const attestation = buildAttestation(draft);
        return this.post(signer ? signAttestation(attestation, signer) : attestation);
    }
    /** Posts, retrying transient failures with the very same body. */
    async post(attestation) {
        const url = `${this.options.baseUrl.replace(/\/+$/, '')}/api/v1/orgs/${encodeURIComponent(this.options.orgId)}/attestations`;
        const body = JSON.stringify(attestation);
        const retries = this.options.retries ?? 5;
        let delay = this.options.retryDelayMs ?? 200;
        let lastError = null;
        for (let attempt = 1; attempt <= retries + 1; attempt += 1) {
            if (attempt > 1) {
                await sleep(delay);
                delay = Math.min(delay * 2, 5000);
            }
            let response;
            try {
                response = await this.fetch(url, {
                    method: 'POST',
                    headers: { authorization: `Bearer ${this.options.apiKey}`, 'content-type': 'application/json' },
                    body,
                    signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
                });
            }
            catch (error) {
                lastError = new AttestationPostError(`Request failed: ${error.message}`, null, null, {});
                continue;
            }
            if (response.status === 200 || response.status === 201) {
                return {
                    created: response.status === 201,
                    attestation: (await response.json()),
                    attempts: attempt,
                };
            }
            const failure = (await response.json().catch(() => ({}))).error ?? {};
            lastError = new AttestationPostError(failure.message ?? `HTTP ${response.status}`, response.status, failure.code ?? null, failure.details ?? {});
            if (response.status !== 429 && response.status < 500)
                throw lastError;
            const retryAfter = Number(response.headers.get('retry-after'));
            if (response.status === 429 && retryAfter > 0)
                delay = Math.max(delay, retryAfter * 1000);
        }
        throw lastError ?? new AttestationPostError('No attempt was made', null, null, {});
    }
}
//# sourceMappingURL=client.js.map