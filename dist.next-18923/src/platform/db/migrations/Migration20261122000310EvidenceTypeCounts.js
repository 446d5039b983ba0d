import { Migration } from '@mikro-orm/migrations';
export class Migration20261122000310EvidenceTypeCounts extends Migration {
    name = 'Migration20261122000310EvidenceTypeCounts';
    up() {
        // Per-type totals beside the overall one, so that a type-filtered evidence page never counts rows.
        for (const type of ['attestation', 'document', 'link']) {
            this.addSql(`alter table org_controls add column evidence_${type}_count integer not null default 0`);
        }
        this.addSql(`update org_controls oc set
      evidence_attestation_count = counts.attestations,
      evidence_document_count = counts.documents,
      evidence_link_count = counts.links
      from (select org_id, control_id,
          count(*) filter (where type = 'attestation')::int as attestations,
          count(*) filter (where type = 'document')::int as documents,
          count(*) filter (where type = 'link')::int as links
        from evidence group by org_id, control_id) counts
      where oc.org_id = counts.org_id and oc.control_id = counts.control_id`);
    }
}
//# sourceMappingURL=Migration20261122000310EvidenceTypeCounts.js.map