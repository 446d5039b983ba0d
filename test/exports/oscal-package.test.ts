import { Readable } from 'node:stream';
import { unzipSync } from 'fflate';
import { v5 as referenceUuidV5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import type { OrgExportData } from '../../src/features/exports/export.types.js';
import {
  assertValidOscalPackage,
  buildOscalPackage,
  checkOscalConstraints,
  checkOscalReferences,
  OSCAL_VERSION,
  type OscalDocumentKind,
  type OscalMetadata,
  type OscalPackage,
  validateOscalDocument,
} from '../../src/features/exports/oscal/index.js';
import { zipIntoSpool } from '../../src/features/exports/oscal/oscal-zip.js';
import { uuidV5Generator } from '../../src/features/exports/oscal/uuid-v5.js';
import { Spool } from '../../src/features/exports/spool.js';
import { exportData } from './export-data.factory.js';

const KINDS: Record<string, OscalDocumentKind> = {
  'catalog.json': 'catalog',
  'profile.json': 'profile',
  'ssp.json': 'ssp',
  'assessment-plan.json': 'assessment-plan',
  'assessment-results.json': 'assessment-results',
};

const documentsOf = (pkg: OscalPackage) => pkg['oscal-package'].documents;
const sspOf = (pkg: OscalPackage) => documentsOf(pkg)['ssp.json']['system-security-plan'];
const resultOf = (pkg: OscalPackage) =>
  documentsOf(pkg)['assessment-results.json']['assessment-results'].results[0];

function expectValid(pkg: OscalPackage): void {
  for (const [file, document] of Object.entries(documentsOf(pkg))) {
    const result = validateOscalDocument(KINDS[file], document);
    expect(result.errors, file).toEqual([]);
    expect(result.valid).toBe(true);
  }
  expect(checkOscalReferences(pkg)).toEqual([]);
  expect(checkOscalConstraints(pkg)).toEqual([]);
  expect(() => assertValidOscalPackage(pkg)).not.toThrow();
}

/** Every `uuid` member with its JSON path, to compare two exports subject by subject. */
function uuidsByPath(node: unknown, path = ''): Map<string, string> {
  const found = new Map<string, string>();
  if (Array.isArray(node)) {
    node.forEach((child, i) => {
      for (const [p, u] of uuidsByPath(child, `${path}/${i}`)) found.set(p, u);
    });
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'uuid' && typeof value === 'string') found.set(path, value);
      else for (const [p, u] of uuidsByPath(value, `${path}/${key}`)) found.set(p, u);
    }
  }
  return found;
}

