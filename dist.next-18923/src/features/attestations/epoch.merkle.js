import { hash } from 'node:crypto';
const LEAF_PREFIX = 0;
const NODE_PREFIX = 1;
const HASH_BYTES = 32;
/**
 * The Merkle Tree Hash of RFC 6962 (section 2.1) over SHA-256, built incrementally so that an epoch of any
 * size streams through in constant memory per level: leaves are hashed with a 0x00 prefix, inner nodes
 * with 0x01, and a tree of n leaves splits at the largest power of two below n. The stack holds the roots
 * of the complete subtrees seen so far, largest first. Each hash is one call over a reused buffer: an
 * epoch of 100k attestations takes about 200k of them.
 */
export class MerkleTreeBuilder {
    stack = [];
    count = 0;
    /** `prefix ‖ left ‖ right` of an inner node, or `prefix ‖ data` of a 32-byte leaf. */
    scratch = Buffer.allocUnsafe(1 + 2 * HASH_BYTES);
    push(leafData) {
        let node;
        if (leafData.length === HASH_BYTES) {
            this.scratch[0] = LEAF_PREFIX;
            this.scratch.set(leafData, 1);
            node = { size: 1, hash: hash('sha256', this.scratch.subarray(0, 1 + HASH_BYTES), 'buffer') };
        }
        else {
            node = { size: 1, hash: hash('sha256', Buffer.concat([Buffer.of(LEAF_PREFIX), leafData]), 'buffer') };
        }
        let top = this.stack.at(-1);
        while (top && top.size === node.size) {
            this.stack.pop();
            node = { size: node.size * 2, hash: this.node(top.hash, node.hash) };
            top = this.stack.at(-1);
        }
        this.stack.push(node);
        this.count += 1;
    }
    /** Pushes each 32-byte leaf of a buffer holding them back to back. */
    pushAll(leaves) {
        if (leaves.length % HASH_BYTES !== 0)
            throw new Error('Leaves must be 32 bytes each');
        for (let offset = 0; offset < leaves.length; offset += HASH_BYTES) {
            this.push(leaves.subarray(offset, offset + HASH_BYTES));
        }
    }
    node(left, right) {
        this.scratch[0] = NODE_PREFIX;
        this.scratch.set(left, 1);
        this.scratch.set(right, 1 + HASH_BYTES);
        return hash('sha256', this.scratch, 'buffer');
    }
    get size() {
        return this.count;
    }
    /** The root; the hash of the empty string for no leaves, as RFC 6962 defines it. */
    root() {
        if (this.stack.length === 0)
            return hash('sha256', Buffer.alloc(0), 'buffer');
        let root = this.stack[this.stack.length - 1].hash;
        for (let index = this.stack.length - 2; index >= 0; index -= 1) {
            root = this.node(this.stack[index].hash, root);
        }
        return root;
    }
}
//# sourceMappingURL=epoch.merkle.js.map