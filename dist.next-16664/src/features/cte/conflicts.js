/**
 * Conflicts between frameworks, computed from typed requirement parameters and merged with the curated list.
 *
 * Two parameters of requirements in different frameworks are compared when they constrain the same thing:
 * - retention (`retentionMin`, `retentionPeriod` — a fixed statutory period is a duty to keep at least that
 *   long — and `retentionMax`) on related subjects: a minimum above a maximum cannot both be met
 *   (contradiction); a minimum under a maximum, or under a limit that is only qualitative, constrains the
 *   period (tension); two minimums or two maximums overlap (the longest minimum / shortest maximum serves both);
 * - deadlines of one type (`notificationDeadline`, `responseDeadline`, …) for the same or a similar event:
 *   overlap, resolved by the shortest deadline;
 * - `durationMin` / `durationMax` / `validityMax` and `…Frequency` on one subject: like retention;
 * - data-category rules on related subjects: a permission against a prohibition is a tension;
 * - a disclosure duty against a confidentiality duty on related subjects: tension.
 * Equal values always overlap. Durations are compared numerically (ISO 8601, see durations.ts).
 */
import { createHash } from 'node:crypto';
import { compareDurations, humanDuration, isDuration } from './durations.js';
import { refKey, shortFrameworkName } from './library.js';
import { describeDuty, parameterText, tagWords } from './parameters.js';
/** Subjects that are themselves personal data: a limit on personal data applies to them in full. */
const PERSONAL_DATA_KINDS = new Set([
    'special-category-data',
    'criminal-offence-data',
    'biometric-identification-data',
    'data-subject-request',
]);
/** Records that usually hold personal data (high) or may hold some (low). */
const HOLDS_PERSONAL_DATA = {
    logs: 'high',
    'incident-report': 'high',
    'real-world-testing': 'high',
    'automated-decision': 'high',
    'technical-documentation': 'low',
    'conformity-documentation': 'low',
    'impact-assessment': 'low',
    'risk-report': 'low',
};
/** How two subject tags relate: the same thing, or records holding the personal data the other limits. */
export function subjectRelation(a, b) {
    if (!a || !b)
        return undefined;
    if (a === b)
        return 'same';
    const [general, specific] = a === 'personal-data' ? [a, b] : b === 'personal-data' ? [b, a] : [];
    if (!general || !specific)
        return undefined;
    if (PERSONAL_DATA_KINDS.has(specific))
        return 'same';
    const holds = HOLDS_PERSONAL_DATA[specific];
    return holds ? (holds === 'high' ? 'holds-high' : 'holds-low') : undefined;
}
function eventFamily(event) {
    if (/incident|breach/.test(event))
        return 'incident';
    if (/request$/.test(event))
        return 'request';
    return undefined;
}
/** Same event (or one refines the other: `serious-incident-death` is a `serious-incident`), or similar. */
export function eventRelation(a, b) {
    if (!a || !b)
        return undefined;
    if (a === b || a.startsWith(`${b}-`) || b.startsWith(`${a}-`))
        return 'same';
    const family = eventFamily(a);
    return family && family === eventFamily(b) ? 'similar' : undefined;
}
function duty(entry) {
    return describeDuty(entry.parameter) ?? `${entry.parameter.type} ${entry.parameter.value ?? ''}`.trim();
}
function statement(a, b) {
    return `Under ${a.label}, ${duty(a)}; under ${b.label}, ${duty(b)}.`;
}
function durationOf(entry) {
    const { value } = entry.parameter;
    return isDuration(value) ? value : undefined;
}
function words(value) {
    return `${humanDuration(value)} (${value})`;
}
const RETENTION_BOUND = {
    retentionMin: 'min',
    retentionPeriod: 'min',
    retentionMax: 'max',
};
const DURATION_BOUND = { durationMin: 'min', durationMax: 'max', validityMax: 'max' };
/** Minimum/maximum periods on related subjects (retention, durations, validity). */
function boundsRule(bounds, sameSubjectOnly) {
    return (a, b) => {
        const boundA = bounds[a.parameter.type];
        const boundB = bounds[b.parameter.type];
        if (!boundA || !boundB)
            return undefined;
        const relation = subjectRelation(a.parameter.subject, b.parameter.subject);
        if (!relation || (sameSubjectOnly && relation !== 'same'))
            return undefined;
        const subject = tagWords(relation === 'same'
            ? a.parameter.subject
            : (a.parameter.subject === 'personal-data' ? b : a).parameter.subject);
        const [da, db] = [durationOf(a), durationOf(b)];
        if (boundA === boundB) {
            if (!da || !db)
                return undefined;
            const order = compareDurations(da, db);
            if (order === 0) {
                return {
                    kind: 'overlap',
                    severity: 'low',
                    description: `${statement(a, b)} Both set the same ${boundA === 'min' ? 'minimum' : 'maximum'}.`,
                    resolution: `One rule of ${words(da)} for ${subject} satisfies both.`,
                };
            }
            const pick = boundA === 'min' ? (order > 0 ? da : db) : order < 0 ? da : db;
            return {
                kind: 'overlap',
                severity: 'low',
                description: `${statement(a, b)} The two ${boundA === 'min' ? 'minimums' : 'maximums'} differ.`,
                resolution: `The ${boundA === 'min' ? 'longer minimum' : 'shorter maximum'}, ${words(pick)}, satisfies both: apply it to ${subject}.`,
            };
        }
        const [min, max] = boundA === 'min' ? [a, b] : [b, a];
        const [dMin, dMax] = [durationOf(min), durationOf(max)];
        if (!dMin)
            return undefined;
        if (!dMax) {
            return {
                kind: 'tension',
                severity: relation === 'holds-low' ? 'low' : 'medium',
                description: `${statement(min, max)} The fixed minimum has to be justified under a limit that names no number.`,
                resolution: `Keep ${subject} for ${words(dMin)} as ${min.label} requires and document that period as necessary under ${max.label}; minimise or pseudonymise the personal data they hold and delete them once ${humanDuration(dMin)} have passed unless another documented purpose applies.`,
            };
        }
        const order = compareDurations(dMin, dMax);
        if (order > 0) {
            return {
                kind: 'contradiction',
                severity: 'high',
                description: `${statement(min, max)} No period satisfies both: the minimum of ${humanDuration(dMin)} exceeds the maximum of ${humanDuration(dMax)}.`,
                resolution: `Both cannot hold for the same ${subject}: keep what ${min.label} requires for ${words(dMin)} only where ${max.label} does not apply (strip or anonymise the data it limits before ${humanDuration(dMax)}), and record which rule prevails and why.`,
            };
        }
        return {
            kind: order === 0 ? 'overlap' : 'tension',
            severity: 'low',
            description: `${statement(min, max)} Only periods from ${humanDuration(dMin)} to ${humanDuration(dMax)} satisfy both.`,
            resolution: order === 0
                ? `Keep ${subject} for exactly ${words(dMin)}, then delete them.`
                : `Keep ${subject} for at least ${words(dMin)} and delete them by ${words(dMax)}; a retention of ${humanDuration(dMin)} satisfies both.`,
        };
    };
}
function deadlineSeverity(shortest, longest, events) {
    const ratio = (compareDurations(longest, 'PT0S') ?? 0) / Math.max(compareDurations(shortest, 'PT0S') ?? 1, 1e-9);
    if (events === 'similar' && (compareDurations(shortest, 'PT72H') ?? 1) <= 0 && ratio >= 3)
        return 'high';
    return 'medium';
}
/** Deadlines of one type for the same or a similar event: meet the shortest. */
const deadlineRule = (a, b) => {
    const { type } = a.parameter;
    if (!type.endsWith('Deadline') || type !== b.parameter.type)
        return undefined;
    const events = eventRelation(a.parameter.event, b.parameter.event);
    if (!events)
        return undefined;
    const recipients = a.parameter.recipient && b.parameter.recipient && a.parameter.recipient !== b.parameter.recipient
        ? ` Two notifications are due, to the ${tagWords(a.parameter.recipient)} and to the ${tagWords(b.parameter.recipient)}; prepare both from one incident record.`
        : '';
    const clocks = events === 'same'
        ? 'the same event'
        : `similar events (${tagWords(a.parameter.event)}, ${tagWords(b.parameter.event)})`;
    const [da, db] = [durationOf(a), durationOf(b)];
    if (da && db) {
        const order = compareDurations(da, db);
        if (order === 0) {
            return {
                kind: 'overlap',
                severity: 'low',
                description: `${statement(a, b)} Both run the same clock for ${clocks}.`,
                resolution: `The common deadline of ${words(da)} satisfies both.${recipients}`,
            };
        }
        const [shortest, longest] = order < 0 ? [da, db] : [db, da];
        return {
            kind: 'overlap',
            severity: deadlineSeverity(shortest, longest, events),
            description: `${statement(a, b)} Different clocks (${humanDuration(shortest)} and ${humanDuration(longest)}) run for ${clocks}.`,
            resolution: `The shortest deadline (${shortest}) satisfies both: act within ${humanDuration(shortest)} for both.${recipients}`,
        };
    }
    const fixed = da ? a : db ? b : undefined;
    if (fixed) {
        const open = fixed === a ? b : a;
        return {
            kind: 'overlap',
            severity: 'medium',
            description: `${statement(a, b)} One deadline is fixed, the other only qualitative, for ${clocks}.`,
            resolution: `Act ${open.parameter.qualitative ?? 'without undue delay'} and in any case within ${words(durationOf(fixed))}: that satisfies both.${recipients}`,
        };
    }
    const urgent = [a, b].find((entry) => /immediate/.test(entry.parameter.qualitative ?? '')) ?? a;
    return {
        kind: 'overlap',
        severity: 'low',
        description: `${statement(a, b)} Both are qualitative deadlines for ${clocks}.`,
        resolution: `Act ${urgent.parameter.qualitative ?? 'without undue delay'}: the stricter wording satisfies both.${recipients}`,
    };
};
/** Recurring duties of one type (reporting, review) on one subject: the more frequent satisfies both. */
const frequencyRule = (a, b) => {
    const { type } = a.parameter;
    if (!type.endsWith('Frequency') || type !== b.parameter.type)
        return undefined;
    if (subjectRelation(a.parameter.subject, b.parameter.subject) !== 'same')
        return undefined;
    const [da, db] = [durationOf(a), durationOf(b)];
    if (!da || !db)
        return undefined;
    const shortest = compareDurations(da, db) <= 0 ? da : db;
    return {
        kind: 'overlap',
        severity: 'low',
        description: `${statement(a, b)}`,
        resolution: `A cycle of ${words(shortest)} satisfies both.`,
    };
};
/** Whether a rule allows a data category (under conditions) or forbids it (save exceptions). */
export function rulePolarity(parameter) {
    const text = parameterText(parameter).toLowerCase();
    if (/prohibit|forbid|\bban|not (be )?(permitted|allowed)|must not/.test(text))
        return 'prohibit';
    if (/allow|permit/.test(text))
        return 'permit';
    if (/\bonly (under|when|if|where)\b/.test(text))
        return 'prohibit';
    return undefined;
}
const SENSITIVE_SUBJECTS = new Set([
    'special-category-data',
    'criminal-offence-data',
    'biometric-identification-data',
]);
/** A permission for a data category against a prohibition of it. */
const dataCategoryRule = (a, b) => {
    if (a.parameter.type !== 'dataCategoryRule' || b.parameter.type !== 'dataCategoryRule')
        return undefined;
    if (!subjectRelation(a.parameter.subject, b.parameter.subject))
        return undefined;
    const [pa, pb] = [rulePolarity(a.parameter), rulePolarity(b.parameter)];
    if (!pa || !pb)
        return undefined;
    const subject = tagWords(a.parameter.subject);
    const rules = `${a.label}: ${parameterText(a.parameter)}. ${b.label}: ${parameterText(b.parameter)}.`;
    if (pa === pb) {
        return {
            kind: 'overlap',
            severity: 'low',
            description: `Both rules govern ${subject}. ${rules}`,
            resolution: `Apply the stricter of the two conditions to ${subject}; it satisfies both.`,
        };
    }
    const [permit, prohibit] = pa === 'permit' ? [a, b] : [b, a];
    return {
        kind: 'tension',
        severity: SENSITIVE_SUBJECTS.has(a.parameter.subject ?? '') ? 'high' : 'medium',
        description: `${permit.label} permits processing ${subject} under conditions, while ${prohibit.label} prohibits it save for exceptions. ${rules}`,
        resolution: `Process ${subject} only as ${permit.label} allows and only while strictly necessary for its purpose, under its conditions; record which exception of ${prohibit.label} applies (e.g. a substantial public interest set by law) with the necessity and safeguards; everywhere else ${prohibit.label}'s prohibition holds.`,
    };
};
function disclosureSide(parameter) {
    if (/confidential|secre|non-?disclosure/i.test(parameter.type))
        return 'confidential';
    if (/disclos|transparen|explanation|publication/i.test(parameter.type))
        return 'disclose';
    return undefined;
}
/** A duty to disclose something against a duty to keep it confidential. */
const disclosureRule = (a, b) => {
    const [sa, sb] = [disclosureSide(a.parameter), disclosureSide(b.parameter)];
    if (!sa || !sb || sa === sb)
        return undefined;
    if (!subjectRelation(a.parameter.subject, b.parameter.subject))
        return undefined;
    const [open, closed] = sa === 'disclose' ? [a, b] : [b, a];
    const subject = tagWords(open.parameter.subject);
    const details = [open, closed].map((entry) => `${entry.label}: ${parameterText(entry.parameter) || entry.parameter.type}`);
    return {
        kind: 'tension',
        severity: 'medium',
        description: `${open.label} requires disclosing ${subject} while ${closed.label} requires keeping it confidential. ${details.join('. ')}.`,
        resolution: `Disclose what ${open.label} requires at the level of detail it requires (e.g. a summary or the logic involved) and keep the rest of ${subject} confidential under ${closed.label}; document the split and who may see the full version.`,
    };
};
const RULES = [
    boundsRule(RETENTION_BOUND, false),
    boundsRule(DURATION_BOUND, true),
    deadlineRule,
    frequencyRule,
    dataCategoryRule,
    disclosureRule,
];
const KIND_RANK = { contradiction: 0, tension: 1, overlap: 2 };
const SEVERITY_RANK = { high: 0, medium: 1, low: 2 };
function rank(conflict) {
    return KIND_RANK[conflict.kind] * 3 + SEVERITY_RANK[conflict.severity];
}
function entriesOf(library) {
    const entries = [];
    for (const framework of library.frameworks) {
        for (const requirement of framework.requirements) {
            for (const parameter of requirement.parameters ?? []) {
                entries.push({
                    ref: { frameworkId: framework.id, requirementId: requirement.id },
                    label: `${shortFrameworkName(framework.name)} ${requirement.id}`,
                    requirement,
                    parameter,
                });
            }
        }
    }
    return entries;
}
function pairKey(a, b) {
    return [refKey(a), refKey(b)].sort().join('\u001e');
}
/** Conflicts derived from parameters alone, one per pair of requirements (the most serious finding). */
export function computeConflicts(library) {
    const entries = entriesOf(library);
    const byPair = new Map();
    for (let i = 0; i < entries.length; i++) {
        for (let j = i + 1; j < entries.length; j++) {
            const [a, b] = [entries[i], entries[j]];
            if (a.ref.frameworkId === b.ref.frameworkId)
                continue;
            for (const rule of RULES) {
                const finding = rule(a, b);
                if (!finding)
                    continue;
                const key = pairKey(a.ref, b.ref);
                const known = byPair.get(key);
                if (known && rank(known) <= rank(finding))
                    continue;
                const requirements = [a, b]
                    .map((entry) => ({ ...entry.ref, parameter: entry.parameter.type }))
                    .sort((x, y) => refKey(x).localeCompare(refKey(y)));
                const conflictId = `CC-${createHash('sha256').update(key).digest('hex').slice(0, 10)}`;
                byPair.set(key, { conflictId, ...finding, requirements, source: 'computed' });
            }
        }
    }
    return [...byPair.values()].sort((x, y) => rank(x) - rank(y) || x.conflictId.localeCompare(y.conflictId));
}
/** Curated conflicts first, then computed ones whose requirement pair no curated conflict already covers. */
export function mergeConflicts(curated, computed) {
    const coveredPairs = new Set();
    for (const conflict of curated) {
        const refs = conflict.requirements;
        for (let i = 0; i < refs.length; i++) {
            for (let j = i + 1; j < refs.length; j++)
                coveredPairs.add(pairKey(refs[i], refs[j]));
        }
    }
    const fresh = computed.filter((conflict) => !coveredPairs.has(pairKey(conflict.requirements[0], conflict.requirements[1])));
    return [...curated, ...fresh];
}
const conflictCache = new WeakMap();
/** All conflicts of a library (curated and computed), computed once per library. */
export function libraryConflicts(library) {
    let conflicts = conflictCache.get(library);
    if (!conflicts) {
        conflicts = mergeConflicts(library.curatedConflicts, computeConflicts(library));
        conflictCache.set(library, conflicts);
    }
    return conflicts;
}
//# sourceMappingURL=conflicts.js.map