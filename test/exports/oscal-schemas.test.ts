import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const vendored = new URL('../../src/platform/oscal/schemas/', import.meta.url);
const shared = new URL('../../../shared/oscal/schemas/', import.meta.url);

/**
 * SHA-256 of each vendored schema's JSON, parsed and written back without spacing: NIST's OSCAL 1.2.1
 * schemas as published, checked whatever copy of NIST's files is at hand.
 */
const NIST_1_2_1: Record<string, string> = {
  'oscal_assessment-plan_schema.json': '14ff63e1ac6bb2658b3e2985682b79ed110218b84a5dd39b60da3171b36cd18d',
  'oscal_assessment-results_schema.json': '08a04218b12c9d753baa4ee12b103b98912e5a4c1067e94645f508449ac04333',
  'oscal_catalog_schema.json': '24f771c22413142f233e294440f334e4a8a92ca423bad13edb6ca3225f6391bc',
  'oscal_mapping_schema.json': '0e1c1ff2936b29a6afaca1d3c88fb85e0dba9040cdf5c6c03229f981c5dedf09',
  'oscal_profile_schema.json': '28319e039ee21607e97ceea3d9103e2c0e83053f9279e05c664a322660835519',
  'oscal_ssp_schema.json': '15a8203c73ba18672d84dff5999a9ccb83eb42e0c39d94fcb0f2e8dd4c3e6c2d',
};

const readSchema = (dir: URL, file: string) => JSON.parse(readFileSync(new URL(file, dir), 'utf8'));

describe('vendored OSCAL schemas', () => {
  it('are the NIST 1.2.1 schemas, unchanged in content', () => {
    const files = readdirSync(vendored).filter((file) => file.endsWith('.json'));
    expect(files.sort()).toEqual(Object.keys(NIST_1_2_1).sort());
    for (const file of files) {
      const schema = readSchema(vendored, file);
      expect(schema.$id, file).toContain('/1.2.1/');
      const digest = createHash('sha256').update(JSON.stringify(schema)).digest('hex');
      expect(digest, file).toBe(NIST_1_2_1[file]);
    }
  });

  // Where NIST's files are also at hand beside the checkout, the two copies agree as well.
  it.runIf(existsSync(shared))('match the copies of shared/oscal', () => {
    for (const file of Object.keys(NIST_1_2_1)) {
      expect(readSchema(vendored, file), file).toEqual(readSchema(shared, file));
    }
  });
});
