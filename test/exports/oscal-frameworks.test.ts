/**
 * OSCAL packages of every framework of the library (CONTRACT.md, "Exports" and "Assessments of every
 * framework"): `GET /orgs/{orgId}/export/oscal?frameworkId=…` for built-in frameworks and imported OSCAL
 * catalogs, each document valid against NIST's schemas, statuses recorded directly or inferred through the
 * crosswalk marked as such in the SSP, exclusions with their justification, evidence in the assessment
 * results, and the ISO/IEC 42001 package (the default) as it was.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { pino } from 'pino';
import { v5 as referenceUuidV5 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../../src/features/cte/frameworks.service.js';
import { BUILTIN_FRAMEWORK_IDS } from '../../src/features/cte/library.js';
import { exportJob } from '../../src/features/exports/export.job.js';
import type { OrgExportData } from '../../src/features/exports/export.types.js';
import { EXPORT_FRAMEWORK } from '../../src/features/exports/framework.js';
import {
  buildOscalPackage,
  OSCAL_UUID_NAMESPACE,
  type OscalDocumentKind,
  type OscalImplementedRequirement,
  type OscalPackage,
  type OscalProperty,
  validateOscalDocument,
  validateOscalPackage,
} from '../../src/features/exports/oscal/index.js';
import { catalogUuid, OscalTokens, oscalControlId } from '../../src/features/exports/oscal/oscal-ids.js';
import { BullmqJobRunner } from '../../src/platform/jobs/bullmq.runner.js';
import { startBullmqWorkers, type WorkerPool } from '../../src/platform/jobs/bullmq.worker.js';
import { createTestApp, dbKinds, REDIS_TEST_URL, type TestApp } from '../support/app.js';
import { removePrefix } from '../support/redis-prefix.js';
import { exportData } from './export-data.factory.js';

const KINDS: Record<string, OscalDocumentKind> = {
  'catalog.json': 'catalog',
  'profile.json': 'profile',
  'ssp.json': 'ssp',
  'assessment-plan.json': 'assessment-plan',
  'assessment-results.json': 'assessment-results',
};
const NS = 'urn:comply:oscal';
const RESULT_PATH = '/oscal-package/documents/assessment-results.json/assessment-results/results/0';
const EU_AI_ACT = 'eu-ai-act';
const SP_800_53 = 'nist-special-publication-800-53-revision-5';
const catalogDocument = JSON.parse(
  readFileSync(
    new URL('../fixtures/oscal/NIST_SP-800-53_rev5.0.1_catalog-min.json', import.meta.url),
    'utf8',
  ),
);

const enc = encodeURIComponent;
const documentsOf = (pkg: OscalPackage) => pkg['oscal-package'].documents;
const sspOf = (pkg: OscalPackage) => documentsOf(pkg)['ssp.json']['system-security-plan'];
const resultOf = (pkg: OscalPackage) =>
  documentsOf(pkg)['assessment-results.json']['assessment-results'].results[0];
const prop = (props: OscalProperty[] | undefined, name: string) =>
  props?.find((p) => p.name === name && p.ns === NS)?.value;

/** Each document valid against NIST's schema on its own; references and metaschema rules hold. */
function expectValidPackage(pkg: OscalPackage): void {
  expect(pkg['oscal-package']['oscal-version']).toBe('1.2.1');
  expect(Object.keys(documentsOf(pkg))).toEqual(Object.keys(KINDS));
  for (const [file, document] of Object.entries(documentsOf(pkg))) {
    expect(validateOscalDocument(KINDS[file], document).errors, file).toEqual([]);
  }
  expect(validateOscalPackage(pkg)).toEqual([]);
}

/** Every `uuid` member by its JSON path. */
function uuidsByPath(node: unknown, path = '', found = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(node)) {
    for (const [i, child] of node.entries()) uuidsByPath(child, `${path}/${i}`, found);
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'uuid' && typeof value === 'string') found.set(path, value);
      else uuidsByPath(value, `${path}/${key}`, found);
    }
  }
  return found;
}

