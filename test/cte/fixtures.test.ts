import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  parameterEvents,
  parameterRecipients,
  parameterSubjects,
} from '../../fixtures/build/parameter-tags.js';
import { readReference } from '../../fixtures/build/reference.js';
import { topicVocabulary } from '../../fixtures/build/topics.js';
import type { Conflict, CrosswalkEdge, Framework, RequirementRef } from '../../src/cte/framework.types.js';

const fixturesDir = new URL('../../fixtures/', import.meta.url);

function readFixture<T>(path: string): T {
  return JSON.parse(readFileSync(new URL(path, fixturesDir), 'utf8')) as T;
}

const expected = [
  { id: 'iso-42001', requirements: 38, domains: 9, legal: false, kind: 'standard' },
  { id: 'nist-ai-rmf', requirements: 72, domains: 19, legal: false, kind: 'guidance' },
  { id: 'eu-ai-act', requirements: 60, domains: 0, legal: true, kind: 'regulation' },
  { id: 'iso-27001', requirements: 93, domains: 4, legal: false, kind: 'standard' },
  { id: 'gdpr', requirements: 36, domains: 0, legal: true, kind: 'regulation' },
] as const;

const frameworks = new Map(expected.map(({ id }) => [id, readFixture<Framework>(`frameworks/${id}.json`)]));
const { edges } = readFixture<{ edges: CrosswalkEdge[] }>('crosswalk.json');
const { conflicts } = readFixture<{ conflicts: Conflict[] }>('conflicts.json');

function findRequirement(ref: RequirementRef) {
  return frameworks
    .get(ref.frameworkId as (typeof expected)[number]['id'])
    ?.requirements.find((r) => r.id === ref.requirementId);
}

/** Reference paraphrases by framework and requirement id; our descriptions must not copy them. */
function referenceParaphrases(): Map<string, string> {
  const paraphrases = new Map<string, string>();
  for (const control of readReference<{ controls: { id: string; paraphrase: string }[] }>('iso42001.json')
    .controls) {
    paraphrases.set(`iso-42001 ${control.id}`, control.paraphrase);
  }
  for (const entry of readReference<{ obligations: { id: string; paraphrase: string }[] }>('eu-ai-act.json')
    .obligations) {
    paraphrases.set(`eu-ai-act ${entry.id}`, entry.paraphrase);
  }
  for (const entry of readReference<{ articles: { id: string; paraphrase: string }[] }>('gdpr.json')
    .articles) {
    paraphrases.set(`gdpr ${entry.id}`, entry.paraphrase);
  }
  return paraphrases;
}

