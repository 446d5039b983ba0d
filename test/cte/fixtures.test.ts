import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCrosswalk, RequirementIndex } from '../../fixtures/build/crosswalk.build.js';
import { buildFrameworks } from '../../fixtures/build/frameworks.build.js';
import {
  parameterEvents,
  parameterRecipients,
  parameterSubjects,
} from '../../fixtures/build/parameter-tags.js';
import { readReference } from '../../fixtures/build/reference.js';
import { topicVocabulary } from '../../fixtures/build/topics.js';
import { controlLibrary } from '../../src/features/controls/library.seed.js';
import type {
  Conflict,
  CrosswalkEdge,
  Framework,
  RequirementRef,
} from '../../src/features/cte/framework.types.js';
import { createLibrary } from '../../src/features/cte/library.js';

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
  // The ISO Harmonized Structure clauses 4–10, kept apart from the Annex A frameworks above.
  { id: 'iso-42001-clauses', requirements: 36, domains: 7, legal: false, kind: 'standard' },
  { id: 'iso-27001-clauses', requirements: 34, domains: 7, legal: false, kind: 'standard' },
] as const;

/** The five original frameworks, whose content the clause frameworks must leave untouched. */
const originalIds = ['iso-42001', 'nist-ai-rmf', 'eu-ai-act', 'iso-27001', 'gdpr'];
/** Reference framework id → the framework holding its management-system clauses. */
const clauseFrameworkOf: Record<string, string> = {
  'iso-42001': 'iso-42001-clauses',
  'iso-27001': 'iso-27001-clauses',
};
/** A reference requirement end as it appears in the fixtures: ISO clause ids (no `A.` prefix) move to the clause frameworks. */
function fixtureRef(frameworkId: string, requirementId: string): RequirementRef {
  const clauses = clauseFrameworkOf[frameworkId];
  return clauses && !requirementId.startsWith('A.')
    ? { frameworkId: clauses, requirementId }
    : { frameworkId, requirementId };
}

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
      'iso-42001-clauses': /^(?:[4-9]|10)\.\d+(?:\.\d+)?$/,
      'iso-27001-clauses': /^(?:[4-9]|10)\.\d+(?:\.\d+)?$/,
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

