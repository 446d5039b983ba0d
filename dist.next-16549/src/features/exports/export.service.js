import { IsolationLevel } from '@mikro-orm/core';
import { invalidField, resourceNotFound } from '../../platform/errors.js';
import { selectOrg } from '../../records/orgs.store.js';
import { lastRecordChange, readRecords } from '../../records/records.store.js';
import { countStates, scoreOf } from '../../records/score.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { listAiSystems } from '../ai-systems/ai-systems.service.js';
import { getSnapshot, requireSnapshot } from '../compliance/snapshots.service.js';
import { controlJudgement, controlLibrary, withLibraryControls } from '../controls/library.seed.js';
import { currentLibrary, requireFramework } from '../cte/library.service.js';
import { selectRecordEvidence, selectRequirementsWithEvidence } from '../evidence/evidence.store.js';
import { listRequirements } from '../requirements/requirements.service.js';
import { scoreHistory } from '../scores/history.service.js';
import { exportFramework } from './framework.js';
export { requireSnapshot };
/** The org's ISO/IEC 42001 controls in library order, from its requirement records. */
async function readControls(tx, orgId) {
    return withLibraryControls(await readRecords(tx, orgId, ISO_42001)).map(({ controlId, domain, domainTitle, title, description, record }) => ({
        controlId,
        domain,
        domainTitle,
        title,
        description,
        ...controlJudgement(record),
        evidenceCount: record.evidenceCount,
    }));
}
/** One requirement's evidence as the export shows it, newest first, up to `limit` items. */
async function readControlEvidence(tx, orgId, frameworkId, controlId, limit) {
    const rows = await selectRecordEvidence(tx, { orgId, frameworkId, requirementId: controlId }, limit);
    return rows.map((row) => ({
        evidenceId: row.evidenceId,
        controlId,
        type: row.type,
        title: row.title,
        description: row.description,
        fileUrl: row.fileUrl,
        createdAt: row.createdAt,
    }));
}
async function readOrg(em, orgId) {
    const org = await selectOrg(em, orgId);
    if (!org)
        throw resourceNotFound('Organization', { orgId });
    return org;
}
/** The daily score over the 30 days before `until` (now for live data), oldest first. */
async function readHistory(em, orgId, until) {
    const query = until
        ? { from: new Date(until.getTime() - 29 * 86_400_000).toISOString(), to: until.toISOString() }
        : {};
    const { history } = await scoreHistory(em, orgId, ISO_42001, query);
    return history.points.map((point) => ({ periodStart: point.periodStart, score: point.score }));
}
const latest = (instants, floor) => {
    let result = floor;
    for (const instant of instants)
        if (instant > result)
            result = instant;
    return result;
};
/**
 * What both loaders build the same way from the org's rows: each row's evidence (newest first, up to
 * `evidenceLimit`; only rows in `withEvidence` are read when it is given), the AI systems, the counts and
 * score, and when anything last changed (`lastChange`: a change-log entry the rows do not show).
 */
async function assemble(tx, orgId, org, rows, frameworkId, options, extra = {}) {
    const limit = options.evidenceLimit ?? Number.POSITIVE_INFINITY;
    const controls = [];
    for (const row of rows) {
        const evidence = extra.withEvidence === undefined || extra.withEvidence.has(row.controlId)
            ? await readControlEvidence(tx, orgId, frameworkId, row.controlId, limit)
            : [];
        controls.push({
            ...row,
            // Complete lists are counted exactly; capped ones rely on the roll-up kept beside the record.
            evidenceCount: Number.isFinite(limit) ? Math.max(row.evidenceCount, evidence.length) : evidence.length,
            evidence,
        });
    }
    const systems = await listAiSystems(tx, orgId, {});
    const counts = countStates(controls);
    const lastModified = latest([
        ...controls.map((control) => control.updatedAt),
        ...controls.map((control) => control.evidence[0]?.createdAt ?? ''),
        ...systems.map((system) => system.updatedAt),
        extra.lastChange ?? '',
    ], org.createdAt);
    return {
        generatedAt: options.generatedAt.toISOString(),
        lastModified,
        score: scoreOf(counts),
        counts,
        controls,
        aiSystems: systems.map(({ systemId, name, description, owner, purpose, riskLevel, lifecycleStage }) => ({
            systemId,
            name,
            description,
            owner,
            purpose,
            riskLevel,
            lifecycleStage,
        })),
    };
}
/**
 * The live compliance state of an org as every export renders it, read in one repeatable-read
 * transaction so that controls, evidence and AI systems agree with each other and with the score.
 * ISO/IEC 42001 unless `options.frameworkId` names another framework of the library.
 */
export async function loadExportData(em, orgId, options) {
    if (options.frameworkId !== undefined && options.frameworkId !== ISO_42001) {
        return loadFrameworkExportData(em, orgId, options.frameworkId, options);
    }
    const data = await em.transactional(async (tx) => {
        const org = await readOrg(tx, orgId);
        const rows = await readControls(tx, orgId);
        return {
            org,
            ...(await assemble(tx, orgId, org, rows, ISO_42001, options)),
        };
    }, { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true });
    return options.history ? { ...data, history: await readHistory(em, orgId) } : data;
}
/**
 * The org's requirements of one framework, in library order, each with its effective status: the org's
 * direct record, else what the crosswalk infers from the org's direct records of other frameworks
 * (`assessment` says which; see the requirements service). A requirement the org never recorded anything
 * on is dated by the org's creation and marked `recorded: false`.
 */