describe('framework fixtures', () => {
  it.each(expected)(
    '$id has $requirements requirements, $domains domains, kind $kind and legal=$legal',
    (spec) => {
      const framework = frameworks.get(spec.id)!;
      expect(framework.id).toBe(spec.id);
      expect(framework.kind).toBe(spec.kind);
      expect(framework.requirements).toHaveLength(spec.requirements);
      expect(framework.domains?.length ?? 0).toBe(spec.domains);
      expect(framework.requirements.every((r) => r.legal === spec.legal)).toBe(true);
    },
  );

  it.each(expected)('$id ids are unique and every domain reference exists', ({ id }) => {
    const framework = frameworks.get(id)!;
    const ids = framework.requirements.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const domainIds = new Set(framework.domains?.map((d) => d.id) ?? []);
    for (const requirement of framework.requirements) {
      if (domainIds.size === 0) expect(requirement.domain).toBeUndefined();
      else expect(domainIds.has(requirement.domain ?? '')).toBe(true);
    }
  });

  it('uses the official id formats', () => {
    const patterns: Record<string, RegExp> = {
      'iso-42001': /^A\.(?:[2-9]|10)\.\d+(?:\.\d+)?$/,
      'nist-ai-rmf': /^(?:GOVERN|MAP|MEASURE|MANAGE) \d+\.\d+$/,
      'eu-ai-act': /^Art\. \d+(?:\(\w+\))*(?:-\(\w+\))?$/,
      'iso-27001': /^A\.[5-8]\.\d+$/,
      gdpr: /^Art\. \d+(?:\(\w+\))*$/,
    };
    for (const [id, framework] of frameworks) {
      for (const requirement of framework.requirements) expect(requirement.id).toMatch(patterns[id]);
    }
    const iso27001Ids = frameworks.get('iso-27001')!.requirements.map((r) => r.id);
    expect(iso27001Ids[0]).toBe('A.5.1');
    expect(iso27001Ids.at(-1)).toBe('A.8.34');
  });

  it('has non-empty titles and descriptions that do not copy the reference paraphrases', () => {
    const paraphrases = referenceParaphrases();
    expect(paraphrases.size).toBe(38 + 60 + 36);
    for (const [id, framework] of frameworks) {
      for (const requirement of framework.requirements) {
        expect(requirement.title.trim(), `${id} ${requirement.id}`).not.toBe('');
        expect(requirement.description.trim().length, `${id} ${requirement.id}`).toBeGreaterThan(20);
        expect(requirement.description, `${id} ${requirement.id}`).not.toBe(
          paraphrases.get(`${id} ${requirement.id}`),
        );
      }
    }
  });

  it('tags every requirement with topics from the shared vocabulary', () => {
    const vocabulary = new Set<string>(topicVocabulary);
    for (const [id, framework] of frameworks) {
      for (const requirement of framework.requirements) {
        expect(requirement.topics?.length, `${id} ${requirement.id}`).toBeGreaterThan(0);
        for (const topic of requirement.topics ?? [])
          expect(vocabulary.has(topic), `${id} ${requirement.id}: ${topic}`).toBe(true);
      }
    }
  });

  it('normalises every legal parameter with a known subject, event and recipient and ISO 8601 durations', () => {
    const subjects = new Set<string>(parameterSubjects);
    const events = new Set<string>(parameterEvents);
    const recipients = new Set<string>(parameterRecipients);
    const duration = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/;
    const durationTypes = new Set([
      'retentionMin',
      'retentionPeriod',
      'notificationDeadline',
      'authorisationDeadline',
      'responseDeadline',
      'validityMax',
      'durationMax',
      'durationMin',
      'tacitApprovalPeriod',
      'reportingFrequency',
      'reviewFrequency',
      'thresholdDuration',
    ]);
    for (const id of ['eu-ai-act', 'gdpr'] as const) {
      for (const requirement of frameworks.get(id)!.requirements) {
        for (const parameter of requirement.parameters ?? []) {
          const where = `${id} ${requirement.id} ${parameter.type}`;
          expect(subjects.has(parameter.subject ?? ''), where).toBe(true);
          if (parameter.event !== undefined) expect(events.has(parameter.event), where).toBe(true);
          if (parameter.recipient !== undefined)
            expect(recipients.has(parameter.recipient), where).toBe(true);
          if (durationTypes.has(parameter.type) && parameter.value !== null)
            expect(String(parameter.value), where).toMatch(duration);
          if (parameter.value === null) expect(parameter.qualitative ?? parameter.note, where).toBeTruthy();
        }
      }
    }
  });

  it('makes log retention and incident deadlines comparable across the AI Act and the GDPR', () => {
    const parameter = (frameworkId: string, requirementId: string, type: string) =>
      findRequirement({ frameworkId, requirementId })?.parameters?.find((p) => p.type === type);
    expect(parameter('eu-ai-act', 'Art. 19', 'retentionMin')).toMatchObject({
      value: 'P6M',
      subject: 'logs',
    });
    expect(parameter('eu-ai-act', 'Art. 26(6)', 'retentionMin')).toMatchObject({
      value: 'P6M',
      subject: 'logs',
    });
    expect(parameter('gdpr', 'Art. 5(1)(e)', 'retentionMax')).toMatchObject({
      value: null,
      subject: 'personal-data',
    });
    expect(parameter('gdpr', 'Art. 33', 'notificationDeadline')).toMatchObject({
      value: 'PT72H',
      event: 'personal-data-breach',
    });
    expect(parameter('eu-ai-act', 'Art. 73(2)', 'notificationDeadline')).toMatchObject({
      value: 'P15D',
      event: 'serious-incident',
    });
    expect(parameter('eu-ai-act', 'Art. 73(3)', 'notificationDeadline')).toMatchObject({ value: 'P2D' });
    expect(parameter('eu-ai-act', 'Art. 73(4)', 'notificationDeadline')).toMatchObject({ value: 'P10D' });
  });

  it('copies the reference parameters of every legal requirement, value for value', () => {
    const sources = [
      [
        'eu-ai-act',
        readReference<{ obligations: { id: string; parameters: { type: string; value: unknown }[] }[] }>(
          'eu-ai-act.json',
        ).obligations,
      ],
      [
        'gdpr',
        readReference<{ articles: { id: string; parameters?: { type: string; value: unknown }[] }[] }>(
          'gdpr.json',
        ).articles,
      ],
    ] as const;
    for (const [frameworkId, entries] of sources) {
      for (const entry of entries) {
        const ours = findRequirement({ frameworkId, requirementId: entry.id })?.parameters ?? [];
        expect(
          ours.map((p) => [p.type, p.value]),
          `${frameworkId} ${entry.id}`,
        ).toEqual((entry.parameters ?? []).map((p) => [p.type, p.value]));
      }
    }
  });
});