describe('buildOscalPackage', () => {
  const data = exportData();
  const pkg = buildOscalPackage(data);

  it('has the contract envelope with the five documents', () => {
    expect(pkg['oscal-package']['oscal-version']).toBe('1.2.1');
    expect(Object.keys(documentsOf(pkg))).toEqual(Object.keys(KINDS));
  });

  it('produces documents that each validate against the official OSCAL schema, with resolving references', () => {
    expectValid(pkg);
  });

  it('stays valid for a snapshot, without evidence, without AI systems and with every control excluded', () => {
    expectValid(buildOscalPackage(exportData({ snapshot: true })));
    const bare = exportData({ evidenceFor: () => 0 });
    bare.aiSystems = [];
    for (const control of bare.controls) control.applicable = false;
    const bareResult = buildOscalPackage(bare);
    expectValid(bareResult);
    expect(resultOf(bareResult).findings).toBeUndefined();
    expect(resultOf(bareResult).observations).toBeUndefined();
    expect(sspOf(bareResult)['back-matter']).toBeUndefined();
  });

  it('stays valid with hostile text, odd URLs and odd timestamps', () => {
    const hostile = exportData();
    hostile.org.name = '  Acme\n| *Corp* <b>&amp;</b>  ';
    hostile.generatedAt = '2026-11-22T11:00:00+01:00';
    const control = hostile.controls[1];
    control.title = '# heading\twith tab';
    control.justification = '  \n  ';
    control.reviewer = '  ';
    control.evidence[0] = {
      ...control.evidence[0],
      title: '\u2028',
      description: '- item\n    code block\n> quote',
      fileUrl: 'https://user:secret@files.example.com/a b|c^{d}#x#y',
      contentHash: 'sha256:ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789',
    };
    hostile.controls[5].evidence.push({
      ...control.evidence[0],
      evidenceId: 'ev-bad-url',
      fileUrl: 'not a url',
    });
    hostile.aiSystems[0].lifecycleStage = 'unknown-stage';
    const hostilePkg = buildOscalPackage(hostile);
    expectValid(hostilePkg);
    const resource = sspOf(hostilePkg)['back-matter']?.resources.find((r) =>
      r.rlinks?.[0].href.includes('a%20b'),
    );
    expect(resource?.rlinks?.[0].href).toBe('https://files.example.com/a%20b%7Cc%5E%7Bd%7D#x%23y');
    expect(resource?.rlinks?.[0].hashes?.[0].value).toBe(
      'abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789',
    );
  });

  it('stays valid with risks in every state, hostile text, unknown systems and other frameworks', () => {
    const withRisks = exportData();
    const states = ['open', 'treating', 'treated', 'accepted', 'needs_acceptance'] as const;
    withRisks.risks = states.map((state, i) => ({
      riskId: `risk_${i}`,
      title: i === 0 ? '  # Bias | *ranking* <script>  ' : `Risk ${i}`,
      description: i === 0 ? '- item\n    code block\n> quote' : null,
      category: i === 1 ? '  fairness ' : null,
      owner: i === 1 ? 'Dana' : null,
      systemIds: i === 0 ? ['sys-1', 'sys-gone'] : [],
      likelihood: 4,
      impact: 5,
      residualLikelihood: 1,
      residualImpact: 2,
      inherent: { score: 20, level: 'critical' },
      residual: { score: 2, level: 'low' },
      treatment:
        state === 'open'
          ? null
          : {
              option: state === 'accepted' ? 'accept' : 'mitigate',
              requirements: [
                { frameworkId: 'iso-42001', requirementId: 'A.6.2.4' },
                { frameworkId: 'iso-42001', requirementId: 'A.6.2.4' },
                { frameworkId: 'eu-ai-act', requirementId: 'Art. 9' },
                { frameworkId: 'iso-42001', requirementId: 'A.99' },
              ],
              plan: i === 2 ? '1. first\n2. second' : null,
              dueDate: i === 1 ? '2026-12-01T10:00:00+01:00' : null,
            },
      treatmentProgress: { implemented: state === 'treated' ? 4 : 0, total: state === 'open' ? 0 : 4 },
      treatmentOverdue: false,
      acceptance:
        state === 'accepted'
          ? {
              state: 'valid',
              acceptedBy: ' Ada  Approver ',
              acceptedAt: '2026-11-01T00:00:00.000Z',
              expiresAt: '2027-11-01T00:00:00.000Z',
            }
          : null,
      state,
      updatedAt: '2026-11-01T00:00:00.000Z',
    }));
    const riskPkg = buildOscalPackage(withRisks);
    expectValid(riskPkg);
    const result = resultOf(riskPkg);
    expect(result.risks?.map((risk) => risk.status)).toEqual([
      'open',
      'remediating',
      'closed',
      'deviation-approved',
      'deviation-requested',
    ]);
    // A.6.2.4 once per risk; the other framework's and the unknown requirement are not mitigating factors.
    expect(result.risks?.[1]['mitigating-factors']).toHaveLength(1);
    expect(result.risks?.[1].deadline).toBe('2026-12-01T09:00:00.000Z');
    expect(result.risks?.[2].remediations?.[0].lifecycle).toBe('completed');
    const finding = result.findings?.find((f) => f.target['target-id'] === 'a.6.2.4_smt');
    expect(finding?.['related-risks']).toHaveLength(4);
    // The same risks keep their UUIDs across exports.
    const again = resultOf(buildOscalPackage({ ...withRisks, generatedAt: '2026-12-24T00:00:00.000Z' }));
    expect(again.risks?.map((risk) => risk.uuid)).toEqual(result.risks?.map((risk) => risk.uuid));
  });

  it('sets the metadata of every document', () => {
    for (const document of Object.values(documentsOf(pkg))) {
      const [root] = Object.values(document) as { metadata: OscalMetadata }[];
      const { metadata } = root;
      expect(metadata['oscal-version']).toBe(OSCAL_VERSION);
      expect(metadata['last-modified']).toBe(data.lastModified);
      expect(metadata.version).not.toBe('');
      expect(metadata.parties?.[0]).toMatchObject({ type: 'organization', name: data.org.name });
    }
    expect(sspOf(pkg).metadata.props).toContainEqual(
      expect.objectContaining({ name: 'compliance-score', value: data.score?.toFixed(1) }),
    );
    const snapshotPkg = buildOscalPackage(exportData({ snapshot: true }));
    expect(sspOf(snapshotPkg).metadata.version).toBe('snapshot Audit 2026');
  });

  it('builds the catalog of Annex A: groups A.2 to A.10 in order, lower-case ids with a label', () => {
    const { catalog } = documentsOf(pkg)['catalog.json'];
    expect(catalog.groups?.map((group) => group.id)).toEqual([
      'a.2',
      'a.3',
      'a.4',
      'a.5',
      'a.6',
      'a.7',
      'a.8',
      'a.9',
      'a.10',
    ]);
    const controls = catalog.groups?.flatMap((group) => group.controls ?? []) ?? [];
    expect(controls).toHaveLength(38);
    expect(controls[0]).toMatchObject({
      id: 'a.2.2',
      props: [{ name: 'label', value: 'A.2.2' }, expect.anything()],
    });
    expect(controls[0].parts?.[0]).toMatchObject({ id: 'a.2.2_smt', name: 'statement' });
  });

  it('imports the catalog in the profile through a back-matter resource', () => {
    const { profile } = documentsOf(pkg)['profile.json'];
    const resource = profile['back-matter'].resources[0];
    expect(profile.imports).toEqual([{ href: `#${resource.uuid}`, 'include-all': {} }]);
    expect(resource.rlinks?.[0].href).toBe('catalog.json');
  });

  it('maps each control status into the SSP, with the raw status and exclusions justified', () => {
    const expected = { implemented: 'implemented', in_progress: 'partial', not_started: 'planned' } as const;
    const requirements = sspOf(pkg)['control-implementation']['implemented-requirements'];
    expect(requirements).toHaveLength(data.controls.length);
    const seen = new Set<string>();
    for (const control of data.controls) {
      const requirement = requirements.find((r) => r['control-id'] === control.controlId.toLowerCase());
      const status = requirement?.['by-components'][0]['implementation-status'];
      expect(status?.state).toBe(control.applicable ? expected[control.status] : 'not-applicable');
      if (!control.applicable)
        expect(status?.remarks).toContain(`control ${control.controlId} does not apply`);
      expect(requirement?.props).toContainEqual(
        expect.objectContaining({ name: 'status', value: control.status }),
      );
      expect(requirement?.links ?? []).toHaveLength(control.evidence.length);
      seen.add(`${control.status}/${control.applicable}`);
    }
    expect(seen.size).toBe(6);
  });

  it('states each implementation with the note recorded with its status, else a sentence of status and justification', () => {
    const noted = exportData();
    noted.controls[0].note = '*Owned* by the CISO | see [minutes](x)';
    noted.controls[14].evidenceExpired = true;
    const plan = buildOscalPackage(noted);
    expectValid(plan);
    const statements = new Map(
      sspOf(plan)['control-implementation']['implemented-requirements'].map((r) => [
        r['control-id'],
        r['by-components'][0].description,
      ]),
    );
    const statement = (index: number) => statements.get(noted.controls[index].controlId.toLowerCase());
    // Index 0: a note of its own, escaped as Markdown.
    expect(statement(0)).toBe('\\*Owned\\* by the CISO \\| see \\[minutes\\](x)');
    // Index 8: the factory's note.
    expect(statement(8)).toBe(noted.controls[8].note);
    // Index 1: in progress, no reviewer, no note; index 2: implemented and reviewed; index 3: excluded.
    expect(statement(1)).toBe(
      'The organization records this control as in progress: its implementation has started and is not complete.',
    );
    expect(statement(2)).toBe(
      'The organization records this control as implemented. Last recorded by alice@acme.example on 2026-11-01.',
    );
    expect(statement(3)).toBe(
      `Excluded from the scope of the AI management system. Justification: Out of scope: control ${noted.controls[3].controlId} does not apply to us.`,
    );
    expect(statement(14)).toMatch(
      /^The organization records this control as implemented\. .*All of its evidence has expired\.$/,
    );
    expect([...statements.values()]).not.toContain('Implemented.');
  });

  it('lists the organization and each AI system as components, and evidence as back-matter resources', () => {
    const ssp = sspOf(pkg);
    const components = ssp['system-implementation'].components;
    expect(components.map((c) => c.type)).toEqual(['this-system', 'software', 'software']);
    expect(components[1]).toMatchObject({ title: 'Support chatbot', status: { state: 'operational' } });
    expect(components[2].status.state).toBe('under-development');
    const total = data.controls.reduce((sum, control) => sum + control.evidence.length, 0);
    const resources = ssp['back-matter']?.resources ?? [];
    expect(resources).toHaveLength(total);
    for (const resource of resources)
      expect(resource.props).toContainEqual({ name: 'type', value: 'evidence' });
  });

  it('records one observation per evidence item and one finding per applicable control', () => {
    const result = resultOf(pkg);
    const total = data.controls.reduce((sum, control) => sum + control.evidence.length, 0);
    expect(result.observations).toHaveLength(total);
    const applicable = data.controls.filter((control) => control.applicable);
    expect(result.findings).toHaveLength(applicable.length);
    const requirements = sspOf(pkg)['control-implementation']['implemented-requirements'];
    for (const control of applicable) {
      const finding = result.findings?.find(
        (f) => f.target['target-id'] === `${control.controlId.toLowerCase()}_smt`,
      );
      const satisfied =
        control.status === 'implemented' && control.evidenceCount > 0 && control.evidenceExpired !== true;
      expect(finding?.target.status).toEqual(
        satisfied ? { state: 'satisfied', reason: 'pass' } : { state: 'not-satisfied', reason: 'other' },
      );
      expect(finding?.['related-observations'] ?? []).toHaveLength(control.evidence.length);
      const requirement = requirements.find((r) => r.uuid === finding?.['implementation-statement-uuid']);
      expect(requirement?.['control-id']).toBe(control.controlId.toLowerCase());
    }
    const reasons = new Set(result.findings?.map((f) => f.target.status.state));
    expect(reasons).toEqual(new Set(['satisfied', 'not-satisfied']));
  });
  it('does not satisfy an implemented control whose evidence has all expired, and says why', () => {
    const expired = exportData();
    const control = expired.controls.find(
      (c) => c.applicable && c.status === 'implemented' && c.evidence.length > 0,
    );
    if (!control) throw new Error('the factory implements some applicable controls with evidence');
    control.evidenceExpired = true;
    const current = expired.controls.find(
      (c) => c !== control && c.applicable && c.status === 'implemented' && c.evidence.length > 0,
    );
    const expiredPkg = buildOscalPackage(expired);
    expectValid(expiredPkg);
    const result = resultOf(expiredPkg);
    const findingOf = (id: string) =>
      result.findings?.find((f) => f.target['target-id'] === `${id.toLowerCase()}_smt`);
    const notMet = findingOf(
      expired.controls.find((c) => c.applicable && c.status === 'in_progress')?.controlId ?? '',
    );
    expect(findingOf(control.controlId)?.target.status).toEqual({
      ...notMet?.target.status,
      remarks: expect.stringContaining('all of its evidence has expired'),
    });
    expect(findingOf(control.controlId)?.target.status.state).toBe('not-satisfied');
    expect(findingOf(current?.controlId ?? '')?.target.status).toEqual({
      state: 'satisfied',
      reason: 'pass',
    });
  });

  it('gives the observation of evidence that expires its expiry', () => {
    const result = resultOf(pkg);
    const evidence = data.controls.flatMap((control) => control.evidence);
    const expiring = evidence.filter((item) => item.expiresAt !== null);
    expect(expiring.length).toBeGreaterThan(0);
    expect(expiring.length).toBeLessThan(evidence.length);
    const observations = result.observations ?? [];
    expect(observations).toHaveLength(evidence.length);
    // One observation per item, in the order the items are listed.
    observations.forEach((observation, i) => {
      expect(observation.expires).toBe(evidence[i].expiresAt ?? undefined);
    });
  });
});

