import { Migration } from '@mikro-orm/migrations';
/**
 * How many attestations each epoch holds, kept by the database as they are inserted, so that a kept
 * epoch summary is checked in a few rows instead of a count over the epoch. Each insert statement
 * appends one row per epoch it touched (rows skipped by `on conflict do nothing` are not in its
 * transition table); nothing updates a shared row, so concurrent ingest batches never wait on each
 * other here. An epoch's count is the sum of its rows, exact in any snapshot since each row commits
 * with the attestations it counts; readers fold an epoch's rows into one now and then (one statement
 * that deletes them and inserts their sum).
 */
export class Migration20261124001100AttestationEpochCounts extends Migration {
    name = 'Migration20261124001100AttestationEpochCounts';
    up() {
        this.addSql(`create table attestation_epoch_counts (
      org_id text not null references orgs (org_id) on delete cascade,
      epoch_id text collate "C" not null,
      piece bigint generated always as identity,
      attestations bigint not null,
      primary key (org_id, epoch_id, piece)
    )`);
        this.addSql(`create function attestation_epoch_counts_add() returns trigger language plpgsql as $$
      begin
        insert into attestation_epoch_counts (org_id, epoch_id, attestations)
        select org_id, epoch_id, count(*) from inserted_attestations group by org_id, epoch_id;
        return null;
      end
    $$`);
        this.addSql(`create trigger attestation_epoch_counts_add after insert on attestations
      referencing new table as inserted_attestations
      for each statement execute function attestation_epoch_counts_add()`);
        this.addSql(`insert into attestation_epoch_counts (org_id, epoch_id, attestations)
      select org_id, epoch_id, count(*) from attestations group by org_id, epoch_id`);
    }
}
//# sourceMappingURL=Migration20261124001100AttestationEpochCounts.js.map