describe('ISO/IEC 42001 control library fixture', () => {
  const library = readFixture<{
    standard: string;
    domains: { id: string; title: string }[];
    controls: { controlId: string; domain: string; title: string; description: string }[];
  }>('iso42001-controls.json');
  const reference = readReference<{
    domains: { id: string; title: string }[];
    controls: { id: string; domain: string; title: string }[];
  }>('iso42001.json');

  it('lists the 38 Annex A controls in 9 domains with the reference ids and titles', () => {
    expect(library.standard).toBe('ISO/IEC 42001:2023');
    expect(library.domains).toEqual(reference.domains.map(({ id, title }) => ({ id, title })));
    expect(
      library.controls.map(({ controlId, domain, title }) => ({ id: controlId, domain, title })),
    ).toEqual(reference.controls.map(({ id, domain, title }) => ({ id, domain, title })));
    expect(library.controls).toHaveLength(38);
  });

  it('shares its descriptions with the iso-42001 framework fixture', () => {
    const framework = frameworks.get('iso-42001')!;
    expect(library.controls.map((c) => [c.controlId, c.description])).toEqual(
      framework.requirements.map((r) => [r.id, r.description]),
    );
  });
});

describe('framework fixtures against the reference', () => {
  it('NIST AI RMF: the 72 subcategories in order, in their 19 categories, with the official text', () => {
    const reference = readReference<{
      categories: { id: string; text: string }[];
      subcategories: { id: string; category: string; text: string }[];
    }>('nist-ai-rmf.json');
    const framework = frameworks.get('nist-ai-rmf')!;
    expect(framework.domains?.map(({ id, title }) => ({ id, title }))).toEqual(
      reference.categories.map(({ id, text }) => ({ id, title: text })),
    );
    expect(framework.domains).toHaveLength(19);
    // The AI RMF gives subcategories no titles: their official text is the description.
    expect(
      framework.requirements.map(({ id, domain, description }) => ({ id, domain, description })),
    ).toEqual(
      reference.subcategories.map(({ id, category, text }) => ({ id, domain: category, description: text })),
    );
    expect(framework.requirements).toHaveLength(72);
  });

  it('NIST AI RMF: the 4 functions with their names, each category under its function', () => {
    const reference = readReference<{
      functions: { id: string; name: string; categoryCount: number; subcategoryCount: number }[];
      categories: { id: string; function: string }[];
    }>('nist-ai-rmf.json');
    const framework = frameworks.get('nist-ai-rmf')!;
    expect(framework.functions).toEqual(reference.functions.map(({ id, name }) => ({ id, title: name })));
    expect(framework.functions?.map((fn) => fn.id)).toEqual(['GOVERN', 'MAP', 'MEASURE', 'MANAGE']);
    expect(framework.domains?.map((domain) => domain.function)).toEqual(
      reference.categories.map((category) => category.function),
    );
    const domainsOf = (fn: string) => framework.domains!.filter((domain) => domain.function === fn);
    const sizes = framework.functions!.map((fn) => [
      domainsOf(fn.id).length,
      framework.requirements.filter((r) => domainsOf(fn.id).some((domain) => domain.id === r.domain)).length,
    ]);
    expect(sizes).toEqual(reference.functions.map((fn) => [fn.categoryCount, fn.subcategoryCount]));
    expect(sizes).toEqual([
      [6, 19],
      [5, 18],
      [4, 22],
      [4, 13],
    ]);
  });

  it('gives functions to no other framework', () => {
    for (const [id, framework] of frameworks) {
      if (id === 'nist-ai-rmf') continue;
      expect(framework.functions, id).toBeUndefined();
      expect(framework.domains?.some((domain) => domain.function !== undefined) ?? false, id).toBe(false);
    }
  });

  it('ISO/IEC 27001: the 93 controls in order with their titles, in 4 themes of 37, 8, 14 and 34', () => {
    const reference = readReference<{
      themes: { id: string; title: string; controlCount: number }[];
      controls: { id: string; themeClause: string; title: string }[];
    }>('iso27001-2022.json');
    const framework = frameworks.get('iso-27001')!;
    expect(framework.domains).toEqual(reference.themes.map(({ id, title }) => ({ id, title })));
    expect(framework.requirements.map(({ id, domain, title }) => ({ id, domain, title }))).toEqual(
      reference.controls.map(({ id, themeClause, title }) => ({ id, domain: themeClause, title })),
    );
    const perTheme = framework.domains!.map(
      (theme) => framework.requirements.filter((r) => r.domain === theme.id).length,
    );
    expect(perTheme).toEqual([37, 8, 14, 34]);
    expect(perTheme).toEqual(reference.themes.map((theme) => theme.controlCount));
  });

  it.each([
    ['eu-ai-act', 'eu-ai-act.json', 'obligations', 60],
    ['gdpr', 'gdpr.json', 'articles', 36],
  ] as const)('%s: the %s %s in order with their official titles (%i)', (frameworkId, file, key, count) => {
    const reference = readReference<Record<string, { id: string; title: string }[]>>(file)[key];
    const framework = frameworks.get(frameworkId)!;
    expect(framework.requirements.map(({ id, title }) => ({ id, title }))).toEqual(
      reference.map(({ id, title }) => ({ id, title })),
    );
    expect(reference).toHaveLength(count);
  });
});

