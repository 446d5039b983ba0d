import { Migration } from '@mikro-orm/migrations';
/** The org-wide list of evidence by expiry (`GET /orgs/{orgId}/evidence/expiring`) walks this index. */
export class Migration20261124000800EvidenceExpiry extends Migration {
    name = 'Migration20261124000800EvidenceExpiry';
    up() {
        this.addSql('create index evidence_expiry_idx on evidence (org_id, expires_at, evidence_id) where expires_at is not null');
    }
    down() {
        this.addSql('drop index evidence_expiry_idx');
    }
}
//# sourceMappingURL=Migration20261124000800EvidenceExpiry.js.map