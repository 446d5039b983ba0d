import { createPrivateKey, type KeyObject, randomUUID, sign } from 'node:crypto';
import {
  type AttestationBody,
  type AttestationLevel,
  type AttestationRecord,
  signedContent,
} from '../../shared/attestation-content.js';
import { sidecarKeyIdOf } from '../../shared/sidecar-key-id.js';

/**
 * What a sidecar needs to attest: build an attestation, sign it with its Ed25519 key, and post it with
 * retries. Retrying is safe because every attempt carries the same attestationId: the daemon stores it
 * once and answers a replay with the stored record. Depends only on node:crypto and `canonicalize`
 * (through src/shared/).
 */

export type {
  AttestationBody,
  AttestationLevel,
  AttestationRecord,
} from '../../shared/attestation-content.js';
export { contentOfRecord, signedContent } from '../../shared/attestation-content.js';
export { contentHashOf } from '../../shared/content-hash.js';
export { sidecarKeyIdOf } from '../../shared/sidecar-key-id.js';

export interface AttestationDraft {
  /** Defaults to a random UUID: keep it for retries. */
  attestationId?: string;
  level: AttestationLevel;
  epochId: string;
  /** One of the org's AI systems, by its systemId or its name (ignoring case); anything else is refused. */
  systemId?: string;
  controlIds: string[];
  /** Defaults to now. */
  timestamp?: Date | string;
  claims?: Record<string, unknown>;
}

/** An attestation ready to post: its id is fixed, so every retry is the same request. */
export type IdentifiedAttestation = AttestationBody & { attestationId: string };

export interface SidecarSigner {
  /** The id the sidecar key was registered under; by default the id derived from the key itself. */
  keyId?: string;
  /** Ed25519 private key, as a KeyObject or PEM (PKCS#8). */
  privateKey: KeyObject | string;
}

export function buildAttestation(draft: AttestationDraft): IdentifiedAttestation {
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

export function loadPrivateKey(key: KeyObject | string): KeyObject {
  const privateKey = typeof key === 'string' ? createPrivateKey(key) : key;
  if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'ed25519') {
    throw new TypeError('A sidecar signs with an Ed25519 private key');
  }
  return privateKey;
}

/** Signs the RFC 8785 canonical JSON of the attestation without `signature`. */
export function signAttestation<T extends AttestationBody>(attestation: T, signer: SidecarSigner): T {
  const { signature: _previous, ...unsigned } = attestation;
  const privateKey = loadPrivateKey(signer.privateKey);
  const value = sign(null, Buffer.from(signedContent(unsigned)), privateKey).toString('base64');
  const keyId = signer.keyId ?? sidecarKeyIdOf(privateKey);
  return { ...unsigned, signature: { alg: 'Ed25519', keyId, value } } as T;
}

export interface AttestationClientOptions {
  /** Daemon address, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  /** An API key with the `attest` scope. */
  apiKey: string;
  orgId: string;
  /** Further attempts after the first, on network errors, 429 and 5xx. Default 5. */
  retries?: number;
  /** First backoff delay, doubled per attempt up to 5 s. Default 200 ms. */
  retryDelayMs?: number;
  /** Per-attempt timeout. Default 10 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface PostResult {
  /** True when this post stored the attestation (201); false when it was stored already (200). */
  created: boolean;
  attestation: AttestationRecord;
  attempts: number;
}

/** A final refusal (4xx other than 429), or the last failure once retries are spent. */
export class AttestationPostError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string | null,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AttestationPostError';
  }
}

interface ErrorBody {
  error?: { code?: string; message?: string; details?: Record<string, unknown> };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class AttestationClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: AttestationClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** Builds, signs when a signer is given (L2), and posts. */
  attest(draft: AttestationDraft, signer?: SidecarSigner): Promise<PostResult> {
    const attestation = buildAttestation(draft);
    return this.post(signer ? signAttestation(attestation, signer) : attestation);
  }

  /** Posts, retrying transient failures with the very same body. */
  async post(attestation: IdentifiedAttestation): Promise<PostResult> {
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/api/v1/orgs/${encodeURIComponent(this.options.orgId)}/attestations`;
    const body = JSON.stringify(attestation);
    const retries = this.options.retries ?? 5;
    let delay = this.options.retryDelayMs ?? 200;
    let lastError: AttestationPostError | null = null;
    for (let attempt = 1; attempt <= retries + 1; attempt += 1) {
      if (attempt > 1) {
        await sleep(delay);
        delay = Math.min(delay * 2, 5000);
      }
      let response: Response;
      try {
        response = await this.fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${this.options.apiKey}`, 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        });
      } catch (error) {
        lastError = new AttestationPostError(`Request failed: ${(error as Error).message}`, null, null, {});
        continue;
      }
      if (response.status === 200 || response.status === 201) {
        return {
          created: response.status === 201,
          attestation: (await response.json()) as AttestationRecord,
          attempts: attempt,
        };
      }
      const failure = ((await response.json().catch(() => ({}))) as ErrorBody).error ?? {};
      lastError = new AttestationPostError(
        failure.message ?? `HTTP ${response.status}`,
        response.status,
        failure.code ?? null,
        failure.details ?? {},
      );
      if (response.status !== 429 && response.status < 500) throw lastError;
      const retryAfter = Number(response.headers.get('retry-after'));
      if (response.status === 429 && retryAfter > 0) delay = Math.max(delay, retryAfter * 1000);
    }
    throw lastError ?? new AttestationPostError('No attempt was made', null, null, {});
  }
}
