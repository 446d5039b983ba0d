import { Migration } from '@mikro-orm/migrations';

/**
 * The attestation list filtered by AI system (`?systemId=`) gets an index in the list's order, like every other
 * filter shape, so an AI system's page reads its own attestations in O(page) however many the org holds.
 */
export class Migration20261129000100AttestationSystemIndex extends Migration {
  override name = 'Migration20261129000100AttestationSystemIndex';

  override up(): void {
    this.addSql(
      'create index attestations_system_time_idx on attestations (org_id, system_id, attested_at desc, attestation_id desc) where system_id is not null',
    );
  }

  override down(): void {
    this.addSql('drop index attestations_system_time_idx');
  }
}
