import { describe, expect, it } from 'vitest';
import { createLibrary, loadBuiltinLibrary } from '../../src/features/cte/library.js';
import { exportMappingCollection, mappingCollectionErrors } from '../../src/features/cte/mapping-export.js';
import { edge, framework, requirement, smallLibrary } from './hand-built.js';

const at = new Date('2026-11-22T00:00:00Z');

describe('OSCAL mapping-collection export', () => {
  it('is valid against the OSCAL 1.2.1 mapping schema for the built-in crosswalk', () => {
    const library = loadBuiltinLibrary();
    const document = exportMappingCollection(library, { lastModified: at });
    expect(mappingCollectionErrors(document)).toEqual([]);
    const maps = document['mapping-collection'].mappings.flatMap((mapping) => mapping.maps);
    expect(maps).toHaveLength(library.edges.length);
  });

  it('writes IR 8477 relationships, one mapping per framework pair, with resolvable resources', () => {
    const library = createLibrary({
      frameworks: smallLibrary().frameworks,
      edges: [
        edge('law:L1', 'subset', 'iso-42001:A.1'),
        edge('iso-42001:A.2', 'equal', 'law:L2', { confidence: 'high', rationale: 'Same duty.' }),
        edge('law:L3', 'intersect', 'iso-42001:A.3', { inferred: true }),
        edge('guide:G1', 'superset', 'law:L1'),
      ],
    });
    const collection = exportMappingCollection(library, { lastModified: at })['mapping-collection'];
    expect(mappingCollectionErrors({ 'mapping-collection': collection })).toEqual([]);
    expect(collection.mappings).toHaveLength(3);
    const all = collection.mappings.flatMap((mapping) => mapping.maps);
    expect(all.map((map) => map.relationship)).toEqual([
      'subset-of',
      'intersects-with',
      'equal-to',
      'superset-of',
    ]);
    const equal = all.find((map) => map.relationship === 'equal-to')!;
    expect(equal).toMatchObject({
      sources: [{ type: 'control', 'id-ref': 'A.2' }],
      targets: [{ type: 'control', 'id-ref': 'L2' }],
      'confidence-score': { category: 'high' },
      remarks: 'Same duty.',
    });
    const resources = new Set(collection['back-matter']?.resources.map((resource) => `#${resource.uuid}`));
    for (const mapping of collection.mappings) {
      expect(resources.has(mapping['source-resource'].href)).toBe(true);
      expect(resources.has(mapping['target-resource'].href)).toBe(true);
    }
    expect(all.find((map) => map.relationship === 'intersects-with')?.props).toContainEqual(
      expect.objectContaining({ name: 'inferred', value: 'true' }),
    );
  });

  it('keeps map UUIDs stable across exports and changes the collection UUID with the content', () => {
    const library = smallLibrary();
    const first = exportMappingCollection(library, { lastModified: at })['mapping-collection'];
    const again = exportMappingCollection(library, { lastModified: at })['mapping-collection'];
    expect(again).toEqual(first);
    const changed = createLibrary({
      frameworks: library.frameworks,
      edges: [...library.edges, edge('guide:G2', 'equal', 'iso-42001:A.3')],
    });
    const next = exportMappingCollection(changed, { lastModified: at })['mapping-collection'];
    expect(next.uuid).not.toBe(first.uuid);
    const uuidsOf = (collection: typeof first) =>
      collection.mappings.flatMap((mapping) => mapping.maps.map((map) => map.uuid));
    expect(uuidsOf(next)).toEqual(expect.arrayContaining(uuidsOf(first)));
  });

  it('reports what makes a document invalid', () => {
    const document = exportMappingCollection(smallLibrary(), { lastModified: at });
    const broken = structuredClone(document);
    (broken['mapping-collection'].mappings[0].maps[0] as { relationship: string }).relationship =
      'has spaces';
    expect(mappingCollectionErrors(broken).length).toBeGreaterThan(0);
    expect(mappingCollectionErrors({ 'mapping-collection': {} }).length).toBeGreaterThan(0);
  });

  it('refuses an empty crosswalk, which OSCAL cannot express', () => {
    const empty = createLibrary({ frameworks: [framework('x', [requirement('R', 'Only')])] });
    expect(() => exportMappingCollection(empty)).toThrow(/no crosswalk edge/);
  });
});
