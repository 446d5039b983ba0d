import canonicalize from 'canonicalize';

/** The fields of a listed attestation that its hash and the epoch's root depend on. */
export interface EpochRecord {
  attestationId: string;
  level: string;
  epochId: string;
  systemId: string | null;
  /** The body's systemId when it named the system by name: what the signed content holds. */
  systemIdAsPosted?: string;
  controlIds: string[];
  timestamp: string;
  claims: Record<string, unknown>;
  contentHash: string;
  serverAssignedId: boolean;
}

/**
 * Checks an epoch in the browser with WebCrypto alone: each record's contentHash is recomputed from its
 * fields (RFC 8785 canonical JSON of the body as posted, without its signature), the records are put in
 * the epoch's order (timestamp, then attestationId, byte order), and the RFC 6962 Merkle Tree Hash is
 * folded over their hashes: leaf = SHA-256(0x00 ‖ hash), node = SHA-256(0x01 ‖ left ‖ right), split at the
 * largest power of two below n.
 */

const encoder = new TextEncoder();

async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', joined));
}

export const toHex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function compareBytes(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** The signed content of a stored record, as the sidecar posted it. */
export function contentOf(record: EpochRecord): string {
  const body = {
    ...(record.serverAssignedId ? {} : { attestationId: record.attestationId }),
    level: record.level,
    epochId: record.epochId,
    ...(record.systemId === null ? {} : { systemId: record.systemIdAsPosted ?? record.systemId }),
    controlIds: record.controlIds,
    timestamp: record.timestamp,
    claims: record.claims,
  };
  const text = canonicalize(body);
  if (text === undefined) throw new TypeError('record has no JSON form');
  return text;
}

async function treeHash(leaves: Uint8Array[]): Promise<Uint8Array> {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return sha256(new Uint8Array([0]), leaves[0]);
  let split = 1;
  while (split * 2 < leaves.length) split *= 2;
  const [left, right] = await Promise.all([treeHash(leaves.slice(0, split)), treeHash(leaves.slice(split))]);
  return sha256(new Uint8Array([1]), left, right);
}

export interface Verification {
  root: string;
  count: number;
  /** Records whose fields do not hash to the contentHash the server lists. */
  mismatched: string[];
}

export async function verifyEpoch(records: EpochRecord[]): Promise<Verification> {
  const mismatched: string[] = [];
  const hashed = await Promise.all(
    records.map(async (record) => {
      const hash = toHex(await sha256(encoder.encode(contentOf(record))));
      if (hash !== record.contentHash) mismatched.push(record.attestationId);
      return { record, hash };
    }),
  );
  hashed.sort(
    (a, b) =>
      compareBytes(a.record.timestamp, b.record.timestamp) ||
      compareBytes(a.record.attestationId, b.record.attestationId),
  );
  const root = await treeHash(hashed.map((entry) => fromHex(entry.hash)));
  return { root: toHex(root), count: records.length, mismatched };
}

/** A snapshot's contentHash recomputed here: SHA-256 of the RFC 8785 JSON of the snapshot without it. */
export async function snapshotHash(snapshot: Record<string, unknown>): Promise<string> {
  const { contentHash: _hash, ...content } = snapshot;
  const text = canonicalize(content);
  if (text === undefined) throw new TypeError('snapshot has no JSON form');
  return toHex(await sha256(encoder.encode(text)));
}
