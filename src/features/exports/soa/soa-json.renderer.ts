import type { SoaView } from './soa.types.js';

/**
 * The statement as JSON (camelCase, like every response of the API): the header, `notes`, the `checks`
 * (null when the export carries no risks: a snapshot) and the controls, each with its `risks` and where its
 * justification comes from (`justificationSource`).
 */
export function renderSoaJson(view: SoaView): string {
  return JSON.stringify({
    framework: view.framework,
    orgId: view.orgId,
    orgName: view.orgName,
    generatedAt: view.generatedAt,
    lastModified: view.lastModified,
    score: view.score,
    counts: view.counts,
    snapshot: view.snapshot,
    notes: view.notes,
    checks: view.checks,
    controls: view.rows,
  });
}
