import type { Static } from 'typebox';
import type { SoaStatementSchema } from '../export.schemas.js';
import type { SoaView } from './soa.types.js';

/**
 * The statement as JSON (camelCase, like every response of the API; `SoaStatementSchema`): the header with
 * the as-of time, who exported it and the approval block, `notes`, the `checks` (null when the export carries
 * no risks: a snapshot) and the controls, each with its `risks`, where its justification comes from
 * (`justificationSource`), its note, and its evidence with expiry.
 */
export function renderSoaJson(view: SoaView): string {
  const statement: Static<typeof SoaStatementSchema> = {
    framework: view.framework,
    orgId: view.orgId,
    orgName: view.orgName,
    asOf: view.asOf,
    generatedAt: view.generatedAt,
    lastModified: view.lastModified,
    exportedBy: view.exportedBy,
    approval: view.approval,
    score: view.score,
    counts: view.counts,
    snapshot: view.snapshot,
    notes: view.notes,
    checks: view.checks,
    controls: view.rows,
  };
  return JSON.stringify(statement);
}