async function readRequirements(tx, orgId, framework, orgCreatedAt) {
    const { requirements } = await listRequirements(tx, orgId, framework.id);
    const entries = new Map(requirements.map((entry) => [entry.requirementId, entry]));
    const domainTitles = new Map((framework.domains ?? []).map((domain) => [domain.id, domain.title]));
    return framework.requirements.flatMap((requirement) => {
        const entry = entries.get(requirement.id);
        if (!entry)
            return [];
        const domain = requirement.domain ?? '';
        return [
            {
                controlId: requirement.id,
                domain,
                domainTitle: domain ? (domainTitles.get(domain) ?? domain) : '',
                title: requirement.title,
                description: requirement.description,
                status: entry.status,
                applicable: entry.applicable,
                justification: entry.justification,
                reviewer: entry.reviewer,
                updatedAt: entry.updatedAt ?? orgCreatedAt,
                recorded: entry.updatedAt !== null,
                assessment: entry.assessment,
                ...(entry.assessment === 'inferred' ? { inferredFrom: entry.inferred.from } : {}),
                evidenceCount: entry.evidenceCount,
            },
        ];
    });
}
/**
 * `loadExportData` for a framework other than ISO/IEC 42001: the framework and its requirements come from
 * the current library (built in or imported), the org's state from its requirement records and the
 * crosswalk, all read in one repeatable-read transaction. An unknown framework is a 404.
 */
async function loadFrameworkExportData(em, orgId, frameworkId, options) {
    return em.transactional(async (tx) => {
        // Read inside the transaction: the same library revision as the requirements service sees.
        const { library, importedIds } = await currentLibrary(tx);
        const framework = requireFramework(library, frameworkId);
        const org = await readOrg(tx, orgId);
        const rows = await readRequirements(tx, orgId, framework, org.createdAt);
        return {
            org,
            framework: exportFramework(framework, { imported: importedIds.has(framework.id) }),
            ...(await assemble(tx, orgId, org, rows, frameworkId, options, {
                withEvidence: await selectRequirementsWithEvidence(tx, orgId, frameworkId),
                lastChange: await lastRecordChange(tx, orgId),
            })),
        };
    }, { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true });
}
/**
 * Snapshots are exported as ISO/IEC 42001 only: another framework together with a snapshot is a 400 that
 * names `frameworkId`.
 */
export function refuseSnapshotOfOtherFramework(frameworkId, snapshotId) {
    if (snapshotId === undefined || frameworkId === ISO_42001)
        return;
    throw invalidField('frameworkId', `must be ${ISO_42001} when snapshotId is given: snapshots are exported as ISO/IEC 42001 only`, { frameworkId, snapshotId });
}
/** Fails with 404 "Framework not found" unless the library (built in or imported) has this framework. */
export async function requireExportFramework(em, frameworkId) {
    if (frameworkId === ISO_42001)
        return;
    requireFramework((await currentLibrary(em)).library, frameworkId);
}
/**
 * The state frozen in a snapshot: statuses, applicability, evidence references, score and counts as
 * they were. Only what the library defines (domain titles, control summaries) and the org's name are
 * read as they are now; AI systems are not part of a snapshot and are left out.
 */
export async function loadSnapshotExportData(em, orgId, snapshotId, options) {
    const snapshot = await getSnapshot(em, orgId, snapshotId);
    const org = await readOrg(em, orgId);
    const { domains, controls: libraryControls } = controlLibrary();
    const domainTitles = new Map(domains.map((domain) => [domain.id, domain.title]));
    const library = new Map(libraryControls.map((control) => [
        control.controlId,
        { domainTitle: domainTitles.get(control.domain) ?? control.domain, description: control.description },
    ]));
    const limit = options.evidenceLimit ?? Number.POSITIVE_INFINITY;
    const controls = snapshot.controls.map((control) => ({
        controlId: control.controlId,
        domain: control.domain,
        domainTitle: library.get(control.controlId)?.domainTitle ?? control.domain,
        title: control.title,
        description: library.get(control.controlId)?.description ?? control.title,
        status: control.status,
        applicable: control.applicable,
        justification: control.justification,
        reviewer: control.reviewer,
        updatedAt: control.updatedAt,
        evidenceCount: control.evidenceCount,
        evidence: control.evidence.slice(0, limit).map((item) => ({
            evidenceId: item.evidenceId,
            controlId: control.controlId,
            type: item.type,
            title: item.title,
            description: null,
            fileUrl: item.fileUrl,
            createdAt: item.createdAt,
        })),
    }));
    let history;
    if (options.history) {
        const takenAt = new Date(snapshot.createdAt);
        // Days that ended before the snapshot, then the snapshot itself: the chart ends on the frozen score.
        const before = (await readHistory(em, orgId, takenAt)).filter((point) => Date.parse(point.periodStart) + 86_400_000 <= takenAt.getTime());
        history = [...before, { periodStart: snapshot.createdAt, score: snapshot.score }];
    }
    return {
        org,
        generatedAt: options.generatedAt.toISOString(),
        lastModified: snapshot.createdAt,
        score: snapshot.score,
        counts: snapshot.counts,
        history,
        snapshot: {
            snapshotId: snapshot.snapshotId,
            label: snapshot.label,
            createdAt: snapshot.createdAt,
            contentHash: snapshot.contentHash,
        },
        controls,
        aiSystems: [],
    };
}
//# sourceMappingURL=export.service.js.map