/** The catalog's controls, top-level and in groups, by their label (the id in the framework's notation). */
function catalogControls(pkg: OscalPackage) {
  const { catalog } = documentsOf(pkg)['catalog.json'];
  const controls = [
    ...(catalog.controls ?? []),
    ...(catalog.groups ?? []).flatMap((group) => group.controls ?? []),
  ];
  return new Map(controls.map((control) => [control.props?.find((p) => p.name === 'label')?.value, control]));
}

/** The SSP statement of a requirement, found through the catalog control that carries its label. */
function statementOf(pkg: OscalPackage, requirementId: string): OscalImplementedRequirement {
  const control = catalogControls(pkg).get(requirementId);
  expect(control, `catalog control labelled ${requirementId}`).toBeDefined();
  const requirements = sspOf(pkg)['control-implementation']['implemented-requirements'];
  const statement = requirements.find((r) => r['control-id'] === control?.id);
  expect(statement, `SSP statement of ${requirementId}`).toBeDefined();
  return statement as OscalImplementedRequirement;
}

describe('OSCAL control tokens', () => {
  it('turns every notation into a valid token, and keeps the ISO/IEC 42001 ones as they were', () => {
    expect(oscalControlId('A.6.2.4')).toBe('a.6.2.4');
    expect(oscalControlId('A.10.3')).toBe('a.10.3');
    expect(oscalControlId('AC-2(1)')).toBe('ac-2.1');
    expect(oscalControlId('Art. 26(6)')).toBe('art.26.6');
    expect(oscalControlId('Art. 53(1)(a)-(b)')).toBe('art.53.1.a.b');
    expect(oscalControlId('GOVERN 1.1')).toBe('govern-1.1');
    expect(oscalControlId('4.1')).toBe('_4.1');
    const token = /^(\p{L}|_)(\p{L}|\p{N}|[.\-_])*$/u;
    for (const id of ['Art. 6(3)-(4)', ' (x) ', '§ 12 / b', '', '42'])
      expect(oscalControlId(id)).toMatch(token);
  });

  it('makes tokens unique within a package, deterministically, statements and groups included', () => {
    const tokens = new OscalTokens(['AC-2(1)', 'AC-2.1', 'ac-2.1_2', 'AC-2'], ['AC-2', 'ac']);
    expect(tokens.control('AC-2(1)')).toBe('ac-2.1');
    expect(tokens.control('AC-2.1')).toBe('ac-2.1_2');
    expect(tokens.control('ac-2.1_2')).toBe('ac-2.1_2_2');
    expect(tokens.statement('AC-2.1')).toBe('ac-2.1_2_smt');
    expect(tokens.group('AC-2')).toBe('ac-2_2');
    expect(tokens.group('ac')).toBe('ac');
    const again = new OscalTokens(['AC-2(1)', 'AC-2.1', 'ac-2.1_2', 'AC-2'], ['AC-2', 'ac']);
    expect(again.control('ac-2.1_2')).toBe(tokens.control('ac-2.1_2'));
  });

  it('builds a valid package whose ids collide as tokens, with their labels kept', () => {
    const data: OrgExportData = exportData({ evidenceFor: (index) => (index < 3 ? 1 : 0) });
    data.framework = {
      id: 'odd-catalog',
      name: 'Odd *Catalog*',
      version: '1',
      scope: null,
      noun: 'control',
      imported: true,
    };
    const ids = ['AC-2(1)', 'AC-2.1', 'Art. 26(6)', 'GOVERN 1.1', '4.1'];
    data.controls = data.controls.slice(0, ids.length).map((control, i) => ({
      ...control,
      controlId: ids[i],
      domain: i < 2 ? 'AC' : '',
      domainTitle: i < 2 ? 'Access control' : '',
      evidence: control.evidence.map((item) => ({ ...item, controlId: ids[i] })),
    }));
    const pkg = buildOscalPackage(data);
    expectValidPackage(pkg);
    const controls = catalogControls(pkg);
    expect([...controls.keys()]).toEqual(['Art. 26(6)', 'GOVERN 1.1', '4.1', 'AC-2(1)', 'AC-2.1']);
    expect(controls.get('AC-2.1')?.id).toBe('ac-2.1_2');
    expect(documentsOf(pkg)['catalog.json'].catalog.metadata.title).toBe('Odd \\*Catalog\\* controls');
  });
});

