import { describe, expect, it } from 'vitest';
import {
  durationsInWords,
  durationWords,
  parameterValueWords,
  parameterWords,
} from '../../console/src/words.js';
import { libraryConflicts } from '../../src/features/cte/conflicts.js';
import { humanDuration, isDuration } from '../../src/features/cte/durations.js';
import { loadBuiltinLibrary } from '../../src/features/cte/library.js';

/** The console's words for durations and parameters, on the shipped library's own values and conflicts. */

const ISO_DURATION = /\bP(?:\d+[YMWD])+(?:T\d+[HMS])*\b|\bPT\d+[HMS]\b/;
const library = loadBuiltinLibrary();
const parameters = library.frameworks.flatMap((framework) =>
  framework.requirements.flatMap((requirement) => requirement.parameters ?? []),
);

describe('durations and parameters in words', () => {
  it('says a duration as the daemon does', () => {
    const durations = [...new Set(parameters.map((p) => p.value).filter(isDuration))];
    expect(durations.length).toBeGreaterThan(5);
    for (const duration of durations) {
      // One unit each in the library: the same words as the daemon's conflict texts use.
      expect(durationWords(duration)).toBe(humanDuration(duration));
    }
    expect(durationWords('P1Y6M')).toBe('1 year and 6 months');
    expect(durationWords('no duration')).toBe('no duration');
  });

  it('says every parameter of the library without ISO 8601 notation or a missing value', () => {
    expect(parameters.length).toBeGreaterThan(20);
    for (const parameter of parameters) {
      const words = parameterWords(parameter);
      expect(words, JSON.stringify(parameter)).not.toMatch(ISO_DURATION);
      expect(words).not.toMatch(/\b(?:null|undefined|NaN)\b/);
    }
    expect(parameterValueWords({ type: 'retentionMin', value: 'P6M' })).toBe('at least 6 months');
    expect(parameterValueWords({ type: 'notificationDeadline', value: 'PT72H' })).toBe('within 72 hours');
    expect(parameterValueWords({ type: 'fineCap', value: 35_000_000, unit: 'EUR' })).toBe(
      'up to EUR 35,000,000',
    );
    expect(parameterValueWords({ type: 'computeThreshold', value: 1e25, unit: 'FLOP' })).toBe(
      'more than 10^25 FLOP',
    );
  });

  it("rewrites every conflict's description and resolution without ISO 8601 durations", () => {
    const conflicts = libraryConflicts(library);
    const texts = conflicts.flatMap((c) => [c.description, c.resolution]);
    // The library's texts do carry some (the console is where they become words).
    expect(texts.some((text) => ISO_DURATION.test(text))).toBe(true);
    for (const text of texts) expect(durationsInWords(text)).not.toMatch(ISO_DURATION);
    // A duration already said in words is not said twice.
    expect(durationsInWords('in any case within 15 days (P15D): that satisfies both')).toBe(
      'in any case within 15 days: that satisfies both',
    );
    expect(durationsInWords('the earliest deadline (P2D before PT72H)')).toBe(
      'the earliest deadline (2 days before 72 hours)',
    );
  });
});
