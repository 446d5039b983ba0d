/** Reading typed requirement parameters: the duty they state, in words, and their free-text parts. */
import { humanDuration, isDuration } from './durations.js';
/** `personal-data-breach` → "personal data breach", `ai-office` → "AI office". */
export function tagWords(tag) {
    return (tag ?? '').replace(/-/g, ' ').replace(/\bai\b/g, 'AI');
}
function amount(parameter) {
    const { value } = parameter;
    if (typeof value === 'string')
        return isDuration(value) ? humanDuration(value) : value;
    if (typeof value === 'number')
        return `${value}${parameter.unit ? ` ${parameter.unit}` : ''}`;
    return undefined;
}
function within(parameter) {
    const value = amount(parameter);
    return value ? `within ${value}` : (parameter.qualitative ?? 'without undue delay');
}
/**
 * The duty a parameter states, as a short imperative phrase ("keep logs for at least 6 months"), or
 * undefined for parameters that are not duties (fine caps, thresholds, application dates).
 */
export function describeDuty(parameter) {
    const subject = tagWords(parameter.subject) || 'the records';
    const value = amount(parameter);
    const event = parameter.event ? ` after a ${tagWords(parameter.event)}` : '';
    const recipient = parameter.recipient ? ` the ${tagWords(parameter.recipient)}` : '';
    switch (parameter.type) {
        case 'retentionMin':
            return `keep ${subject} for at least ${value ?? parameter.qualitative ?? 'the required period'}`;
        case 'retentionPeriod':
            return `keep ${subject} for ${value ?? parameter.qualitative ?? 'the required period'}`;
        case 'retentionMax':
            return `keep ${subject} ${value ? `no longer than ${value}` : (parameter.qualitative ?? 'no longer than necessary')}`;
        case 'notificationDeadline':
            return `notify${recipient || ' the recipient'} ${within(parameter)}${event}`;
        case 'responseDeadline':
            return `respond${event ? ` to ${tagWords(parameter.event)}` : ''} ${within(parameter)}`;
        case 'authorisationDeadline':
            return `obtain authorisation ${within(parameter)}${event}`;
        case 'reportingFrequency':
            return `report${recipient ? ` to${recipient}` : ''} every ${value ?? parameter.qualitative ?? 'period'}`;
        case 'reviewFrequency':
            return `review ${subject} every ${value ?? parameter.qualitative ?? 'period'}`;
        case 'durationMax':
            return `limit ${subject} to at most ${value ?? parameter.qualitative ?? 'the allowed period'}`;
        case 'durationMin':
            return `allow ${subject} at least ${value ?? parameter.qualitative ?? 'the required period'}`;
        case 'validityMax':
            return `renew ${subject} at least every ${value ?? parameter.qualitative ?? 'period'}`;
        case 'timing':
            return parameter.qualitative ? `act ${parameter.qualitative}` : undefined;
        case 'dataCategoryRule':
            return `${subject}: ${parameterText(parameter) || 'follow the data-category rule'}`;
        default:
            return undefined;
    }
}
/**
 * All free text a parameter carries: a string value that is not a duration, `qualitative`, `note`, and
 * string fields beyond the typed ones (such as a catalog's `rule`).
 */
export function parameterText(parameter) {
    const parts = [];
    if (typeof parameter.value === 'string' && !isDuration(parameter.value))
        parts.push(parameter.value);
    for (const [key, value] of Object.entries(parameter)) {
        if (key === 'value' || key === 'type' || key === 'subject' || key === 'event' || key === 'recipient')
            continue;
        if (typeof value === 'string')
            parts.push(value);
    }
    return parts.join('; ');
}
//# sourceMappingURL=parameters.js.map