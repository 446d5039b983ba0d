import { createHash } from 'node:crypto';
/** SHA-256 (hex) of an attestation's signed content: its `contentHash`. The console computes it with WebCrypto. */
export const contentHashOf = (content) => createHash('sha256').update(content).digest('hex');
//# sourceMappingURL=content-hash.js.map