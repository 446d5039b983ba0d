import type { AppContext } from '../../context.js';
import { type SerializedBody, serializedBody } from '../../platform/cache/org-read-cache.js';
import type { Em } from '../../platform/db/database.js';
import { invalidField, resourceNotFound } from '../../platform/errors.js';
import type { Ready } from '../../platform/ready.js';
import { isSupportedInstant } from '../../platform/time.js';
import type { AttestationLevel, AttestationRecord } from '../../shared/attestation-content.js';
import { DEFAULT_LIST_LIMIT } from './attestations.schemas.js';
import { selectAttestation, selectAttestationPage } from './attestations.store.js';

export interface AttestationFilter {
  level?: AttestationLevel;
  epochId?: string;
  systemId?: string;
  from?: string;
  to?: string;
  limit?: number;
  offset?: number;
  cursor?: string;
  includeTotal?: boolean;
}

export interface AttestationPage {
  attestations: AttestationRecord[];
  limit: number;
  offset: number;
  nextCursor: string | null;
  total?: number;
}

/** Position after the last row of a page: its (timestamp, id), opaque to clients. */
const encodeCursor = (timestamp: string, attestationId: string) =>
  Buffer.from(JSON.stringify([timestamp, attestationId])).toString('base64url');

/** Cursors come back from clients: anything the database could not compare is refused like garbage. */
function decodeCursor(cursor: string): { timestamp: Date; attestationId: string } {
  try {
    const [timestamp, attestationId] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    const time = new Date(timestamp as string);
    if (
      typeof timestamp === 'string' &&
      typeof attestationId === 'string' &&
      !attestationId.includes('\u0000') &&
      isSupportedInstant(time.getTime())
    ) {
      return { timestamp: time, attestationId };
    }
  } catch {
    // Reported below like any other unreadable cursor.
  }
  throw invalidField('querystring.cursor', 'is not a cursor this API returned');
}

function parseTime(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const time = new Date(value);
  if (!isSupportedInstant(time.getTime()))
    throw invalidField(field, 'is not a date-time in the years 0001 to 9999');
  return time;
}

/**
 * A page of an org's attestations, newest first (timestamp, then id descending). Each filter shape has
 * an index in this order, so a page costs O(page) through the cursor; offset costs O(offset) as well.
 */
export async function listAttestations(
  em: Em,
  orgId: string,
  filter: AttestationFilter,
): Promise<AttestationPage> {
  const from = parseTime(filter.from, 'querystring.from');
  const to = parseTime(filter.to, 'querystring.to');
  if (from && to && from > to) {
    throw invalidField('querystring.from', 'must not be after querystring.to');
  }
  if (filter.cursor !== undefined && filter.offset !== undefined) {
    throw invalidField('querystring.cursor', 'cannot be combined with querystring.offset');
  }
  const offset = filter.offset ?? 0;
  const limit = filter.limit ?? DEFAULT_LIST_LIMIT;
  const page = await selectAttestationPage(em, orgId, {
    level: filter.level,
    epochId: filter.epochId,
    systemId: filter.systemId,
    from,
    to,
    after: filter.cursor === undefined ? undefined : decodeCursor(filter.cursor),
    limit,
    offset,
    includeTotal: filter.includeTotal,
  });
  const result: AttestationPage = {
    attestations: page.records,
    limit,
    offset,
    nextCursor: page.next ? encodeCursor(page.next.timestamp, page.next.attestationId) : null,
  };
  if (page.total !== undefined) result.total = page.total;
  return result;
}

export async function getAttestation(
  em: Em,
  orgId: string,
  attestationId: string,
): Promise<AttestationRecord> {
  const record = await selectAttestation(em, orgId, attestationId);
  if (!record) throw resourceNotFound('Attestation', { attestationId });
  return record;
}

/**
 * A page of the org's attestations, serialized by `serialize`. The newest page, what dashboards poll, is kept
 * in the org read cache until the org's next write (attestations only ever arrive through one); pages further
 * back or within a time range are read through.
 */
export function attestationPageBody(
  ctx: Pick<AppContext, 'db' | 'readCache'>,
  orgId: string,
  filter: AttestationFilter,
  serialize: (page: AttestationPage) => string,
): Ready<SerializedBody> {
  const em = ctx.db.em();
  const newest =
    filter.cursor === undefined &&
    filter.offset === undefined &&
    filter.from === undefined &&
    filter.to === undefined;
  if (!newest) return listAttestations(em, orgId, filter).then((page) => serializedBody(serialize(page)));
  const { level = '', epochId = '', systemId = '', limit = '', includeTotal = '' } = filter;
  // One entry per filter; JSON keeps the values apart whatever a systemId holds.
  return ctx.readCache.get(
    orgId,
    `attestations?${JSON.stringify([level, epochId, systemId, limit, includeTotal])}`,
    async () => ({ value: await listAttestations(em, orgId, filter) }),
    serialize,
  );
}