describe.each(dbKinds)('OSCAL packages of every framework on %s', (kind) => {
  let t: TestApp;
  const orgId = 'frameworks';
  const base = `/api/v1/orgs/${orgId}`;
  const exportOf = (query = '') =>
    t.request({ method: 'GET', url: `${base}/export/oscal${query ? `?${query}` : ''}` });
  async function packageOf(query = ''): Promise<OscalPackage> {
    const response = await exportOf(query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }
  async function send(method: 'PUT' | 'POST', url: string, body: unknown, expected: number) {
    const response = await t.request({ method, url: `${base}${url}`, body });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(expected);
    return response.json();
  }
  const requirementUrl = (frameworkId: string, requirementId: string) =>
    `/frameworks/${frameworkId}/requirements/${enc(requirementId)}`;

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(orgId, 'Frameworks & Co');
    const imported = await importCatalog(t.db.em(), catalogDocument);
    expect(imported.id).toBe(SP_800_53);
    // ISO/IEC 42001 controls recorded directly: the crosswalk carries them to other frameworks.
    for (const controlId of ['A.6.2.8', 'A.6.2.4', 'A.4.6']) {
      await send(
        'PUT',
        `/controls/${controlId}/status`,
        { status: 'implemented', reviewer: 'iso@fw.example' },
        200,
      );
    }
    // EU AI Act: one status, one exclusion, evidence on both.
    await send(
      'PUT',
      `${requirementUrl(EU_AI_ACT, 'Art. 26(6)')}/status`,
      { status: 'in_progress', reviewer: 'alice@fw.example', note: 'Log retention being set up' },
      200,
    );
    await send(
      'PUT',
      `${requirementUrl(EU_AI_ACT, 'Art. 5(1)')}/applicability`,
      { applicable: false, justification: 'We run no *prohibited* AI practice.', reviewer: 'bob@fw.example' },
      200,
    );
    await send(
      'POST',
      `${requirementUrl(EU_AI_ACT, 'Art. 26(6)')}/evidence`,
      { type: 'document', title: 'Deployer log policy', fileUrl: 'https://files.example.com/logs.pdf' },
      201,
    );
    await send(
      'POST',
      `${requirementUrl(EU_AI_ACT, 'Art. 26(6)')}/evidence`,
      { type: 'attestation', title: 'Log retention attested' },
      201,
    );
    // The imported catalog: an enhancement, whose id is no OSCAL token.
    await send(
      'PUT',
      `${requirementUrl(SP_800_53, 'AC-2(1)')}/status`,
      { status: 'implemented', reviewer: 'carol@fw.example' },
      200,
    );
    await send(
      'POST',
      `${requirementUrl(SP_800_53, 'AC-2(1)')}/evidence`,
      { type: 'link', title: 'Account automation runbook', fileUrl: 'https://wiki.example.com/ac-2-1' },
      201,
    );
    await send(
      'POST',
      '/ai-systems',
      {
        name: 'Support chatbot',
        purpose: 'Answers customers',
        riskLevel: 'limited',
        owner: 'dave@fw.example',
      },
      201,
    );
  }, 180_000);
  afterAll(() => t?.close());

  describe('EU AI Act', () => {
    let pkg: OscalPackage;
    let entries: { requirementId: string; status: string; assessment: string; applicable: boolean }[];
    beforeAll(async () => {
      const response = await exportOf(`frameworkId=${EU_AI_ACT}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="oscal-frameworks-eu-ai-act-\d{4}-\d\d-\d\d\.json"$/,
      );
      pkg = response.json();
      entries = (
        await t.request({ method: 'GET', url: `${base}/frameworks/${EU_AI_ACT}/requirements` })
      ).json().requirements;
    });

    it('validates against the OSCAL schemas, every reference resolving', () => {
      expectValidPackage(pkg);
    });

    it('holds every requirement of the framework in the catalog, each original id as its label', async () => {
      const framework = (
        await t.request({ method: 'GET', url: `/api/v1/cte/frameworks/${EU_AI_ACT}` })
      ).json();
      const controls = catalogControls(pkg);
      expect([...controls.keys()]).toEqual(
        framework.controls.map((c: { controlId?: string; id?: string }) => c.controlId ?? c.id),
      );
      expect(controls.get('Art. 26(6)')?.id).toBe('art.26.6');
      const { catalog } = documentsOf(pkg)['catalog.json'];
      expect(catalog.metadata.title).toMatch(/^EU Artificial Intelligence Act/);
      expect(sspOf(pkg)['control-implementation']['implemented-requirements']).toHaveLength(controls.size);
      expect(prop(sspOf(pkg).metadata.props, 'framework-id')).toBe(EU_AI_ACT);
    });

    it('shows a directly recorded status with a direct source and its reviewer', () => {
      const statement = statementOf(pkg, 'Art. 26(6)');
      expect(statement['by-components'][0]['implementation-status'].state).toBe('partial');
      expect(prop(statement.props, 'status')).toBe('in_progress');
      expect(prop(statement.props, 'status-source')).toBe('direct');
      expect(prop(statement.props, 'evidence-count')).toBe('2');
      const [role] = statement['responsible-roles'] ?? [];
      const party = sspOf(pkg).metadata.parties?.find((p) => p.uuid === role?.['party-uuids']?.[0]);
      expect(party?.name).toBe('alice@fw.example');
      // The implementation statement is the note recorded with the status.
      expect(statement['by-components'][0].description).toBe('Log retention being set up');
    });

    it('shows an inferred status as inferred, with what the crosswalk infers it from', () => {
      const inferred = entries.filter((entry) => entry.assessment === 'inferred');
      expect(inferred.length).toBeGreaterThan(0);
      const states: Record<string, string> = {
        implemented: 'implemented',
        in_progress: 'partial',
        not_started: 'planned',
      };
      for (const entry of inferred) {
        const statement = statementOf(pkg, entry.requirementId);
        expect(prop(statement.props, 'status-source'), entry.requirementId).toBe('inferred');
        expect(prop(statement.props, 'status')).toBe(entry.status);
        expect(prop(statement.props, 'last-updated')).toBeUndefined();
        expect(statement['by-components'][0]['implementation-status'].state).toBe(
          entry.applicable ? states[entry.status] : 'not-applicable',
        );
        expect(statement.remarks).toMatch(/inferred through the crosswalk from .*iso-42001 A\.\d/);
        if (entry.applicable) {
          expect(statement['by-components'][0].description).toMatch(
            /^Not recorded by the organization: the crosswalk infers this requirement as (implemented|in progress|not started)/,
          );
        }
      }
      const art12 = statementOf(pkg, 'Art. 12');
      expect(prop(art12.props, 'status-source')).toBe('inferred');
      expect(art12.remarks).toContain('iso-42001 A.6.2.8');
      // Neither recorded nor inferred.
      const none = entries.find((entry) => entry.assessment === 'none');
      expect(none).toBeDefined();
      expect(prop(statementOf(pkg, none?.requirementId ?? '').props, 'status-source')).toBe('none');
      const unassessed = entries.find((entry) => entry.assessment === 'none' && entry.applicable);
      expect(statementOf(pkg, unassessed?.requirementId ?? '')['by-components'][0].description).toBe(
        'Not assessed: the organization has recorded no status for this requirement and the crosswalk infers none.',
      );
      // Every statement says where its status comes from, as the requirements API does.
      for (const entry of entries) {
        expect(prop(statementOf(pkg, entry.requirementId).props, 'status-source'), entry.requirementId).toBe(
          entry.assessment,
        );
      }
    });

    it('shows an exclusion as not-applicable with its justification, and no finding for it', () => {
      const statement = statementOf(pkg, 'Art. 5(1)');
      const status = statement['by-components'][0]['implementation-status'];
      expect(status.state).toBe('not-applicable');
      expect(status.remarks).toBe('We run no \\*prohibited\\* AI practice.');
      expect(statement['by-components'][0].description).toBe(
        'Excluded from the scope of the AI management system. Justification: We run no \\*prohibited\\* AI practice.',
      );
      expect(prop(statement.props, 'applicable')).toBe('false');
      // Only the applicability was recorded: the status's source is what the requirements API says.
      const entry = entries.find((e) => e.requirementId === 'Art. 5(1)');
      expect(entry?.applicable).toBe(false);
      expect(prop(statement.props, 'status-source')).toBe(entry?.assessment);
      const target = catalogControls(pkg).get('Art. 5(1)')?.parts?.[0].id;
      expect(resultOf(pkg).findings?.some((f) => f.target['target-id'] === target)).toBe(false);
    });

    it('puts the evidence in the assessment results, linked to the SSP resources and the finding', () => {
      const ssp = sspOf(pkg);
      const resources = ssp['back-matter']?.resources ?? [];
      expect(resources.map((r) => r.title).sort()).toEqual(['Deployer log policy', 'Log retention attested']);
      const statement = statementOf(pkg, 'Art. 26(6)');
      expect(statement.links?.map((link) => link.href).sort()).toEqual(
        resources.map((r) => `#${r.uuid}`).sort(),
      );
      const result = resultOf(pkg);
      expect(result.observations?.map((o) => o.title).sort()).toEqual([
        'Deployer log policy',
        'Log retention attested',
      ]);
      for (const observation of result.observations ?? []) {
        expect(resources.map((r) => `ssp.json#${r.uuid}`)).toContain(
          observation['relevant-evidence'][0].href,
        );
        expect(observation.description).toMatch(/recorded for requirement Art\. 26\(6\)\.$/);
      }
      const finding = result.findings?.find((f) => f['implementation-statement-uuid'] === statement.uuid);
      expect(finding?.target['target-id']).toBe('art.26.6_smt');
      expect(finding?.['related-observations']).toHaveLength(2);
      expect(finding?.target.status).toEqual({ state: 'not-satisfied', reason: 'other' });
      const applicable = entries.filter((entry) => entry.applicable).length;
      expect(result.findings).toHaveLength(applicable);
    });

    it('keeps its UUIDs across exports, and shares none with the ISO/IEC 42001 package', async () => {
      const again = await packageOf(`frameworkId=${EU_AI_ACT}`);
      const before = uuidsByPath(pkg);
      const after = uuidsByPath(again);
      expect([...after.keys()]).toEqual([...before.keys()]);
      for (const [path, uuid] of before) if (path !== RESULT_PATH) expect(after.get(path), path).toBe(uuid);
      const iso = new Set(uuidsByPath(await packageOf()).values());
      expect([...before.values()].filter((uuid) => iso.has(uuid))).toEqual([]);
    });

    it('zips the same five documents', async () => {
      const response = await exportOf(`frameworkId=${EU_AI_ACT}&format=zip`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/zip');
      expect(response.headers['content-disposition']).toMatch(
        /filename="oscal-frameworks-eu-ai-act-[\d-]+\.zip"$/,
      );
      const files = unzipSync(new Uint8Array(response.rawPayload));
      expect(Object.keys(files).sort()).toEqual(Object.keys(KINDS).sort());
      const documents = Object.fromEntries(
        Object.entries(files).map(([name, bytes]) => [name, JSON.parse(Buffer.from(bytes).toString('utf8'))]),
      );
      expectValidPackage({ 'oscal-package': { 'oscal-version': '1.2.1', documents } } as OscalPackage);
      expect(documents['ssp.json']['system-security-plan']['control-implementation']).toEqual(
        sspOf(pkg)['control-implementation'],
      );
    });
  });

  it('exports an imported OSCAL catalog (NIST SP 800-53): an SSP of the org against it', async () => {
    const pkg = await packageOf(`frameworkId=${SP_800_53}`);
    expectValidPackage(pkg);
    const controls = catalogControls(pkg);
    expect(controls.size).toBe(322 + 867 - 182);
    expect(controls.get('AC-2(1)')?.id).toBe('ac-2.1');
    expect(documentsOf(pkg)['catalog.json'].catalog.groups?.find((g) => g.id === 'ac')?.title).toBe(
      'Access Control',
    );
    const statement = statementOf(pkg, 'AC-2(1)');
    expect(statement['by-components'][0]['implementation-status'].state).toBe('implemented');
    expect(prop(statement.props, 'status-source')).toBe('direct');
    expect(prop(statementOf(pkg, 'AC-1').props, 'status-source')).toBe('none');
    expect(statementOf(pkg, 'AC-1')['by-components'][0]['implementation-status'].state).toBe('planned');
    const result = resultOf(pkg);
    expect(result.observations?.map((o) => o.title)).toEqual(['Account automation runbook']);
    const finding = result.findings?.find((f) => f['implementation-statement-uuid'] === statement.uuid);
    expect(finding?.target.status).toEqual({ state: 'satisfied', reason: 'pass' });
    expect(finding?.['related-observations']?.[0]['observation-uuid']).toBe(result.observations?.[0].uuid);
  });

  it('exports every built-in framework as a valid package', async () => {
    for (const frameworkId of BUILTIN_FRAMEWORK_IDS) {
      const pkg = await packageOf(`frameworkId=${frameworkId}`);
      const problems = validateOscalPackage(pkg);
      expect(problems, frameworkId).toEqual([]);
    }
  }, 120_000);

  it('keeps the ISO/IEC 42001 package (the default) as it was, statements marked direct', async () => {
    const pkg = await packageOf();
    expectValidPackage(pkg);
    const explicit = await packageOf('frameworkId=iso-42001');
    const before = uuidsByPath(pkg);
    const after = uuidsByPath(explicit);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [path, uuid] of before) if (path !== RESULT_PATH) expect(after.get(path), path).toBe(uuid);
    expect(sspOf(explicit)['control-implementation']).toEqual(sspOf(pkg)['control-implementation']);
    // The UUIDs and titles ISO/IEC 42001 packages have always had.
    const v5 = (...parts: string[]) => referenceUuidV5(JSON.stringify(parts), OSCAL_UUID_NAMESPACE);
    const { catalog } = documentsOf(pkg)['catalog.json'];
    expect(catalog.uuid).toBe(catalogUuid);
    expect(catalogUuid).toBe(v5('catalog', 'iso-42001', '2023'));
    expect(catalog.metadata.title).toBe('ISO/IEC 42001:2023 Annex A controls');
    expect(catalog.controls).toBeUndefined();
    expect(catalog.groups?.[0].id).toBe('a.2');
    const ssp = sspOf(pkg);
    expect(ssp.uuid).toBe(v5('org', orgId, 'ssp'));
    expect(ssp.metadata.title).toBe('Frameworks \\& Co: ISO/IEC 42001:2023 AI management system plan');
    expect(prop(ssp.metadata.props, 'framework-id')).toBeUndefined();
    const requirements = ssp['control-implementation']['implemented-requirements'];
    expect(requirements).toHaveLength(38);
    const a628 = requirements.find((r) => r['control-id'] === 'a.6.2.8');
    expect(a628?.uuid).toBe(v5('org', orgId, 'implemented-requirement', 'A.6.2.8'));
    expect(a628?.props?.map((p) => p.name)).toEqual([
      'status',
      'applicable',
      'evidence-count',
      'last-updated',
      'status-source',
    ]);
    expect(requirements.every((r) => prop(r.props, 'status-source') === 'direct')).toBe(true);
    expect(requirements.every((r) => r.remarks === undefined)).toBe(true);
    expect(EXPORT_FRAMEWORK).toMatchObject({
      id: 'iso-42001',
      name: 'ISO/IEC 42001:2023',
      version: '2023',
      scope: 'Annex A',
    });
  });

  it('answers 404 for an unknown framework and 400 for another framework with a snapshot', async () => {
    const unknown = await exportOf('frameworkId=no-such-framework');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      error: {
        code: 'RESOURCE_NOT_FOUND',
        message: 'Framework not found',
        details: { frameworkId: 'no-such-framework' },
      },
    });
    const zip = await exportOf('frameworkId=no-such-framework&format=zip');
    expect(zip.statusCode).toBe(404);

    const snapshot = await send('POST', '/compliance/snapshot', { label: `oscal-${kind}` }, 201);
    const refused = await exportOf(`frameworkId=${EU_AI_ACT}&snapshotId=${snapshot.snapshotId}`);
    expect(refused.statusCode).toBe(400);
    const { error } = refused.json();
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.details.fields).toEqual([
      { field: 'frameworkId', message: expect.stringContaining('snapshotId') },
    ]);
    expect((await exportOf(`frameworkId=${EU_AI_ACT}&snapshotId=nope`)).statusCode).toBe(400);

    // ISO/IEC 42001 snapshots export as they were frozen.
    const frozen = await packageOf(`snapshotId=${snapshot.snapshotId}`);
    expectValidPackage(frozen);
    expect(prop(sspOf(frozen).metadata.props, 'snapshot-id')).toBe(snapshot.snapshotId);
    expect(sspOf(frozen).metadata.version).toBe(`snapshot oscal-${kind}`);
    const also = await exportOf(`frameworkId=iso-42001&snapshotId=${snapshot.snapshotId}&format=zip`);
    expect(also.statusCode, also.body).toBe(200);
    expect(also.headers['content-disposition']).toMatch(
      new RegExp(`filename="oscal-frameworks-[\\d-]+-oscal-${kind}\\.zip"$`),
    );
    const missing = await exportOf('snapshotId=nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { snapshotId: 'nope' },
    });
  });

  it('documents frameworkId in the OpenAPI document', async () => {
    const { paths } = (await t.request({ method: 'GET', url: '/api/v1/openapi.json', key: null })).json();
    const operation = paths['/api/v1/orgs/{orgId}/export/oscal'].get;
    const parameter = operation.parameters.find(
      (p: { name: string; in: string }) => p.name === 'frameworkId',
    );
    expect(parameter).toMatchObject({ in: 'query', required: false });
    expect(parameter.description ?? parameter.schema.description).toMatch(/iso-42001/);
    expect(operation.description).toMatch(/frameworkId/);
    expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['format', 'frameworkId', 'snapshotId']),
    );
  });
});

