import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extendLibrary, loadBuiltinLibrary } from '../../src/features/cte/library.js';
import { catalogSlug, importOscalCatalog, OscalImportError } from '../../src/features/cte/oscal-import.js';
import { ISO_42001 } from '../../src/shared/vocabulary.js';

const readJson = (url: URL) => JSON.parse(readFileSync(url, 'utf8'));
const catalog501 = readJson(
  new URL('../fixtures/oscal/NIST_SP-800-53_rev5.0.1_catalog-min.json', import.meta.url),
);
// The resolved HIGH baseline is read from the shared OSCAL examples beside the checkout.
const highBaseline = readJson(
  new URL(
    '../../../shared/oscal/examples/NIST_SP-800-53_rev5_HIGH-baseline-resolved-profile_catalog-min.json',
    import.meta.url,
  ),
);

function minimalCatalog(body: Record<string, unknown>) {
  return {
    catalog: {
      uuid: '7d1f4a5e-2b0c-4c4e-9a55-2f3e5e8a1b01',
      metadata: {
        title: 'Example Catalog: test',
        'last-modified': '2026-01-01T00:00:00Z',
        version: '1.0',
        'oscal-version': '1.2.1',
      },
      ...body,
    },
  };
}

describe('OSCAL catalog import', () => {
  it('imports SP 800-53 rev5.0.1: 322 controls + 867 enhancements − 182 withdrawn', () => {
    const { framework, skippedWithdrawn } = importOscalCatalog(catalog501);
    expect(framework.id).toBe('nist-special-publication-800-53-revision-5');
    expect(framework.kind).toBe('catalog');
    expect(framework.domains).toHaveLength(20);
    expect(skippedWithdrawn).toBe(182);
    expect(framework.requirements).toHaveLength(322 + 867 - 182);
    const ids = framework.requirements.map((requirement) => requirement.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['AC-1', 'AC-2', 'AC-2(1)', 'SI-4']));
    // AC-2(10) "Shared and Group Account Credential Change" is withdrawn in rev5.
    expect(ids).not.toContain('AC-2(10)');
    expect(framework.domains?.find((domain) => domain.id === 'ac')?.title).toBe('Access Control');
    expect(framework.requirements.find((requirement) => requirement.id === 'AC-2(1)')).toMatchObject({
      domain: 'ac',
      title: 'Automated System Account Management',
    });
  });

  it('resolves parameter placeholders in the prose', () => {
    const { framework } = importOscalCatalog(catalog501);
    expect(framework.requirements.every((requirement) => !requirement.description.includes('{{'))).toBe(true);
    const ac1 = framework.requirements.find((requirement) => requirement.id === 'AC-1')!;
    expect(ac1.description).toMatch(
      /^a\. Develop, document, and disseminate to \[Assignment: organization-defined personnel or roles\]/,
    );
    expect(ac1.description).toContain(
      '[Selection (one or more): Organization-level; Mission/business process-level; System-level]',
    );
  });

  it('imports the resolved HIGH baseline: 188 controls and 182 enhancements', () => {
    const { framework, skippedWithdrawn } = importOscalCatalog(highBaseline);
    expect(framework.requirements).toHaveLength(188 + 182);
    expect(skippedWithdrawn).toBe(0);
    expect(framework.domains).toHaveLength(18);
    expect(framework.id).toBe('nist-special-publication-800-53-revision-5-1-1-high-impact-baseline');
    expect(framework.requirements.some((requirement) => requirement.id === 'AC-01')).toBe(false);
  });

  it('is idempotent: the same catalog gives the same framework and replaces itself in a library', () => {
    const first = importOscalCatalog(catalog501).framework;
    const second = importOscalCatalog(catalog501).framework;
    expect(second).toEqual(first);
    const library = loadBuiltinLibrary();
    const once = extendLibrary(library, { frameworks: [first] });
    const twice = extendLibrary(once, { frameworks: [second] });
    expect(twice.frameworks.map((framework) => framework.id)).toEqual(
      once.frameworks.map((framework) => framework.id),
    );
    expect(twice.framework(ISO_42001)).toBeDefined();
  });

  it('turns nested groups into domains and fills values and choices', () => {
    const document = minimalCatalog({
      groups: [
        {
          id: 'outer',
          title: 'Outer',
          groups: [
            {
              id: 'inner',
              title: 'Inner',
              controls: [
                {
                  id: 'x-1',
                  title: 'Retain records',
                  params: [
                    { id: 'x-1_prm_1', values: ['90 days'] },
                    { id: 'x-1_prm_2', select: { choice: ['weekly', 'monthly'] } },
                  ],
                  parts: [
                    {
                      id: 'x-1_smt',
                      name: 'statement',
                      prose:
                        'Keep records for {{ insert: param, x-1_prm_1 }} and review them {{ insert: param, x-1_prm_2 }}.',
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    const { framework } = importOscalCatalog(document);
    expect(framework.id).toBe('example-catalog');
    expect(framework.domains).toEqual([
      { id: 'outer', title: 'Outer' },
      { id: 'inner', title: 'Inner' },
    ]);
    expect(framework.requirements).toEqual([
      {
        id: 'x-1',
        domain: 'inner',
        title: 'Retain records',
        description: 'Keep records for 90 days and review them [Selection (one): weekly; monthly].',
        legal: false,
      },
    ]);
  });

  it('rejects anything but a valid catalog', () => {
    expect(() => importOscalCatalog([])).toThrow(OscalImportError);
    expect(() => importOscalCatalog({ profile: {} })).toThrow(/resolve the profile/);
    expect(() => importOscalCatalog({ catalog: { uuid: 'x' } })).toThrow(/OSCAL catalog schema/);
  });

  it('makes stable slugs', () => {
    expect(catalogSlug('Über Controls: v2')).toBe('uber-controls');
    expect(catalogSlug('???')).toBe('imported-catalog');
  });
});