describe('OSCAL UUIDs', () => {
  it('are the same subject for subject across two exports, except the per-export result', () => {
    const first = exportData();
    const second: OrgExportData = {
      ...exportData(),
      generatedAt: '2026-11-23T08:00:00.000Z',
      lastModified: '2026-11-23T07:00:00.000Z',
    };
    second.controls[0] = { ...second.controls[0], status: 'implemented', reviewer: 'carol@acme.example' };
    const before = uuidsByPath(buildOscalPackage(first));
    const after = uuidsByPath(buildOscalPackage(second));
    const resultPath = '/oscal-package/documents/assessment-results.json/assessment-results/results/0';
    expect(before.get(resultPath)).not.toBe(after.get(resultPath));
    before.delete(resultPath);
    after.delete(resultPath);
    // The new reviewer is a new party; every other subject keeps its UUID.
    const parties = '/oscal-package/documents/ssp.json/system-security-plan/metadata/parties';
    for (const path of [...after.keys()].filter((p) => p.startsWith(parties))) after.delete(path);
    for (const path of [...before.keys()].filter((p) => p.startsWith(parties))) before.delete(path);
    expect(after).toEqual(before);
    expect(before.size).toBeGreaterThan(100);
  });

  it('are v5, unique within each document, and different for another organization', () => {
    const pkg = buildOscalPackage(exportData());
    const other = buildOscalPackage({ ...exportData(), org: { ...exportData().org, orgId: 'globex' } });
    for (const document of Object.values(pkg['oscal-package'].documents)) {
      const uuids = [...uuidsByPath(document).values()];
      expect(new Set(uuids).size).toBe(uuids.length);
      for (const uuid of uuids)
        expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(sspOf(other).uuid).not.toBe(sspOf(pkg).uuid);
    // The catalog is the framework's, the same for every organization.
    expect(documentsOf(other)['catalog.json'].catalog.uuid).toBe(
      documentsOf(pkg)['catalog.json'].catalog.uuid,
    );
  });

  it('match the uuid package for short, unicode and long names', () => {
    const namespace = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';
    const generate = uuidV5Generator(namespace);
    for (const name of ['', 'a', '["org","acme","ssp"]', 'Zürich 東京 🚀', 'x'.repeat(5000), 'short again']) {
      expect(generate(name)).toBe(referenceUuidV5(name, namespace));
    }
  });
});

describe('reference and validity checks', () => {
  it('report dangling references the schema cannot see', () => {
    const pkg = structuredClone(buildOscalPackage(exportData()));
    const ssp = sspOf(pkg);
    const requirements = ssp['control-implementation']['implemented-requirements'];
    requirements[0]['by-components'][0]['component-uuid'] = '00000000-0000-4000-8000-000000000000';
    const linked = requirements.find((r) => r.links);
    if (linked?.links) linked.links[0].href = '#00000000-0000-4000-8000-000000000001';
    requirements[1]['control-id'] = 'a.99.9';
    const finding = resultOf(pkg).findings?.[0];
    if (finding) finding['implementation-statement-uuid'] = '00000000-0000-4000-8000-000000000002';
    const problems = checkOscalReferences(pkg);
    expect(problems.map((p) => [p.document, p.path.split('/').pop(), p.reference])).toEqual(
      expect.arrayContaining([
        ['ssp.json', 'component-uuid', '00000000-0000-4000-8000-000000000000'],
        ['ssp.json', 'href', '#00000000-0000-4000-8000-000000000001'],
        ['ssp.json', 'control-id', 'a.99.9'],
        ['assessment-results.json', 'implementation-statement-uuid', '00000000-0000-4000-8000-000000000002'],
      ]),
    );
    expect(problems).toHaveLength(4);
    expect(() => assertValidOscalPackage(pkg)).toThrow(/component-uuid/);
  });

  it('report links to files that are not in the package and duplicated UUIDs', () => {
    const pkg = structuredClone(buildOscalPackage(exportData()));
    documentsOf(pkg)['ssp.json']['system-security-plan']['import-profile'].href = 'baseline.json';
    const components = sspOf(pkg)['system-implementation'].components;
    components[2].uuid = components[1].uuid;
    const messages = checkOscalReferences(pkg).map((p) => p.message);
    expect(messages).toContain('no document with this name in the package');
    expect(messages).toContain('uuid defined twice');
  });

  it('report by-component-less requirements and undefined state tokens', () => {
    const pkg = structuredClone(buildOscalPackage(exportData()));
    const requirements = sspOf(pkg)['control-implementation']['implemented-requirements'];
    requirements[0]['by-components'] = [];
    Object.assign(requirements[1]['by-components'][0]['implementation-status'], { state: 'in_progress' });
    const problems = checkOscalConstraints(pkg).map((p) => p.message);
    expect(problems).toEqual(['no by-component', 'undefined implementation state in_progress']);
  });

  it('refuse a schema-invalid document with a message naming the problem', () => {
    const pkg = structuredClone(buildOscalPackage(exportData()));
    sspOf(pkg).metadata['last-modified'] = '2026-11-21T17:30:00';
    expect(validateOscalDocument('ssp', documentsOf(pkg)['ssp.json']).valid).toBe(false);
    expect(() => assertValidOscalPackage(pkg)).toThrow(
      /ssp\.json \/system-security-plan\/metadata\/last-modified/,
    );
  });
});

describe('zipIntoSpool', () => {
  it('holds the five documents as parseable JSON files after what the spool held, the same bytes each time', async () => {
    const { documents } = buildOscalPackage(exportData())['oscal-package'];
    const mtime = new Date('2026-11-21T17:30:00Z');
    const zip = async () => {
      const spool = new Spool();
      spool.write('documents written before the archive');
      const sources = Object.entries(documents).map(([name, document]) => ({
        name,
        // Large enough for several deflate chunks per entry.
        stream: () => Readable.from([JSON.stringify(document), ' '.repeat(3_000_000)]),
      }));
      const range = await zipIntoSpool(sources, mtime, spool);
      const bytes = spool.read(range);
      spool.release();
      return bytes;
    };
    const archive = await zip();
    const files = unzipSync(new Uint8Array(archive));
    expect(Object.keys(files)).toEqual(Object.keys(KINDS));
    for (const [name, bytes] of Object.entries(files)) {
      expect(JSON.parse(new TextDecoder().decode(bytes))).toEqual(documents[name as keyof typeof documents]);
    }
    expect((await zip()).equals(archive)).toBe(true);
  });
});
