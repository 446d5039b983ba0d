import type { Static } from 'typebox';
import type { Em } from '../db.js';
import { invalidField, resourceNotFound } from '../errors.js';
import type { ControlSchema, OrgControlSchema } from './controls.schemas.js';
import { DOMAIN_IDS } from './library.seed.js';
import type { ControlStatus } from './org-control.entity.js';

export type ControlView = Static<typeof ControlSchema>;
export type OrgControlView = Static<typeof OrgControlSchema>;

function checkDomain(domain: string | undefined): void {
  if (domain !== undefined && !DOMAIN_IDS().includes(domain)) {
    throw invalidField('querystring.domain', `must be one of ${DOMAIN_IDS().join(', ')}`, {
      allowed: DOMAIN_IDS(),
    });
  }
}

const CONTROL_COLUMNS = `control_id as "controlId", domain, domain_title as "domainTitle", title, description`;

/** The library, optionally filtered by domain and ranked by full-text relevance to `search`. */
export async function listControls(
  em: Em,
  query: { domain?: string; search?: string },
): Promise<ControlView[]> {
  checkDomain(query.domain);
  const params: unknown[] = [];
  const where: string[] = [];
  let rank = '';
  let order = 'sort_order';
  if (query.search) {
    // websearch_to_tsquery accepts any user text without syntax errors; ids match on their own too.
    rank = `, ts_rank(search_vector, websearch_to_tsquery('english', ?))::float8 as rank`;
    where.push(`(search_vector @@ websearch_to_tsquery('english', ?) or control_id ilike ?)`);
    params.push(query.search, query.search, `${query.search.replace(/[%_\\]/g, '\\$&')}%`);
    order = 'rank desc, sort_order';
  }
  if (query.domain) {
    where.push('domain = ?');
    params.push(query.domain);
  }
  const rows = await em.execute<ControlView[]>(
    `select ${CONTROL_COLUMNS}${rank} from controls ${where.length ? `where ${where.join(' and ')}` : ''} order by ${order}`,
    params,
  );
  return rows.map((row) =>
    row.rank === undefined ? row : { ...row, rank: Math.round(row.rank * 1e4) / 1e4 },
  );
}

export async function getControl(em: Em, controlId: string): Promise<ControlView> {
  const [row] = await em.execute<ControlView[]>(
    `select ${CONTROL_COLUMNS} from controls where control_id = ?`,
    [controlId],
  );
  if (!row) throw resourceNotFound('Control', { controlId });
  return row;
}

interface OrgControlRow {
  controlId: string;
  domain: string;
  title: string;
  status: ControlStatus;
  applicable: boolean;
  justification: string | null;
  reviewer: string | null;
  updatedAt: Date | string;
  evidenceCount: number;
  evidenceExpired: boolean;
  evidenceExpiresMax: Date | string | null;
  evidence: {
    evidenceId: string;
    type: string;
    title: string;
    createdAt: string;
    expiresAt: string | null;
  }[];
}

const LATEST_EVIDENCE = 3;

/**
 * Counts and expiry come from the roll-up columns (no counting); the latest few evidence items per control
 * come from one lateral join, an index scan of LATEST_EVIDENCE rows per control. The first parameter is
 * the instant that decides expiry.
 */
const ORG_CONTROL_QUERY = `select c.control_id as "controlId", c.domain, c.title, oc.status, oc.applicable,
  oc.justification, oc.reviewer, oc.updated_at as "updatedAt", oc.evidence_count as "evidenceCount",
  coalesce(oc.evidence_count > 0 and not oc.evidence_never_expires
    and oc.evidence_expires_max <= ?::timestamptz, false) as "evidenceExpired",
  oc.evidence_expires_max as "evidenceExpiresMax",
  coalesce(latest.items, '[]'::json) as evidence
  from org_controls oc join controls c on c.control_id = oc.control_id
  left join lateral (
    select json_agg(json_build_object('evidenceId', e.evidence_id, 'type', e.type, 'title', e.title,
      'createdAt', e.created_at, 'expiresAt', e.expires_at) order by e.created_at desc, e.evidence_id desc) as items
    from (select evidence_id, type, title, created_at, expires_at from evidence
      where org_id = oc.org_id and control_id = oc.control_id
      order by created_at desc, evidence_id desc limit ${LATEST_EVIDENCE}) e
  ) latest on true`;

const toView = ({ evidenceExpiresMax: _, ...row }: OrgControlRow, now: Date): OrgControlView => ({
  ...row,
  updatedAt: new Date(row.updatedAt).toISOString(),
  evidence: row.evidence.map((item) => ({
    evidenceId: item.evidenceId,
    type: item.type,
    title: item.title,
    createdAt: new Date(item.createdAt).toISOString(),
    expired: item.expiresAt !== null && new Date(item.expiresAt).getTime() <= now.getTime(),
  })),
});