describe('crosswalk fixture', () => {
  it('resolves both ends of every edge and has no duplicates', () => {
    expect(edges.length).toBeGreaterThan(0);
    for (const edge of edges) {
      expect(findRequirement(edge.source), JSON.stringify(edge.source)).toBeDefined();
      expect(findRequirement(edge.target), JSON.stringify(edge.target)).toBeDefined();
      expect(['equal', 'subset', 'superset', 'intersect']).toContain(edge.relationship);
    }
    const keys = edges.map(
      (e) =>
        `${e.source.frameworkId}|${e.source.requirementId}|${e.target.frameworkId}|${e.target.requirementId}`,
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps every reference edge whose ends exist and which the reference does not flag as unverified', () => {
    const reference = readReference<{
      edges: {
        sourceFramework: string;
        sourceId: string;
        targetFramework: string;
        targetId: string;
        unverified?: boolean;
      }[];
    }>('mappings.json').edges;
    const eligible = reference.filter(
      (e) =>
        !e.unverified &&
        findRequirement({ frameworkId: e.sourceFramework, requirementId: e.sourceId }) &&
        findRequirement({ frameworkId: e.targetFramework, requirementId: e.targetId }),
    );
    const direct = edges.filter((e) => e.origin !== 'scf-pivot');
    expect(direct).toHaveLength(eligible.length);
    expect(
      edges.some((e) => e.source.frameworkId === 'iso-42001' && e.target.frameworkId === 'iso-27001'),
    ).toBe(true);
  });

  it('takes from the SCF pivot only the pairs whose relationship set algebra determines', () => {
    const { derivedEdges } = readReference<{
      derivedEdges: { sourceId: string; targetId: string; relationship: string | null }[];
    }>('mappings-scf-pivot.json');
    // Two controls mapped to one SCF control need not overlap at all: co-mapped pairs are no edges.
    const determined = derivedEdges.filter(
      (e) =>
        e.relationship !== null &&
        findRequirement({ frameworkId: 'iso-42001', requirementId: e.sourceId }) &&
        findRequirement({ frameworkId: 'iso-27001', requirementId: e.targetId }),
    );
    const pivot = edges.filter((e) => e.origin === 'scf-pivot');
    expect(pivot.map((e) => [e.source.requirementId, e.relationship, e.target.requirementId])).toEqual(
      determined.map((e) => [e.sourceId, e.relationship, e.targetId]),
    );
    expect(pivot).toHaveLength(4);
  });

  it('rewrites rationales instead of copying them, and marks inferred edges', () => {
    const referenceRationales = new Set(
      readReference<{ edges: { rationale?: string }[] }>('mappings.json').edges.flatMap((e) =>
        e.rationale ? [e.rationale] : [],
      ),
    );
    for (const edge of edges) {
      if (edge.rationale !== undefined) expect(referenceRationales.has(edge.rationale)).toBe(false);
      if (edge.origin === 'analyst' || edge.origin === 'scf-pivot') expect(edge.inferred).toBe(true);
    }
  });
});

describe('conflicts fixture', () => {
  const reference = readReference<{
    conflicts: { conflictId: string; description: string; resolution: string }[];
  }>('conflicts.json');

  it('has one curated conflict per reference entry, with allowed kinds and severities', () => {
    expect(conflicts.map((c) => c.conflictId)).toEqual(reference.conflicts.map((c) => c.conflictId));
    for (const conflict of conflicts) {
      expect(['contradiction', 'tension', 'overlap']).toContain(conflict.kind);
      expect(['high', 'medium', 'low']).toContain(conflict.severity);
      expect(conflict.source).toBe('curated');
      expect(conflict.requirements.length).toBeGreaterThanOrEqual(2);
    }
  });

  it('resolves every requirement reference and named parameter', () => {
    for (const conflict of conflicts) {
      for (const ref of conflict.requirements) {
        const requirement = findRequirement(ref);
        expect(requirement, `${conflict.conflictId} ${ref.frameworkId} ${ref.requirementId}`).toBeDefined();
        if (ref.parameter !== undefined) {
          expect(
            requirement?.parameters?.some((p) => p.type === ref.parameter),
            `${conflict.conflictId} ${ref.requirementId}`,
          ).toBe(true);
        }
      }
    }
  });

  it('words descriptions and resolutions differently from the reference', () => {
    const byId = new Map(reference.conflicts.map((c) => [c.conflictId, c]));
    for (const conflict of conflicts) {
      expect(conflict.description.trim()).not.toBe('');
      expect(conflict.resolution.trim()).not.toBe('');
      expect(conflict.description).not.toBe(byId.get(conflict.conflictId)?.description);
      expect(conflict.resolution).not.toBe(byId.get(conflict.conflictId)?.resolution);
    }
  });
});
