import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type EpochRecord, verifyEpoch } from '../../console/src/merkle.js';
import { MerkleTreeBuilder } from '../../src/features/attestations/epoch.merkle.js';
import { contentOfRecord, signedContent } from '../../src/shared/attestation-content.js';
import { contentHashOf } from '../../src/shared/content-hash.js';

/** The console's WebCrypto verifier (run here on Node's WebCrypto) agrees with the daemon's epoch root. */

function record(index: number, overrides: Partial<EpochRecord> = {}): EpochRecord {
  const base: EpochRecord = {
    attestationId: `a-${randomBytes(4).toString('hex')}-${index}`,
    level: index % 2 ? 'L2' : 'L0',
    epochId: 'e1',
    systemId: index % 3 ? 'bot' : null,
    controlIds: ['A.6.2.6'],
    timestamp: new Date(Date.UTC(2026, 10, 20, 8, index % 4)).toISOString(),
    claims: { drift: index / 7, text: 'é ✓ 𝄞' },
    contentHash: '',
    serverAssignedId: index % 5 === 0,
    ...overrides,
  };
  const content = signedContent(
    contentOfRecord({ ...base, level: base.level as 'L0' | 'L2', signature: null, receivedAt: '' }),
  );
  return { ...base, contentHash: contentHashOf(content) };
}

function serverRoot(records: EpochRecord[]): string {
  const sorted = [...records].sort((a, b) =>
    a.timestamp === b.timestamp
      ? Buffer.compare(Buffer.from(a.attestationId), Buffer.from(b.attestationId))
      : a.timestamp < b.timestamp
        ? -1
        : 1,
  );
  const tree = new MerkleTreeBuilder();
  for (const r of sorted) tree.push(Buffer.from(r.contentHash, 'hex'));
  return tree.root().toString('hex');
}

describe('in-browser epoch verification', () => {
  it('recomputes the daemon’s RFC 6962 root for every size from 0 to 17, in any listed order', async () => {
    for (let size = 0; size <= 17; size += 1) {
      const records = Array.from({ length: size }, (_, i) => record(i));
      const shuffled = [...records].reverse();
      const result = await verifyEpoch(shuffled);
      expect(result.root, `size ${size}`).toBe(serverRoot(records));
      expect(result.mismatched).toEqual([]);
    }
  });

  it('names a record whose fields no longer match its hash, and its root differs', async () => {
    const records = Array.from({ length: 5 }, (_, i) => record(i));
    const honest = await verifyEpoch(records);
    const tampered = records.map((r, i) => (i === 2 ? { ...r, claims: { ...r.claims, drift: 0.5 } } : r));
    const result = await verifyEpoch(tampered);
    expect(result.mismatched).toEqual([records[2].attestationId]);
    const dropped = await verifyEpoch(records.slice(1));
    expect(dropped.root).not.toBe(honest.root);
  });
});