export interface OrgControlFilter {
  status?: ControlStatus;
  applicable?: boolean;
  domain?: string;
}

/** The first instant after `now` at which an expiry changes what the view shows (Infinity if none). */
function nextExpiry(rows: OrgControlRow[], now: Date): number {
  let next = Number.POSITIVE_INFINITY;
  const consider = (value: Date | string | null) => {
    const at = value === null ? Number.NaN : new Date(value).getTime();
    if (at > now.getTime() && at < next) next = at;
  };
  for (const row of rows) {
    consider(row.evidenceExpiresMax);
    for (const item of row.evidence) consider(item.expiresAt);
  }
  return next;
}

/** An org's controls, and until when they stay exact by themselves (the next evidence expiry). */
export async function listOrgControls(
  em: Em,
  orgId: string,
  filter: OrgControlFilter,
): Promise<{ controls: OrgControlView[]; validUntil: number }> {
  checkDomain(filter.domain);
  const now = new Date();
  const where = ['oc.org_id = ?'];
  const params: unknown[] = [now, orgId];
  if (filter.status) {
    where.push('oc.status = ?');
    params.push(filter.status);
  }
  if (filter.applicable !== undefined) {
    where.push('oc.applicable = ?');
    params.push(filter.applicable);
  }
  if (filter.domain) {
    where.push('c.domain = ?');
    params.push(filter.domain);
  }
  const rows = await em.execute<OrgControlRow[]>(
    `${ORG_CONTROL_QUERY} where ${where.join(' and ')} order by c.sort_order`,
    params,
  );
  return { controls: rows.map((row) => toView(row, now)), validUntil: nextExpiry(rows, now) };
}

export async function getOrgControl(em: Em, orgId: string, controlId: string): Promise<OrgControlView> {
  const now = new Date();
  const [row] = await em.execute<OrgControlRow[]>(
    `${ORG_CONTROL_QUERY} where oc.org_id = ? and oc.control_id = ?`,
    [now, orgId, controlId],
  );
  if (!row) throw resourceNotFound('Control', { controlId });
  return toView(row, now);
}

interface ChangeInput {
  orgId: string;
  controlId: string;
  actor: string;
  keyId: string | null;
  note?: string | null;
}

/**
 * Applies one change and appends it to the change log in the same transaction, with the row locked so
 * that concurrent changes to a control are serialised and the log's from/to values chain exactly.
 */
async function changeControl(
  em: Em,
  input: ChangeInput,
  field: 'status' | 'applicable',
  apply: (current: { status: ControlStatus; applicable: boolean }) => {
    to: string;
    set: Record<string, unknown>;
  },
): Promise<void> {
  await em.transactional(async (tx) => {
    const [current] = await tx.execute<{ status: ControlStatus; applicable: boolean }[]>(
      'select status, applicable from org_controls where org_id = ? and control_id = ? for update',
      [input.orgId, input.controlId],
    );
    if (!current) throw resourceNotFound('Control', { controlId: input.controlId });
    const from = field === 'status' ? current.status : String(current.applicable);
    const { to, set } = apply(current);
    const now = new Date();
    const columns = Object.keys(set);
    await tx.execute(
      `update org_controls set ${columns.map((column) => `${column} = ?`).join(', ')}, updated_at = ?
       where org_id = ? and control_id = ?`,
      [...Object.values(set), now, input.orgId, input.controlId],
    );
    await tx.execute(
      `insert into control_changes (org_id, control_id, field, from_value, to_value, actor, key_id, note, changed_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [input.orgId, input.controlId, field, from, to, input.actor, input.keyId, input.note ?? null, now],
    );
  });
}

export async function setApplicability(
  em: Em,
  input: ChangeInput & { applicable: boolean; justification: string },
): Promise<OrgControlView> {
  await changeControl(em, { ...input, note: input.justification }, 'applicable', () => ({
    to: String(input.applicable),
    set: { applicable: input.applicable, justification: input.justification, reviewer: input.actor },
  }));
  return getOrgControl(em, input.orgId, input.controlId);
}

export async function setStatus(
  em: Em,
  input: ChangeInput & { status: ControlStatus },
): Promise<OrgControlView> {
  await changeControl(em, input, 'status', () => ({
    to: input.status,
    set: { status: input.status, reviewer: input.actor },
  }));
  return getOrgControl(em, input.orgId, input.controlId);
}
