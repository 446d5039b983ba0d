import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MerkleTreeBuilder } from '../../src/features/attestations/epoch.merkle.js';
import { merkleTreeHash } from './helpers.js';

const leaf = (index: number) => createHash('sha256').update(`leaf ${index}`).digest();

describe('epoch Merkle root', () => {
  it('equals the RFC 6962 definition for every size up to 70', () => {
    for (let size = 0; size <= 70; size += 1) {
      const leaves = Array.from({ length: size }, (_, index) => leaf(index));
      const builder = new MerkleTreeBuilder();
      for (const data of leaves) builder.push(data);
      expect(builder.size).toBe(size);
      expect(builder.root().toString('hex'), `size ${size}`).toBe(merkleTreeHash(leaves).toString('hex'));
    }
  });

  it('matches the RFC 6962 empty-tree and single-leaf values', () => {
    expect(new MerkleTreeBuilder().root().toString('hex')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    const single = new MerkleTreeBuilder();
    single.push(Buffer.alloc(0));
    // SHA-256 of the single byte 0x00: the hash of an empty leaf.
    expect(single.root().toString('hex')).toBe(
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
    );
  });

  it('depends on the order of the leaves', () => {
    const forward = new MerkleTreeBuilder();
    const backward = new MerkleTreeBuilder();
    for (let index = 0; index < 5; index += 1) {
      forward.push(leaf(index));
      backward.push(leaf(4 - index));
    }
    expect(forward.root().equals(backward.root())).toBe(false);
  });
});