describe.runIf(dbKinds.includes('postgres'))('framework OSCAL exports on a BullMQ worker', () => {
  const prefix = `test-oscal-fw-${randomBytes(4).toString('hex')}`;
  const log = pino({ level: 'silent' });
  let t: TestApp;
  let pool: WorkerPool;

  beforeAll(async () => {
    t = await createTestApp('postgres', {
      jobs: (db) => new BullmqJobRunner({ url: REDIS_TEST_URL, db, log, prefix, waitMs: 60_000 }),
    });
    pool = startBullmqWorkers({ url: REDIS_TEST_URL, db: t.db, log, prefix, jobs: [exportJob] });
    await Promise.all(pool.workers.map((worker) => worker.waitUntilReady()));
    await t.createOrg('worker-fw');
    const response = await t.request({
      method: 'PUT',
      url: `/api/v1/orgs/worker-fw/frameworks/gdpr/requirements/${enc('Art. 30')}/status`,
      body: { status: 'implemented', reviewer: 'dpo@fw.example' },
    });
    expect(response.statusCode, response.body).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await pool?.close();
    await t?.close();
    await removePrefix(REDIS_TEST_URL, prefix);
  });

  it('carries the framework to the worker', async () => {
    expect(t.jobs.kind).toBe('bullmq');
    const response = await t.request({
      method: 'GET',
      url: '/api/v1/orgs/worker-fw/export/oscal?frameworkId=gdpr',
    });
    expect(response.statusCode, response.body).toBe(200);
    const pkg: OscalPackage = response.json();
    expect(validateOscalPackage(pkg)).toEqual([]);
    expect(prop(sspOf(pkg).metadata.props, 'framework-id')).toBe('gdpr');
    expect(prop(statementOf(pkg, 'Art. 30').props, 'status-source')).toBe('direct');
    const unknown = await t.request({
      method: 'GET',
      url: '/api/v1/orgs/worker-fw/export/oscal?frameworkId=nope',
    });
    expect(unknown.statusCode).toBe(404);
  });
});
