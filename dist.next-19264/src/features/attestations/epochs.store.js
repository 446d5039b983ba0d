import { toIso } from '../../platform/db/instant.js';
/**
 * What an epoch's kept counts say about it: their sum (the number of its attestations) and the newest
 * piece. Rows are only ever added to an epoch, and each addition appends a piece with a new identity, so
 * the same token means the same rows; a re-created org starts from new pieces.
 */
const TOKEN = `(select coalesce(sum(attestations), 0) || '/' || coalesce(max(piece), 0)
  from attestation_epoch_counts where org_id = ? and epoch_id = ?)`;
/**
 * Count, levels, time span and the Merkle leaves of an epoch, with its count token, from one statement:
 * one consistent snapshot however many attestations arrive meanwhile. The database sorts the rows and
 * hands over their content hashes as one byte string, so the daemon sees no row objects.
 */
export async function selectEpochRow(em, orgId, epochId) {
    const [row] = await em.execute(`select count(*) as count,
       count(*) filter (where level = 'L0') as l0,
       count(*) filter (where level = 'L2') as l2,
       min(attested_at) as first, max(attested_at) as last,
       string_agg(decode(content_hash, 'hex'), ''::bytea order by attested_at, attestation_id) as leaves,
       ${TOKEN} as token
     from attestations where org_id = ? and epoch_id = ?`, [orgId, epochId, orgId, epochId]);
    if (!row)
        return undefined;
    return {
        ...row,
        first: row.first === null ? null : toIso(row.first),
        last: row.last === null ? null : toIso(row.last),
    };
}
/** The epoch's count token as it is now. */
export async function selectEpochCountToken(em, orgId, epochId) {
    const [row] = await em.execute(`select ${TOKEN} as token`, [orgId, epochId]);
    return row?.token ?? null;
}
/**
 * Replaces an epoch's count pieces by one holding their sum, in one statement. Concurrent folds do not
 * double anything: a piece another fold deleted first is skipped, and a fold that deleted nothing
 * inserts nothing.
 */
export async function foldEpochCounts(em, orgId, epochId) {
    await em.execute(`with gone as (
       delete from attestation_epoch_counts where org_id = ? and epoch_id = ?
         and (select count(*) from attestation_epoch_counts where org_id = ? and epoch_id = ?) > 1
       returning attestations)
     insert into attestation_epoch_counts (org_id, epoch_id, attestations)
     select ?, ?, sum(attestations) from gone having count(*) > 0`, [orgId, epochId, orgId, epochId, orgId, epochId]);
}
//# sourceMappingURL=epochs.store.js.map