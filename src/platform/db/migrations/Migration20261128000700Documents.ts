import { Migration } from '@mikro-orm/migrations';
import { type AuditedTable, auditTriggers, dropAuditTriggers } from './audit-triggers.js';

/**
 * Controlled documents (policies, procedures, plans, records) and their versions. A document names the
 * requirements it serves and, optionally, how often it is reviewed (an ISO 8601 duration); its next review is
 * set when a version is published. Versions are numbered 1, 2, … per document: at most one `draft` and one
 * `published` at a time (partial unique indexes), the versions published before stay as `superseded`. A
 * version holds either Markdown `content` or a `file_url`, never both. Publication freezes the version under
 * its content hash and records the evidence items it became. The audit trail leaves out `content` (up to
 * 1 MiB a version) and keeps `content_hash`.
 */
export class Migration20261128000700Documents extends Migration {
  override name = 'Migration20261128000700Documents';

  override up(): void {
    this.addSql(`create table documents (
      document_id text primary key,
      org_id text not null references orgs (org_id) on delete cascade,
      title text not null,
      kind text not null check (kind in ('policy', 'procedure', 'plan', 'record')),
      owner text,
      requirements jsonb not null default '[]',
      review_every text,
      next_review_at timestamptz,
      created_by jsonb,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(
      'create index documents_org_review on documents (org_id, next_review_at, title, document_id)',
    );
    this.addSql(`create table document_versions (
      version_id text primary key,
      org_id text not null references orgs (org_id) on delete cascade,
      document_id text not null references documents (document_id) on delete cascade,
      version integer not null check (version >= 1),
      state text not null check (state in ('draft', 'published', 'superseded')),
      content text,
      file_url text,
      changelog text not null,
      author jsonb not null,
      editors jsonb not null default '[]',
      content_hash text,
      approved_by jsonb,
      published_at timestamptz,
      superseded_at timestamptz,
      superseded_by text,
      evidence jsonb not null default '[]',
      created_at timestamptz not null,
      updated_at timestamptz not null,
      check ((content is null) <> (file_url is null))
    )`);
    this.addSql('create unique index document_versions_number on document_versions (document_id, version)');
    this.addSql(`create unique index document_versions_one_draft on document_versions (document_id)
      where state = 'draft'`);
    this.addSql(`create unique index document_versions_one_published on document_versions (document_id)
      where state = 'published'`);
    for (const audited of AUDITED) for (const sql of auditTriggers(audited)) this.addSql(sql);
  }

  override down(): void {
    for (const audited of AUDITED) for (const sql of dropAuditTriggers(audited)) this.addSql(sql);
    this.addSql('drop table document_versions, documents');
  }
}

const AUDITED: AuditedTable[] = [
  ['documents', 'document', 'document_id', ''],
  ['document_versions', 'document-version', 'version_id', 'content'],
];
