import { createHash } from 'node:crypto';
const LEAF_PREFIX = Buffer.from([0]);
const NODE_PREFIX = Buffer.from([1]);
const sha256 = (...parts) => {
    const hash = createHash('sha256');
    for (const part of parts)
        hash.update(part);
    return hash.digest();
};
/**
 * The Merkle Tree Hash of RFC 6962 (section 2.1) over SHA-256, built incrementally so that an epoch of any
 * size streams through in constant memory per level: leaves are hashed with a 0x00 prefix, inner nodes
 * with 0x01, and a tree of n leaves splits at the largest power of two below n. The stack holds the roots
 * of the complete subtrees seen so far, largest first.
 */
export class MerkleTreeBuilder {
    stack = [];
    count = 0;
    push(leafData) {
        let node = { size: 1, hash: sha256(LEAF_PREFIX, leafData) };
        let top = this.stack.at(-1);
        while (top && top.size === node.size) {
            this.stack.pop();
            node = { size: node.size * 2, hash: sha256(NODE_PREFIX, top.hash, node.hash) };
            top = this.stack.at(-1);
        }
        this.stack.push(node);
        this.count += 1;
    }
    get size() {
        return this.count;
    }
    /** The root; the hash of the empty string for no leaves, as RFC 6962 defines it. */
    root() {
        if (this.stack.length === 0)
            return sha256();
        let hash = this.stack[this.stack.length - 1].hash;
        for (let index = this.stack.length - 2; index >= 0; index -= 1) {
            hash = sha256(NODE_PREFIX, this.stack[index].hash, hash);
        }
        return hash;
    }
}
//# sourceMappingURL=epoch.merkle.js.map