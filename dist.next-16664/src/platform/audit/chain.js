import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { selectChainPage, selectHead } from './audit.store.js';
export const GENESIS_HASH = '0'.repeat(64);
/**
 * An event's hash: SHA-256 (hex) of the previous hash followed by the RFC 8785 JSON of the event without its
 * hash. The database computes it when it appends (comply_canonical); this is the independent recomputation.
 */
export function eventHash(event) {
    const { hash: _hash, ...content } = event;
    return createHash('sha256')
        .update(event.prevHash + canonicalize(content))
        .digest('hex');
}
const PAGE = 1000;
/**
 * Walks a chain from its first event: each must follow the previous one's sequence number, name its hash, and
 * hash to what it says. The first event that does not is named; so is a head that does not match the last
 * event (events removed from the end).
 */
export async function verifyChain(em, chain) {
    let previous = { seq: 0, hash: GENESIS_HASH, eventId: '' };
    let count = 0;
    const invalid = (event, reason) => ({
        valid: false,
        events: count,
        headHash: previous.seq ? previous.hash : null,
        firstInvalid: { seq: event.seq, eventId: event.eventId, reason },
    });
    for (;;) {
        const page = await selectChainPage(em, chain, previous.seq, PAGE);
        for (const event of page) {
            if (event.seq !== previous.seq + 1)
                return invalid(event, `sequence jumps from ${previous.seq} to ${event.seq}`);
            if (event.prevHash !== previous.hash)
                return invalid(event, 'prevHash does not match the previous event');
            if (eventHash(event) !== event.hash)
                return invalid(event, 'the event does not hash to its hash');
            count += 1;
            previous = { seq: event.seq, hash: event.hash, eventId: event.eventId };
        }
        if (page.length < PAGE)
            break;
    }
    const head = await selectHead(em, chain);
    if (head && (head.seq !== previous.seq || head.hash !== previous.hash)) {
        return {
            valid: false,
            events: count,
            headHash: previous.seq ? previous.hash : null,
            firstInvalid: {
                seq: previous.seq + 1,
                eventId: '',
                reason: `the chain's head is at ${head.seq} but its events end at ${previous.seq}`,
            },
        };
    }
    return { valid: true, events: count, headHash: previous.seq ? previous.hash : null };
}
//# sourceMappingURL=chain.js.map