import { Migration } from '@mikro-orm/migrations';
import { type AuditedTable, auditTriggers, dropAuditTriggers } from './audit-triggers.js';

/**
 * People who sign in (users, their membership of orgs, invitations, sessions) and the audit trail.
 *
 * The trail is kept by the database itself: every audited table carries a deferred constraint trigger that
 * appends one event per changed row to its org's hash chain when the transaction commits. No write can skip it
 * (a route, a job or a store added later included), the event commits or rolls back with the change, and the
 * chain is appended in commit order: the head row of each chain is locked last, after every row lock of the
 * transaction, so two writers of one org never deadlock over it. Who acted is read from the transaction's
 * settings `comply.actor` and `comply.request_id` (src/platform/audit/actor-context.ts sets them); a change made
 * outside a request (a job, a migration) is comply's own (`system`).
 *
 * `hash` is SHA-256 of `prev_hash` followed by the RFC 8785 JSON of the event without `hash`; `comply_canonical`
 * writes that JSON (keys sorted, no spaces, numbers without trailing zeros), and the verifier recomputes it
 * with an independent implementation (the `canonicalize` package), so the two check each other.
 */
export class Migration20261128000200People extends Migration {
  override name = 'Migration20261128000200People';

  override up(): void {
    this.addSql(`create table users (
      user_id text primary key,
      email text not null,
      name text not null,
      password_hash text,
      platform_admin boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      last_sign_in_at timestamptz
    )`);
    this.addSql('create unique index users_email_key on users (lower(email))');
    this.addSql(`create table memberships (
      org_id text not null references orgs (org_id) on delete cascade,
      user_id text not null references users (user_id) on delete cascade,
      role text not null check (role in ('viewer', 'editor', 'approver', 'owner', 'auditor')),
      status text not null check (status in ('invited', 'active', 'disabled')),
      expires_at timestamptz,
      framework_ids text[],
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (org_id, user_id)
    )`);
    this.addSql('create index memberships_user on memberships (user_id)');
    // One-time links: an invitation to an org, or (org_id null) the first start's set-up link.
    this.addSql(`create table invitations (
      token_hash text primary key,
      user_id text references users (user_id) on delete cascade,
      org_id text references orgs (org_id) on delete cascade,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null
    )`);
    this.addSql(`create table sessions (
      token_hash text primary key,
      user_id text not null references users (user_id) on delete cascade,
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      expires_at timestamptz not null,
      ended_at timestamptz
    )`);
    this.addSql('create index sessions_user on sessions (user_id) where ended_at is null');
    this.addSql(`alter table api_keys add column created_by text`);

    // The chains: '' is the platform's (sign-ins, users, frameworks and edges shared by every org).
    this.addSql(`create table audit_heads (
      chain text primary key,
      seq bigint not null,
      hash text not null
    )`);
    this.addSql(`create table audit_events (
      chain text not null,
      seq bigint not null,
      event_id text not null unique,
      at timestamptz not null,
      actor jsonb not null,
      action text not null,
      resource_type text not null,
      resource_id text not null,
      changes jsonb,
      request_id text,
      prev_hash text not null,
      hash text not null,
      primary key (chain, seq)
    )`);
    this.addSql('create index audit_events_at on audit_events (chain, at)');

    this.addSql(`create function comply_canonical(value jsonb) returns text language plpgsql immutable as $$
      declare
        kind text := jsonb_typeof(value);
        result text;
      begin
        if kind = 'object' then
          select '{' || coalesce(string_agg(to_jsonb(key)::text || ':' || comply_canonical(value -> key), ','
                   order by key collate "C"), '') || '}'
            into result from jsonb_object_keys(value) as key;
          return result;
        elsif kind = 'array' then
          select '[' || coalesce(string_agg(comply_canonical(element), ',' order by position), '') || ']'
            into result from jsonb_array_elements(value) with ordinality as items(element, position);
          return result;
        elsif kind = 'number' then
          return trim_scale(value::text::numeric)::text;
        end if;
        return value::text;
      end $$`);

    this.addSql(`create function comply_camel(name text) returns text language sql immutable as $$
      select string_agg(case when position = 1 then part else upper(left(part, 1)) || substr(part, 2) end, ''
                        order by position)
        from unnest(string_to_array(name, '_')) with ordinality as parts(part, position)
    $$`);

    this.addSql(`create function comply_audit_append(p_chain text, p_actor jsonb, p_action text, p_resource_type text,
        p_resource_id text, p_changes jsonb, p_request_id text) returns void language plpgsql as $$
      declare
        v_seq bigint;
        v_prev text;
        v_at timestamptz;
        v_event_id text := gen_random_uuid()::text;
        v_event jsonb;
        v_hash text;
      begin
        select seq + 1, hash into v_seq, v_prev from audit_heads where chain = p_chain for update;
        if not found then
          insert into audit_heads (chain, seq, hash) values (p_chain, 0, repeat('0', 64)) on conflict (chain) do nothing;
          select seq + 1, hash into v_seq, v_prev from audit_heads where chain = p_chain for update;
        end if;
        -- After the head's lock: events of one chain carry times in the order they are appended.
        v_at := date_trunc('milliseconds', clock_timestamp());
        v_event := jsonb_build_object(
          'eventId', v_event_id, 'seq', v_seq,
          'at', to_char(v_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'actor', p_actor, 'action', p_action,
          'resource', jsonb_build_object('type', p_resource_type, 'id', p_resource_id),
          'requestId', p_request_id, 'prevHash', v_prev);
        if p_changes is not null then
          v_event := v_event || jsonb_build_object('changes', p_changes);
        end if;
        v_hash := encode(sha256(convert_to(v_prev || comply_canonical(v_event), 'UTF8')), 'hex');
        insert into audit_events (chain, seq, event_id, at, actor, action, resource_type, resource_id, changes,
                                  request_id, prev_hash, hash)
          values (p_chain, v_seq, v_event_id, v_at, p_actor, p_action, p_resource_type, p_resource_id, p_changes,
                  p_request_id, v_prev, v_hash);
        update audit_heads set seq = v_seq, hash = v_hash where chain = p_chain;
      end $$`);

    // TG_ARGV: the resource type; the columns naming the resource, comma-separated; LIKE patterns of columns
    // never reported (bookkeeping and secrets), comma-separated.
    this.addSql(`create function comply_audit_row() returns trigger language plpgsql as $$
      declare
        v_old jsonb := case when TG_OP = 'INSERT' then '{}'::jsonb else to_jsonb(OLD) end;
        v_new jsonb := case when TG_OP = 'DELETE' then '{}'::jsonb else to_jsonb(NEW) end;
        v_row jsonb := case when TG_OP = 'DELETE' then v_old else v_new end;
        v_ignored text[] := string_to_array(TG_ARGV[2], ',') || array['org_id', 'created_at', 'updated_at'];
        v_changes jsonb;
        v_id text;
        v_actor jsonb;
      begin
        select jsonb_object_agg(comply_camel(key), jsonb_build_object('from', v_old -> key, 'to', v_new -> key))
          into v_changes
          from (select jsonb_object_keys(v_old) as key union select jsonb_object_keys(v_new)) as columns
          where not (key like any (v_ignored)) and (v_old -> key) is distinct from (v_new -> key)
            and not (TG_OP <> 'UPDATE' and coalesce(v_old -> key, v_new -> key) = 'null'::jsonb);
        if TG_OP = 'UPDATE' and v_changes is null then
          return null;
        end if;
        select string_agg(v_row ->> column_name, '/' order by position) into v_id
          from unnest(string_to_array(TG_ARGV[1], ',')) with ordinality as names(column_name, position);
        v_actor := coalesce(nullif(current_setting('comply.actor', true), '')::jsonb,
                            '{"type":"system","id":"system","name":"comply"}'::jsonb);
        perform comply_audit_append(coalesce(v_row ->> 'org_id', ''), v_actor,
          TG_ARGV[0] || case TG_OP when 'INSERT' then '.created' when 'UPDATE' then '.updated' else '.deleted' end,
          TG_ARGV[0], v_id, v_changes, nullif(current_setting('comply.request_id', true), ''));
        return null;
      end $$`);

    for (const audited of AUDITED) for (const sql of auditTriggers(audited)) this.addSql(sql);
  }

