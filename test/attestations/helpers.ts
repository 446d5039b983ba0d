import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * Test-side signing and hashing, written from the contract rather than imported from the daemon, so
 * that the tests check the implementation instead of repeating it.
 */

export interface TestSidecarKey {
  keyId: string;
  publicPem: string;
  publicRaw: string;
  privateKey: KeyObject;
}

export function newSidecarKey(keyId: string): TestSidecarKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return {
    keyId,
    publicPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    publicRaw: der.subarray(der.length - 32).toString('base64'),
    privateKey,
  };
}

export type Body = Record<string, unknown>;

let sequence = 0;

export function attestation(overrides: Body = {}): Body {
  sequence += 1;
  return {
    attestationId: `att-${process.pid}-${sequence}-${Math.random().toString(36).slice(2, 8)}`,
    level: 'L2',
    epochId: 'epoch-1',
    controlIds: ['A.6.2.6'],
    timestamp: new Date(Date.UTC(2026, 10, 22, 10, 0, 0, sequence)).toISOString(),
    claims: { model: 'm-1', checks: { bias: 'pass', drift: 0.02 }, notes: ['ok'] },
    ...overrides,
  };
}

export function canonicalOf(body: Body): string {
  const { signature: _signature, ...rest } = body;
  return canonicalize(rest) as string;
}

export const contentHash = (body: Body) => createHash('sha256').update(canonicalOf(body)).digest('hex');

export function signed(body: Body, key: { keyId: string; privateKey: KeyObject }): Body {
  const value = sign(null, Buffer.from(canonicalOf(body)), key.privateKey).toString('base64');
  return { ...body, signature: { alg: 'Ed25519', keyId: key.keyId, value } };
}

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

/** RFC 6962 section 2.1, recursively, straight from its definition. */
export function merkleTreeHash(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha256(Buffer.alloc(0));
  if (leaves.length === 1) return sha256(Buffer.from([0]), leaves[0]);
  let split = 1;
  while (split * 2 < leaves.length) split *= 2;
  return sha256(
    Buffer.from([1]),
    merkleTreeHash(leaves.slice(0, split)),
    merkleTreeHash(leaves.slice(split)),
  );
}
