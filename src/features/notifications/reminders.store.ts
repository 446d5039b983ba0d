/**
 * What comply has told people, so that it tells them once: the only module that reads or writes
 * `notification_emissions` (due-soon, overdue and needs-acceptance events, one per item, occasion and threshold)
 * and `notification_digests` (one email digest per member and day). Their primary keys make "once" hold across
 * daemons and restarts: whoever inserts the row first is the one that emits or sends.
 */
import type { Em } from '../../platform/db/database.js';

/** One emission: `occasion` is the item's due date, or the assessed state hash of a risk needing acceptance. */
export interface EmissionKey {
  kind: string;
  resourceId: string;
  occasion: string;
  threshold: string;
}

const keyOf = (key: EmissionKey) =>
  `${key.kind}\u001f${key.resourceId}\u001f${key.occasion}\u001f${key.threshold}`;

/** The keys of the org's emissions among those given (to skip what was emitted before, in one query). */
export async function selectEmitted(em: Em, orgId: string, keys: EmissionKey[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await em.execute<EmissionKey[]>(
    `select e.kind, e.resource_id as "resourceId", e.occasion, e.threshold
     from notification_emissions e
     join jsonb_to_recordset(?::jsonb) as k(kind text, resource_id text, occasion text, threshold text)
       on e.kind = k.kind and e.resource_id = k.resource_id and e.occasion = k.occasion and e.threshold = k.threshold
     where e.org_id = ?`,
    [
      JSON.stringify(
        keys.map((key) => ({
          kind: key.kind,
          resource_id: key.resourceId,
          occasion: key.occasion,
          threshold: key.threshold,
        })),
      ),
      orgId,
    ],
  );
  return new Set(rows.map(keyOf));
}

export const emissionKey = keyOf;

/**
 * Claims an emission for the caller's transaction: true when this is the first (the caller emits), false when
 * it was emitted before. A concurrent claim of the same key waits for the first transaction and then gets false.
 */
export async function claimEmission(em: Em, orgId: string, key: EmissionKey, now: Date): Promise<boolean> {
  const rows = await em.execute(
    `insert into notification_emissions (org_id, kind, resource_id, occasion, threshold, emitted_at)
     values (?, ?, ?, ?, ?, ?) on conflict do nothing returning 1 as claimed`,
    [orgId, key.kind, key.resourceId, key.occasion, key.threshold, now],
  );
  return rows.length > 0;
}

/**
 * Claims the day's digest of a member for the caller's transaction: true when none was sent that day (the
 * caller sends it, and a failure rolls the claim back), false otherwise.
 */
export async function claimDigest(
  em: Em,
  digest: { orgId: string; userId: string; day: string; items: number },
  now: Date,
): Promise<boolean> {
  const rows = await em.execute(
    `insert into notification_digests (org_id, user_id, day, items, sent_at) values (?, ?, ?::date, ?, ?)
     on conflict do nothing returning 1 as claimed`,
    [digest.orgId, digest.userId, digest.day, digest.items, now],
  );
  return rows.length > 0;
}

/** The members of the org who got the day's digest. */
export async function selectDigestsOfDay(em: Em, orgId: string, day: string): Promise<Set<string>> {
  const rows = await em.execute<{ userId: string }[]>(
    'select user_id as "userId" from notification_digests where org_id = ? and day = ?::date',
    [orgId, day],
  );
  return new Set(rows.map((row) => row.userId));
}
