import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const vendored = new URL('../../src/platform/oscal/schemas/', import.meta.url);
const shared = new URL('../../../shared/oscal/schemas/', import.meta.url);

describe('vendored OSCAL schemas', () => {
  it.skipIf(!existsSync(shared))('are the NIST 1.2.1 schemas of shared/oscal, unchanged in content', () => {
    const files = readdirSync(vendored).filter((file) => file.endsWith('.json'));
    expect(files).toHaveLength(6);
    for (const file of files) {
      const ours = JSON.parse(readFileSync(new URL(file, vendored), 'utf8'));
      expect(ours, file).toEqual(JSON.parse(readFileSync(new URL(file, shared), 'utf8')));
      expect(ours.$id).toContain('/1.2.1/');
    }
  });
});
