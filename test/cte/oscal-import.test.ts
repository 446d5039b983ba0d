import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extendLibrary, loadBuiltinLibrary } from '../../src/features/cte/library.js';
import { catalogSlug, importOscalCatalog, OscalImportError } from '../../src/features/cte/oscal-import.js';
import { ISO_42001 } from '../../src/shared/vocabulary.js';

const readJson = (url: URL) => JSON.parse(readFileSync(url, 'utf8'));
const catalog501 = readJson(
  new URL('../fixtures/oscal/NIST_SP-800-53_rev5.0.1_catalog-min.json', import.meta.url),
);
// NIST's resolved HIGH baseline (public domain), shipped with the tests.
const highBaseline = readJson(
  new URL(
    '../fixtures/oscal/NIST_SP-800-53_rev5_HIGH-baseline-resolved-profile_catalog-min.json',
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

  /** A catalog whose one control states `prose` and carries `params`. */
  function catalogWithParams(params: Record<string, unknown>[], prose: string) {
    return minimalCatalog({
      controls: [
        { id: 'c-1', title: 'Control', params, parts: [{ id: 'c-1_smt', name: 'statement', prose }] },
      ],
    });
  }
  const inserts = (id: string, times: number) => Array(times).fill(`{{ insert: param, ${id} }}`).join(' ');

  it('refuses a parameter that inserts itself, naming it', () => {
    const document = catalogWithParams([{ id: 'p1', values: [inserts('p1', 12)] }], inserts('p1', 1));
    expect(JSON.stringify(document).length).toBeLessThan(1000);
    expect(() => importOscalCatalog(document)).toThrow(/The parameter p1 inserts itself/);
  });

  it('refuses a cycle through several parameters, in labels and choices too', () => {
    const document = catalogWithParams(
      [
        { id: 'a', label: `see ${inserts('b', 1)}` },
        { id: 'b', select: { choice: [`x ${inserts('c', 1)}`] } },
        { id: 'c', values: [inserts('a', 1)] },
      ],
      inserts('a', 1),
    );
    expect(() => importOscalCatalog(document)).toThrow(/The parameter a inserts itself \(a → b → c → a\)/);
  });

  it('refuses parameters that expand without a cycle beyond a multiple of the catalog', () => {
    // Each level inserts the next twelve times: 12^5 copies of the last value.
    const chain = ['q1', 'q2', 'q3', 'q4', 'q5'].map((id, index, ids) => ({
      id,
      values: [index + 1 < ids.length ? inserts(ids[index + 1], 12) : 'x'.repeat(100)],
    }));
    const started = performance.now();
    expect(() => importOscalCatalog(catalogWithParams(chain, inserts('q1', 1)))).toThrow(
      /parameter q\d+ expands to more than/,
    );
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('still inserts one parameter into another', () => {
    const document = catalogWithParams(
      [
        { id: 'who', values: ['the security officer'] },
        { id: 'how', label: `a report to ${inserts('who', 1)}` },
      ],
      `Send ${inserts('how', 1)} ${inserts('how', 1)}.`,
    );
    expect(importOscalCatalog(document).framework.requirements[0].description).toBe(
      'Send [Assignment: a report to the security officer] [Assignment: a report to the security officer].',
    );
  });

  it('makes stable slugs', () => {
    expect(catalogSlug('Über Controls: v2')).toBe('uber-controls');
    expect(catalogSlug('???')).toBe('imported-catalog');
  });
});
