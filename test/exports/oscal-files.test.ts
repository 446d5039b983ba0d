import { describe, expect, it } from 'vitest';
import {
  buildOscalPackage,
  type OscalDocuments,
  OscalValidationError,
  writeOscalFiles,
} from '../../src/features/exports/oscal/index.js';
import { evidenceSpread, exportData } from './export-data.factory.js';

async function rejection(promise: Promise<unknown>): Promise<OscalValidationError> {
  const error = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(OscalValidationError);
  return error as OscalValidationError;
}

describe('writeOscalFiles', () => {
  it.each([
    ['no evidence', 0],
    ['one evidence item', 1],
    ['a few items per control', -1],
    ['elements across batches and pauses', 5_321],
  ])('writes exactly the text of the built package (%s)', async (_label, count) => {
    const data = exportData(count < 0 ? {} : { evidenceFor: evidenceSpread(count) });
    const documents = buildOscalPackage(data)['oscal-package'].documents;
    let pauses = 0;
    const files = await writeOscalFiles(data, {
      pause: async () => {
        pauses += 1;
      },
    });
    expect(files.map((file) => file.name)).toEqual(Object.keys(documents));
    for (const file of files) {
      const text = file.content.toString('utf8');
      expect(text === JSON.stringify(documents[file.name as keyof OscalDocuments]), file.name).toBe(true);
    }
    expect(pauses).toBeGreaterThanOrEqual(count > 5_000 ? 7 : 5);
  });

  it('refuses an element that breaks the schema, wherever it stands in its array', async () => {
    const data = exportData({ evidenceFor: evidenceSpread(200) });
    const [first, second] = data.controls.flatMap((control) => control.evidence);
    // The schema's date-time pattern admits the years 1900 to 2999 only.
    second.createdAt = '1850-01-01T00:00:00.000Z';
    const late = await rejection(writeOscalFiles(data));
    expect(late.problems).toEqual([
      'assessment-results.json /assessment-results/results/0/observations/1/collected: must match pattern "^(((2000|2400|2800|(19|2[0-9](0[48]|[2468][048]|[13579][26])))-02-29)|(((19|2[0-9])[0-9]{2})-02-(0[1-9]|1[0-9]|2[0-8]))|(((19|2[0-9])[0-9]{2})-(0[13578]|10|12)-(0[1-9]|[12][0-9]|3[01]))|(((19|2[0-9])[0-9]{2})-(0[469]|11)-(0[1-9]|[12][0-9]|30)))T(2[0-3]|[01][0-9]):([0-5][0-9]):([0-5][0-9])(\\.[0-9]+)?(Z|(-((0[0-9]|1[0-2]):00|0[39]:30)|\\+((0[0-9]|1[0-4]):00|(0[34569]|10):30|(0[58]|12):45)))$"',
    ]);
    second.createdAt = first.createdAt;
    first.createdAt = '1850-01-01T00:00:00.000Z';
    const early = await rejection(writeOscalFiles(data));
    expect(early.message).toContain(
      'assessment-results.json /assessment-results/results/0/observations/0/collected',
    );
  });

  it('keeps a bounded list when every element is wrong, and counts the rest', async () => {
    const data = exportData({ evidenceFor: evidenceSpread(1_500) });
    for (const control of data.controls) {
      for (const item of control.evidence) item.createdAt = '1850-01-01T00:00:00.000Z';
    }
    const error = await rejection(writeOscalFiles(data));
    expect(error.problems).toHaveLength(1_000);
    expect(error.total).toBe(1_500);
    expect(error.message).toMatch(/^The OSCAL export is invalid \(1500 problem\(s\)\): .*; and 1490 more$/);
  });
});
