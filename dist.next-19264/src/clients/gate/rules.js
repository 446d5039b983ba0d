import { ISO_42001, REQUIREMENT_STATUSES } from '../../shared/vocabulary.js';
import { ApiError } from '../api-client/client.js';
import { aiSystemPath, attestationPath, compliancePath, controlPath, ctePath, epochPath, frameworkPath, requirementPath, snapshotPath, } from '../api-client/paths.js';
/**
 * The gate's rules, evaluated over the daemon's HTTP API with the caller's key (read scope is enough).
 * Each rule yields one result; a rule that names something the daemon does not know (a framework, a
 * snapshot) is a mistake in the policy, reported as a usage error rather than a failed rule.
 */
export const RULE_IDS = [
    'min-score',
    'min-direct-score',
    'max-critical-gaps',
    'max-important-gaps',
    'no-expired-evidence',
    'no-regression',
    'ai-systems-attested',
    'signed-epoch',
];
export const RULE_DESCRIPTIONS = {
    'min-score': 'A framework’s score is at least the minimum',
    'min-direct-score': 'A framework’s score counting direct records only is at least the minimum',
    'max-critical-gaps': 'A framework has at most this many critical gaps',
    'max-important-gaps': 'A framework has at most this many important gaps',
    'no-expired-evidence': 'No implemented requirement whose evidence has all expired',
    'no-regression': 'No requirement went backwards and the score did not drop since a snapshot',
    'ai-systems-attested': 'Every AI system of the given risk levels has a recent attestation',
    'signed-epoch': 'An attestation epoch is wholly signed (L2) and has the expected Merkle root',
};
export class PolicyReferenceError extends Error {
}
const rank = (status) => status === null ? -1 : REQUIREMENT_STATUSES.indexOf(status);
const pct = (score) => (score === null ? 'n/a' : `${score}`);
/** Framework ids the policy names that the daemon does not know. */
function unknownFrameworks(policy, known) {
    const named = [...Object.keys(policy.frameworks ?? {}), ...(policy.noExpiredEvidence?.frameworks ?? [])];
    return [...new Set(named.filter((id) => !known.has(id)))];
}
export async function evaluatePolicy(client, orgId, policy) {
    const frameworks = await client.get(frameworkPath(orgId));
    const byId = new Map(frameworks.frameworks.map((f) => [f.frameworkId, f]));
    const unknown = unknownFrameworks(policy, new Set(byId.keys()));
    if (unknown.length) {
        throw new PolicyReferenceError(`the policy names unknown framework${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${[...byId.keys()].join(', ')})`);
    }
    const results = [];
    for (const [frameworkId, rules] of Object.entries(policy.frameworks ?? {})) {
        const scores = byId.get(frameworkId);
        if (!scores)
            continue;
        const path = ['frameworks', frameworkId];
        if (rules.minScore !== undefined) {
            results.push({
                rule: 'min-score',
                name: `${frameworkId} score ≥ ${rules.minScore}`,
                passed: scores.score !== null && scores.score >= rules.minScore,
                expected: `≥ ${rules.minScore}`,
                actual: pct(scores.score),
                failures: [],
                path: [...path, 'minScore'],
            });
        }
        if (rules.minDirectScore !== undefined) {
            results.push({
                rule: 'min-direct-score',
                name: `${frameworkId} direct score ≥ ${rules.minDirectScore}`,
                passed: scores.directScore !== null && scores.directScore >= rules.minDirectScore,
                expected: `≥ ${rules.minDirectScore}`,
                actual: pct(scores.directScore),
                failures: [],
                path: [...path, 'minDirectScore'],
            });
        }
        if (rules.maxCriticalGaps === undefined && rules.maxImportantGaps === undefined)
            continue;
        const report = await client.get(ctePath('gaps', frameworkId), {
            orgId,
        });
        for (const [priority, max, key] of [
            ['critical', rules.maxCriticalGaps, 'maxCriticalGaps'],
            ['important', rules.maxImportantGaps, 'maxImportantGaps'],
        ]) {
            if (max === undefined)
                continue;
            const gaps = report.gaps.filter((gap) => gap.priority === priority);
            results.push({
                rule: priority === 'critical' ? 'max-critical-gaps' : 'max-important-gaps',
                name: `${frameworkId} ${priority} gaps ≤ ${max}`,
                passed: gaps.length <= max,
                expected: `≤ ${max}`,
                actual: String(gaps.length),
                failures: gaps.length > max
                    ? gaps.map((gap) => `${gap.controlId} (${gap.status}): ${gap.recommendation}`)
                    : [],
                path: [...path, key],
            });
        }
    }
    if (policy.noExpiredEvidence) {
        const ids = policy.noExpiredEvidence.frameworks ?? [...byId.keys()];
        const expired = [];
        for (const frameworkId of ids) {
            const list = await client.get(requirementPath(orgId, frameworkId));
            for (const r of list.requirements) {
                if (r.status === 'implemented' && r.applicable && r.evidenceExpired) {
                    expired.push(`${frameworkId} ${r.requirementId}: implemented, all ${r.evidenceCount} evidence item(s) expired`);
                }
            }
        }
        results.push({
            rule: 'no-expired-evidence',
            name: `no implemented requirement with only expired evidence (${policy.noExpiredEvidence.frameworks ? ids.join(', ') : 'every framework'})`,
            passed: expired.length === 0,
            expected: '0',
            actual: String(expired.length),
            failures: expired,
            path: ['noExpiredEvidence'],
        });
    }
    if (policy.regression)
        results.push(...(await regression(client, orgId, policy.regression)));
    if (policy.aiSystems)
        results.push(await aiSystemsAttested(client, orgId, policy.aiSystems));
    for (const epoch of policy.epochs ?? [])
        results.push(await signedEpoch(client, orgId, epoch));
    return results;
}
async function findSnapshot(client, orgId, name) {
    for (let offset = 0;; offset += 200) {
        const page = await client.get(snapshotPath(orgId), { limit: 200, offset });
        const found = page.snapshots.find((s) => s.label === name);
        if (found)
            return found.snapshotId;
        if (offset + page.snapshots.length >= page.total || page.snapshots.length === 0)
            break;
    }
    try {
        await client.get(snapshotPath(orgId, name));
        return name;
    }
    catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
            throw new PolicyReferenceError(`no snapshot labelled "${name}" (nor with that id) in ${orgId}`);
        }
        throw error;
    }
}
async function regression(client, orgId, rule) {
    const snapshotId = await findSnapshot(client, orgId, rule.snapshot);
    const [snapshot, verification, current] = await Promise.all([
        client.get(snapshotPath(orgId, snapshotId)),
        client.get(snapshotPath(orgId, snapshotId, '/verify')),
        client.get(compliancePath(orgId)),
    ]);
    const label = `"${snapshot.label}"`;
    const results = [];
    const maxDrop = rule.maxScoreDrop ?? 0;
    const drop = snapshot.score !== null && current.score !== null
        ? Math.round((snapshot.score - current.score) * 10) / 10
        : null;
    const integrity = verification.valid
        ? []
        : [`snapshot ${label} no longer matches its content hash: it cannot serve as a baseline`];
    results.push({
        rule: 'no-regression',
        name: `${ISO_42001} score dropped at most ${maxDrop} points since snapshot ${label}`,
        passed: verification.valid && (drop === null || drop <= maxDrop),
        expected: `≥ ${snapshot.score === null ? 'n/a' : Math.round((snapshot.score - maxDrop) * 10) / 10} (snapshot: ${pct(snapshot.score)})`,
        actual: pct(current.score),
        failures: integrity,
        path: ['regression', 'maxScoreDrop'],
    });
    if (rule.controls === false)
        return results;
    const backwards = [...integrity];
    const controls = await client.get(controlPath(orgId));
    const now = new Map(controls.controls.map((c) => [c.controlId, c]));
    for (const before of snapshot.controls) {
        const after = now.get(before.controlId);
        if (before.applicable && after?.applicable && rank(after.status) < rank(before.status)) {
            backwards.push(`${ISO_42001} ${before.controlId}: ${before.status} → ${after.status}`);
        }
    }
    for (const framework of snapshot.frameworks ?? []) {
        const recorded = framework.records.filter((r) => r.status !== null && r.applicable !== false);
        if (!recorded.length)
            continue;
        let list;
        try {
            list = await client.get(requirementPath(orgId, framework.frameworkId));
        }
        catch (error) {
            // A framework imported then removed since the snapshot: each of its records went away.
            if (error instanceof ApiError && error.status === 404) {
                backwards.push(`${framework.frameworkId}: the framework no longer exists`);
                continue;
            }
            throw error;
        }
        const reqs = new Map(list.requirements.map((r) => [r.requirementId, r]));
        for (const before of recorded) {
            const after = reqs.get(before.requirementId);
            if (after?.applicable && rank(after.status) < rank(before.status)) {
                backwards.push(`${framework.frameworkId} ${before.requirementId}: ${before.status} → ${after.status} (${after.assessment})`);
            }
        }
    }
    results.push({
        rule: 'no-regression',
        name: `no requirement went backwards since snapshot ${label}`,
        passed: backwards.length === 0,
        expected: '0',
        actual: String(backwards.length - integrity.length),
        failures: backwards,
        path: ['regression', 'snapshot'],
    });
    return results;
}
/** Attestations newest first since `from`, page by page, until every wanted system has been seen. */
async function attestedSystems(client, orgId, from, level, wanted) {
    const seen = new Set();
    let cursor;
    do {
        const page = await client.get(attestationPath(orgId), {
            from,
            level,
            limit: 1000,
            cursor,
        });
        for (const a of page.attestations)
            if (a.systemId && wanted.has(a.systemId))
                seen.add(a.systemId);
        cursor = page.nextCursor ?? undefined;
    } while (cursor && seen.size < wanted.size);
    return seen;
}
async function aiSystemsAttested(client, orgId, rule) {
    const levels = rule.riskLevels ?? ['high'];
    const lists = await Promise.all(levels.map((riskLevel) => client.get(aiSystemPath(orgId), { riskLevel })));
    const systems = lists.flatMap((l) => l.systems).filter((s) => s.lifecycleStage !== 'retired');
    const from = new Date(Date.now() - rule.attestedWithinDays * 86_400_000).toISOString();
    const seen = systems.length
        ? await attestedSystems(client, orgId, from, rule.level, new Set(systems.map((s) => s.systemId)))
        : new Set();
    const missing = systems.filter((s) => !seen.has(s.systemId));
    return {
        rule: 'ai-systems-attested',
        name: `every ${levels.join('/')}-risk AI system attested${rule.level ? ` at ${rule.level}` : ''} in the last ${rule.attestedWithinDays} days`,
        passed: missing.length === 0,
        expected: `${systems.length} of ${systems.length}`,
        actual: `${systems.length - missing.length} of ${systems.length}`,
        failures: missing.map((s) => `${s.name} (${s.systemId}, ${s.riskLevel}): no attestation since ${from}`),
        path: ['aiSystems'],
    };
}
async function signedEpoch(client, orgId, rule) {
    const expected = rule.merkleRoot.toLowerCase();
    const base = {
        rule: 'signed-epoch',
        name: `epoch ${rule.epochId} signed (L2) with Merkle root ${expected.slice(0, 12)}…`,
        expected,
        path: ['epochs', rule.epochId],
    };
    let epoch;
    try {
        epoch = await client.get(epochPath(orgId, rule.epochId));
    }
    catch (error) {
        if (error instanceof ApiError && error.status === 404) {
            return {
                ...base,
                passed: false,
                actual: 'no attestations',
                failures: [`epoch ${rule.epochId} has no attestations`],
            };
        }
        throw error;
    }
    const failures = [];
    if (epoch.levels.L0 > 0)
        failures.push(`${epoch.levels.L0} of ${epoch.count} attestations are unsigned (L0)`);
    if (epoch.merkleRoot !== expected)
        failures.push(`Merkle root is ${epoch.merkleRoot}, expected ${expected}`);
    return {
        ...base,
        passed: failures.length === 0,
        actual: `${epoch.merkleRoot} (${epoch.levels.L2} L2, ${epoch.levels.L0} L0)`,
        failures,
    };
}
//# sourceMappingURL=rules.js.map