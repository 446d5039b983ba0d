import { Migration } from '@mikro-orm/migrations';
/**
 * Attestation evidence expires (COMPLY_ATTESTATION_FRESHNESS_DAYS after the attestation's time), so a roll-up
 * piece carries the latest expiry of the evidence it counts. Pieces appended before this have none: their
 * evidence was stored without an expiry and stays open-ended.
 */
export class Migration20261128000100AttestationEvidenceExpiry extends Migration {
    name = 'Migration20261128000100AttestationEvidenceExpiry';
    up() {
        this.addSql('alter table requirement_evidence_pieces add column expires_max timestamptz');
    }
    down() {
        this.addSql('alter table requirement_evidence_pieces drop column expires_max');
    }
}
//# sourceMappingURL=Migration20261128000100AttestationEvidenceExpiry.js.map