/**
 * Values as an officer reads them: ISO 8601 durations (`P6M`, `PT72H`) and the crosswalk's parameters
 * (`retentionMin` = `P6M` of `logs`) in words ("retention minimum: at least 6 months (logs)").
 */

const DURATION =
  /\bP(?=\d|T\d)(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?\b/g;
const UNITS = ['year', 'month', 'week', 'day', 'hour', 'minute', 'second'];

function wordsOf(parts: (string | undefined)[]): string {
  const named = parts.flatMap((part, i) =>
    part === undefined || Number(part) === 0 ? [] : [`${part} ${UNITS[i]}${Number(part) === 1 ? '' : 's'}`],
  );
  if (named.length === 0) return 'no time';
  return named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
}

/** `P6M` → "6 months", `PT72H` → "72 hours", `P1Y6M` → "1 year and 6 months"; other text as it is. */
export function durationWords(value: string): string {
  const match = new RegExp(`^${DURATION.source}$`).exec(value.trim());
  return match ? wordsOf(match.slice(1)) : value;
}

/**
 * A text with every ISO 8601 duration said in words; a duration in parentheses right after the same words
 * ("10 years (P10Y)") is dropped.
 */
export function durationsInWords(text: string): string {
  return text
    .replace(/ \((P[0-9.YMWDTHS]+)\)/g, (whole, token: string, offset: number, all: string) => {
      const words = durationWords(token);
      if (words === token) return whole;
      return all.slice(0, offset).endsWith(words) ? '' : ` (${words})`;
    })
    .replace(DURATION, (token) => durationWords(token));
}

/** What each kind of parameter sets, in words. */
const PARAMETER_NAMES: Record<string, string> = {
  retentionMin: 'retention minimum',
  retentionMax: 'retention maximum',
  retentionPeriod: 'retention period',
  notificationDeadline: 'notification deadline',
  responseDeadline: 'response deadline',
  authorisationDeadline: 'authorisation deadline',
  durationMin: 'minimum duration',
  durationMax: 'maximum duration',
  validityMax: 'maximum validity',
  reportingFrequency: 'reporting frequency',
  reviewFrequency: 'review frequency',
  tacitApprovalPeriod: 'tacit approval period',
  thresholdDuration: 'threshold duration',
  fineCap: 'maximum fine',
  ageThreshold: 'age threshold',
  minimumCount: 'minimum count',
  headcountThreshold: 'headcount threshold',
  computeThreshold: 'compute threshold',
  applicationDate: 'applies from',
  dataCategoryRule: 'data category rule',
  deletionTrigger: 'deletion',
  preservationRule: 'preservation rule',
};

/** `retentionMin` → "retention minimum"; an unknown kind split at its capitals. */
export const parameterName = (type: string) =>
  PARAMETER_NAMES[type] ?? type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** How a duration reads for each kind: a floor, a ceiling, a deadline, a cycle. */
const DURATION_FORMS: Record<string, (words: string) => string> = {
  retentionMin: (d) => `at least ${d}`,
  retentionMax: (d) => `at most ${d}`,
  durationMin: (d) => `at least ${d}`,
  durationMax: (d) => `at most ${d}`,
  validityMax: (d) => `at most ${d}`,
  notificationDeadline: (d) => `within ${d}`,
  responseDeadline: (d) => `within ${d}`,
  authorisationDeadline: (d) => `within ${d}`,
  reportingFrequency: (d) => `every ${d}`,
  reviewFrequency: (d) => `every ${d}`,
  tacitApprovalPeriod: (d) => `approved after ${d} without objection`,
  thresholdDuration: (d) => `${d} or more`,
};

/** 1e25 → "10^25", 35000000 → "35,000,000". */
function numberWords(value: number): string {
  if (Math.abs(value) >= 1e12) {
    const [mantissa, exponent] = value.toExponential().split('e');
    const power = `10^${Number(exponent)}`;
    return mantissa === '1' ? power : `${mantissa} × ${power}`;
  }
  return value.toLocaleString('en');
}

export interface ParameterValue {
  type: string;
  value: string | number | null;
  subject?: string;
  unit?: string;
  qualitative?: string;
  note?: string;
}

/** A parameter's value in words: "at least 6 months", "within 72 hours", "EUR 35,000,000", or its wording. */
export function parameterValueWords(parameter: ParameterValue): string {
  const { type, value, unit, qualitative, note } = parameter;
  if (typeof value === 'string' && durationWords(value) !== value) {
    const words = durationWords(value);
    return (DURATION_FORMS[type] ?? ((d: string) => d))(words);
  }
  if (typeof value === 'number') {
    const amount = numberWords(value);
    if (type === 'fineCap') return `up to ${unit ? `${unit} ` : ''}${amount}`;
    if (type === 'ageThreshold') return `${amount} years of age`;
    if (type === 'minimumCount') return `at least ${amount}${unit ? ` ${unit}` : ''}`;
    if (type === 'computeThreshold') return `more than ${amount}${unit ? ` ${unit}` : ''}`;
    return `${amount}${unit ? ` ${unit}` : ''}`;
  }
  if (typeof value === 'string') return type === 'applicationDate' ? `from ${value}` : value;
  if (qualitative) return durationsInWords(qualitative);
  // No value and no wording: the note says what the rule is, after the article it cites.
  const rule = note?.split('; ').slice(1).join('; ');
  return rule ? durationsInWords(rule) : 'no fixed value';
}

/** "retention minimum: at least 6 months (logs)". */
export function parameterWords(parameter: ParameterValue): string {
  const subject = parameter.subject ? ` (${parameter.subject.replace(/-/g, ' ')})` : '';
  return `${parameterName(parameter.type)}: ${parameterValueWords(parameter)}${subject}`;
}