describe('ISO/IEC 42001 control library, derived from the framework fixture', () => {
  const library = controlLibrary();
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
        findRequirement(fixtureRef(e.sourceFramework, e.sourceId)) &&
        findRequirement(fixtureRef(e.targetFramework, e.targetId)),
    );
    const direct = edges.filter((e) => e.origin !== 'scf-pivot' && e.origin !== 'curated');
    expect(direct).toHaveLength(eligible.length);
    const key = (source: RequirementRef, target: RequirementRef) =>
      `${source.frameworkId}|${source.requirementId}|${target.frameworkId}|${target.requirementId}`;
    expect(new Set(direct.map((e) => key(e.source, e.target)))).toEqual(
      new Set(
        eligible.map((e) =>
          key(fixtureRef(e.sourceFramework, e.sourceId), fixtureRef(e.targetFramework, e.targetId)),
        ),
      ),
    );
    // Only the two flagged NIST rows (an id printed with another element's title) are left out.
    expect(reference.length - eligible.length).toBe(2);
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

describe('ISO management-system clause frameworks against the reference', () => {
  interface ReferenceClause {
    id: string;
    title: string;
    level: number;
    parent?: string;
  }
  const specs = [
    {
      id: 'iso-42001-clauses',
      file: 'iso42001.json',
      name: 'ISO/IEC 42001:2023 management-system clauses',
      version: '2023',
      perDomain: [4, 3, 7, 8, 4, 8, 2],
      // Every description speaks of the AI management system, not of information security.
      wording: /\bAI\b/,
    },
    {
      id: 'iso-27001-clauses',
      file: 'iso27001-2022.json',
      name: 'ISO/IEC 27001:2022 management-system clauses',
      version: '2022',
      perDomain: [4, 3, 6, 8, 3, 8, 2],
      wording: /\bISMS\b|information security/,
    },
  ] as const;

  it.each(specs)('$id: name $name, version $version, ISO/IEC standard, not legal', (spec) => {
    const framework = frameworks.get(spec.id)!;
    expect(framework).toMatchObject({
      id: spec.id,
      name: spec.name,
      version: spec.version,
      publisher: 'ISO/IEC',
      kind: 'standard',
    });
    expect(framework.functions).toBeUndefined();
    expect(framework.requirements.every((r) => r.legal === false)).toBe(true);
  });

  it.each(specs)(
    '$id: the 7 top-level clauses as domains, every deeper clause in order as a requirement',
    (spec) => {
      const { clauses } = readReference<{ clauses: ReferenceClause[] }>(spec.file);
      const framework = frameworks.get(spec.id)!;
      const topLevel = clauses.filter((c) => c.level === 1);
      expect(framework.domains).toEqual(topLevel.map(({ id, title }) => ({ id, title })));
      expect(framework.domains?.map((d) => d.id)).toEqual(['4', '5', '6', '7', '8', '9', '10']);
      const byId = new Map(clauses.map((c) => [c.id, c]));
      const topOf = (clause: ReferenceClause): string =>
        clause.level === 1 ? clause.id : topOf(byId.get(clause.parent!)!);
      expect(framework.requirements.map(({ id, domain, title }) => ({ id, domain, title }))).toEqual(
        clauses.filter((c) => c.level >= 2).map((c) => ({ id: c.id, domain: topOf(c), title: c.title })),
      );
      const perDomain = framework.domains!.map(
        (d) => framework.requirements.filter((r) => r.domain === d.id).length,
      );
      expect(perDomain).toEqual(spec.perDomain);
      expect(framework.requirements).toHaveLength(clauses.length - topLevel.length);
    },
  );

  it.each(specs)('$id: descriptions in our words about its own management system, with topics', (spec) => {
    const vocabulary = new Set<string>(topicVocabulary);
    for (const requirement of frameworks.get(spec.id)!.requirements) {
      const where = `${spec.id} ${requirement.id}`;
      expect(requirement.description.trim().length, where).toBeGreaterThan(40);
      expect(requirement.description, where).toMatch(spec.wording);
      expect(requirement.description, where).not.toBe(requirement.title);
      expect(requirement.topics?.length, where).toBeGreaterThan(0);
      for (const topic of requirement.topics ?? [])
        expect(vocabulary.has(topic), `${where}: ${topic}`).toBe(true);
    }
  });

  it('keeps ISO 42001-only clauses (6.1.4 and 8.4 on AI system impact assessment) out of the 27001 clauses', () => {
    const ids = (id: (typeof expected)[number]['id']) => frameworks.get(id)!.requirements.map((r) => r.id);
    expect(ids('iso-42001-clauses').filter((id) => !ids('iso-27001-clauses').includes(id))).toEqual([
      '6.1.4',
      '8.4',
    ]);
    expect(ids('iso-27001-clauses').every((id) => ids('iso-42001-clauses').includes(id))).toBe(true);
  });

  it('carries every iso-hs reference edge between the two standards’ clauses, resolved', () => {
    const reference = readReference<{
      edges: {
        sourceFramework: string;
        sourceId: string;
        targetFramework: string;
        targetId: string;
        relationship: string;
        origin: string;
        confidence?: string;
      }[];
    }>('mappings.json').edges.filter((e) => e.origin === 'iso-hs');
    expect(reference).toHaveLength(34);
    const ours = edges.filter((e) => e.origin === 'iso-harmonized-structure');
    expect(
      ours.map((e) => [
        e.source.frameworkId,
        e.source.requirementId,
        e.target.frameworkId,
        e.target.requirementId,
      ]),
    ).toEqual(reference.map((e) => ['iso-42001-clauses', e.sourceId, 'iso-27001-clauses', e.targetId]));
    for (const [i, edge] of ours.entries()) {
      expect(findRequirement(edge.source), edge.source.requirementId).toBeDefined();
      expect(findRequirement(edge.target), edge.target.requirementId).toBeDefined();
      expect(edge).toMatchObject({
        relationship: reference[i]!.relationship,
        inferred: true,
        confidence: reference[i]!.confidence,
      });
      expect(edge.rationale).toBeTruthy();
    }
    // Every 27001 clause has its Harmonized Structure counterpart in 42001.
    expect(new Set(ours.map((e) => e.target.requirementId))).toEqual(
      new Set(frameworks.get('iso-27001-clauses')!.requirements.map((r) => r.id)),
    );
  });

  it('puts the reference clause edges on the clause frameworks: 79 NIST, 34 Harmonized Structure, 17 analyst', () => {
    const clauseIds = new Set(Object.values(clauseFrameworkOf));
    const clauseEdges = edges.filter(
      (e) => clauseIds.has(e.source.frameworkId) || clauseIds.has(e.target.frameworkId),
    );
    const count = new Map<string, number>();
    for (const e of clauseEdges) {
      const pair = `${e.source.frameworkId} -> ${e.target.frameworkId} ${e.origin}`;
      count.set(pair, (count.get(pair) ?? 0) + 1);
    }
    expect(Object.fromEntries(count)).toEqual({
      'nist-ai-rmf -> iso-42001-clauses nist-airc-crosswalk': 79,
      'iso-42001-clauses -> iso-27001-clauses iso-harmonized-structure': 34,
      'eu-ai-act -> iso-42001-clauses analyst': 16,
      'gdpr -> iso-42001-clauses analyst': 1,
    });
    // No clause id is left on the Annex A frameworks.
    for (const e of edges) {
      for (const end of [e.source, e.target]) {
        if (end.frameworkId === 'iso-42001' || end.frameworkId === 'iso-27001')
          expect(end.requirementId, JSON.stringify(e)).toMatch(/^A\./);
      }
    }
  });

  it('resolves every edge in a library of all seven frameworks', () => {
    const library = createLibrary({ frameworks: [...frameworks.values()], edges });
    expect(library.unresolvedEdges).toEqual([]);
    expect(library.edges).toHaveLength(edges.length);
  });
});

describe('original frameworks and edges are unchanged by the clause frameworks', () => {
  it.each(expected.filter(({ id }) => originalIds.includes(id)))(
    '$id still has $requirements requirements in $domains domains',
    (spec) => {
      const framework = frameworks.get(spec.id)!;
      expect(framework.requirements).toHaveLength(spec.requirements);
      expect(framework.domains?.length ?? 0).toBe(spec.domains);
    },
  );

  it('keeps the 283 edges among the original frameworks first, with the same pairs and origins', () => {
    const original = (e: CrosswalkEdge) =>
      originalIds.includes(e.source.frameworkId) && originalIds.includes(e.target.frameworkId);
    const firstClauseEdge = edges.findIndex((e) => !original(e));
    const firstCurated = edges.findIndex((e) => e.origin === 'curated');
    expect(firstClauseEdge).toBe(283);
    expect(firstCurated).toBe(413);
    expect(edges.slice(firstClauseEdge, firstCurated).every((e) => !original(e))).toBe(true);
    const count = new Map<string, number>();
    for (const e of edges.slice(0, firstClauseEdge)) {
      const pair = `${e.source.frameworkId} -> ${e.target.frameworkId} ${e.origin}`;
      count.set(pair, (count.get(pair) ?? 0) + 1);
    }
    expect(Object.fromEntries(count)).toEqual({
      'nist-ai-rmf -> iso-42001 nist-airc-crosswalk': 199,
      'eu-ai-act -> gdpr ai-act-cross-reference': 6,
      'eu-ai-act -> gdpr analyst': 9,
      'eu-ai-act -> iso-42001 analyst': 33,
      'gdpr -> iso-27001 analyst': 24,
      'gdpr -> iso-42001 analyst': 8,
      'iso-42001 -> iso-27001 scf-pivot': 4,
    });
  });

  it('ends with our own ISO 27001 → ISO 42001 edges, each an intersection with a rationale', () => {
    const curated = edges.slice(413);
    expect(curated.length).toBeGreaterThanOrEqual(16);
    for (const e of curated) {
      expect(e).toMatchObject({
        origin: 'curated',
        relationship: 'intersect',
        inferred: true,
        source: { frameworkId: 'iso-27001' },
        target: { frameworkId: 'iso-42001' },
      });
      expect(e.rationale?.length).toBeGreaterThan(20);
    }
    const key = (e: CrosswalkEdge) => `${e.source.requirementId}>${e.target.requirementId}`;
    // The logging pair the propagation rule speaks of.
    expect(curated.map(key)).toContain('A.8.15>A.6.2.8');
    expect(new Set(curated.map(key)).size).toBe(curated.length);
  });

  it('leaves the curated conflicts on the original frameworks', () => {
    for (const conflict of conflicts) {
      for (const ref of conflict.requirements)
        expect(originalIds, conflict.conflictId).toContain(ref.frameworkId);
    }
  });
});

describe('generated fixtures', () => {
  it('are exactly what fixtures/build writes from the reference (regenerate instead of editing the JSON)', () => {
    const built = buildFrameworks();
    expect(built.map((f) => f.id)).toEqual(expected.map((spec) => spec.id));
    for (const framework of built)
      expect(frameworks.get(framework.id as never), framework.id).toEqual(framework);
    expect(buildCrosswalk(new RequirementIndex(built))).toEqual(edges);
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