  override down(): void {
    for (const audited of AUDITED) for (const sql of dropAuditTriggers(audited)) this.addSql(sql);
    this.addSql('drop function comply_audit_row, comply_audit_append, comply_camel, comply_canonical');
    this.addSql('drop table audit_events, audit_heads, sessions, invitations, memberships, users');
    this.addSql('alter table api_keys drop column created_by');
  }
}

/**
 * Every table whose changes the trail records. Attestation evidence is left out: attestations are their own
 * signed, Merkle-rooted record. A table added later gets its triggers in its own migration, from
 * `auditTriggers` (test/people/audit-trail.test.ts checks that every table holding records is audited).
 */
const AUDITED: AuditedTable[] = [
  ['orgs', 'org', 'org_id', ''],
  ['requirement_records', 'requirement', 'framework_id,requirement_id', 'evidence\\_%'],
  ['evidence', 'evidence', 'evidence_id', '', `$row.type <> 'attestation'`],
  ['ai_systems', 'ai-system', 'system_id', ''],
  ['compliance_snapshots', 'snapshot', 'snapshot_id', 'content,counts'],
  ['api_keys', 'key', 'key_id', 'key_hash'],
  ['sidecar_keys', 'sidecar-key', 'key_id', 'public_key'],
  ['cte_frameworks', 'framework', 'framework_id', 'content,content_hash'],
  ['cte_analyst_edges', 'edge', 'edge_id', 'pair_key'],
  ['users', 'user', 'user_id', 'password_hash,last_sign_in_at'],
  ['memberships', 'member', 'user_id', ''],
];
