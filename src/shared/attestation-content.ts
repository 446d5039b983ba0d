import canonicalize from 'canonicalize';

/**
 * The attestation wire format, shared by the daemon, sidecars (through the sidecar client) and the web
 * console, which checks epochs in the browser: no Node built-ins, nothing from the server.
 */

export type AttestationLevel = 'L0' | 'L2';

export interface AttestationSignature {
  alg: 'Ed25519';
  keyId: string;
  /** Base64 of the 64 signature bytes. */
  value: string;
}

export interface AttestationBody {
  attestationId?: string;
  level: AttestationLevel;
  epochId: string;
  systemId?: string;
  controlIds: string[];
  /** ISO 8601 UTC with milliseconds, as `Date.prototype.toISOString()` writes it. */
  timestamp: string;
  claims: Record<string, unknown>;
  signature?: AttestationSignature;
}

/** An attestation as the daemon stores and returns it. */
export interface AttestationRecord {
  attestationId: string;
  level: AttestationLevel;
  epochId: string;
  /** The AI system's id, whether the body named the system by its id or by its name. */
  systemId: string | null;
  /** The body's systemId when it named the system by name: what the signed content holds. */
  systemIdAsPosted?: string;
  controlIds: string[];
  timestamp: string;
  claims: Record<string, unknown>;
  signature: AttestationSignature | null;
  /** SHA-256 (hex) of the signed content: the body as posted, without `signature`. */
  contentHash: string;
  /** True when the body carried no attestationId: the signed content then has none either. */
  serverAssignedId: boolean;
  receivedAt: string;
}

/**
 * RFC 8785 canonical JSON of the body without its signature: the exact text an L2 signature covers and
 * `contentHash` digests. Throws on values JSON cannot carry faithfully (lone surrogates, NaN).
 */
export function signedContent(body: Omit<AttestationBody, 'signature'> & { signature?: unknown }): string {
  const { signature: _signature, ...content } = body;
  const text = canonicalize(content);
  if (text === undefined) throw new TypeError('The attestation has no JSON representation');
  return text;
}

/** The fields of a stored record that its signed content is made of. */
export type SignedFields = Pick<
  AttestationRecord,
  | 'attestationId'
  | 'level'
  | 'epochId'
  | 'systemId'
  | 'systemIdAsPosted'
  | 'controlIds'
  | 'timestamp'
  | 'claims'
  | 'serverAssignedId'
>;

/**
 * Rebuilds the signed content of a stored record, so that anyone can check its hash and signature. It needs
 * the signed fields only, so a listed record (the console's, without its signature) will do.
 */
export function contentOfRecord(record: SignedFields & Partial<AttestationRecord>): AttestationBody {
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
