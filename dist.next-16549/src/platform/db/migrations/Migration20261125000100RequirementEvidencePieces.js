import { Migration } from '@mikro-orm/migrations';
/**
 * Attestation evidence counted into a requirement record's roll-up without touching the record: each ingest
 * statement appends one piece per record it added evidence to. Updating the record itself meant locking its
 * row until the batch committed, so concurrent batches (every sidecar of an org attests the same controls)
 * queued behind each other's commits. A record's roll-up is its columns plus its pieces, exact in any
 * snapshot since a piece commits with the evidence it counts; pieces are folded into the record now and
 * then (`foldEvidencePieces`).
 */
export class Migration20261125000100RequirementEvidencePieces extends Migration {
    name = 'Migration20261125000100RequirementEvidencePieces';
    up() {
        this.addSql(`create table requirement_evidence_pieces (
      org_id text not null references orgs (org_id) on delete cascade,
      framework_id text not null,
      requirement_id text not null,
      piece bigint generated always as identity,
      attestations int not null check (attestations > 0),
      primary key (org_id, framework_id, requirement_id, piece)
    )`);
    }
    down() {
        this.addSql('drop table requirement_evidence_pieces');
    }
}
//# sourceMappingURL=Migration20261125000100RequirementEvidencePieces.js.map