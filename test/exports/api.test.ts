import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEvidence } from '../../src/features/evidence/evidence.store.js';
import { loadExportData } from '../../src/features/exports/export.service.js';
import {
  checkOscalConstraints,
  checkOscalReferences,
  type OscalDocumentKind,
  type OscalPackage,
  validateOscalDocument,
} from '../../src/features/exports/oscal/index.js';
import { SOA_CSV_COLUMNS } from '../../src/features/exports/soa/index.js';
import { SOA_EVIDENCE_LIMIT } from '../../src/features/exports/soa/soa-export.js';
import { toIso } from '../../src/platform/db/instant.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { addMember, signIn } from '../support/people.js';
import { type SeededOrg, seedExportOrg, TRICKS } from './api-org.factory.js';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = formats as unknown as typeof formats.default;

const KINDS: Record<string, OscalDocumentKind> = {
  'catalog.json': 'catalog',
  'profile.json': 'profile',
  'ssp.json': 'ssp',
  'assessment-plan.json': 'assessment-plan',
  'assessment-results.json': 'assessment-results',
};

const STATES = { implemented: 'implemented', in_progress: 'partial', not_started: 'planned' } as const;

function expectValidPackage(pkg: OscalPackage): void {
  expect(Object.keys(pkg['oscal-package'].documents)).toEqual(Object.keys(KINDS));
  for (const [file, document] of Object.entries(pkg['oscal-package'].documents)) {
    expect(validateOscalDocument(KINDS[file], document).errors, file).toEqual([]);
  }
  expect(checkOscalReferences(pkg)).toEqual([]);
  expect(checkOscalConstraints(pkg)).toEqual([]);
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

async function pdfText(body: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(body) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

describe('toIso', () => {
  it('reads the timestamps PostgreSQL writes, in UTC or with an offset, as text or as JSON', () => {
    expect(toIso('2026-11-22 03:01:45.489+00')).toBe('2026-11-22T03:01:45.489Z');
    expect(toIso('2026-11-22 03:01:45.489123+00')).toBe('2026-11-22T03:01:45.489Z');
    expect(toIso('2026-01-01 10:00:00.5+00')).toBe('2026-01-01T10:00:00.500Z');
    expect(toIso('2026-01-01 10:00:00+00')).toBe('2026-01-01T10:00:00.000Z');
    expect(toIso('2026-01-01 10:00:00.25+05:30')).toBe('2026-01-01T04:30:00.250Z');
    expect(toIso('2026-01-01 01:00:00-08')).toBe('2026-01-01T09:00:00.000Z');
    expect(toIso('2026-11-22T03:01:45.489123+00:00')).toBe('2026-11-22T03:01:45.489Z');
    expect(toIso(new Date('2026-03-04T05:06:07.008Z'))).toBe('2026-03-04T05:06:07.008Z');
  });
});

describe.each(dbKinds)('exports over HTTP on %s', (kind) => {
  let t: TestApp;
  let org: SeededOrg;
  const url = (path: string) => `/api/v1/orgs/${org.orgId}/export/${path}`;
  const get = (path: string, key?: string | null) => t.request({ method: 'GET', url: url(path), key });

  beforeAll(async () => {
    t = await createTestApp(kind);
    org = await seedExportOrg(t, 'acme');
  }, 120_000);
  afterAll(() => t?.close());

  describe('OSCAL', () => {
    let pkg: OscalPackage;
    beforeAll(async () => {
      const response = await get('oscal');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="oscal-acme-\d{4}-\d\d-\d\d\.json"$/,
      );
      pkg = response.json();
    });

    it('is the contract envelope of five documents that each validate, with every reference resolving', () => {
      expect(pkg['oscal-package']['oscal-version']).toBe('1.2.1');
      expectValidPackage(pkg);
    });

    it('records every control with its status, exclusions with their justification, and the AI systems', () => {
      const ssp = pkg['oscal-package'].documents['ssp.json']['system-security-plan'];
      const requirements = ssp['control-implementation']['implemented-requirements'];
      expect(requirements).toHaveLength(org.controls.length);
      for (const control of org.controls) {
        const requirement = requirements.find((r) => r['control-id'] === control.controlId.toLowerCase());
        const status = requirement?.['by-components'][0]['implementation-status'];
        expect(status?.state, control.controlId).toBe(
          control.applicable ? STATES[control.status] : 'not-applicable',
        );
        if (!control.applicable) expect(status?.remarks).toBeTruthy();
        expect(requirement?.links ?? []).toHaveLength(control.evidenceTitles.length);
      }
      const excluded = requirements.find((r) => r['control-id'] === org.controls[5].controlId.toLowerCase());
      expect(excluded?.['by-components'][0]['implementation-status'].remarks).toBe(
        org.controls[5].justification,
      );
      const titles = ssp['system-implementation'].components.map((component) => component.title);
      expect(titles).toEqual(expect.arrayContaining(['Support chatbot', 'Credit \\<scoring\\>']));
      expect(ssp['back-matter']?.resources).toHaveLength(org.evidenceCount);
    });

    it('has one observation per evidence item and one finding per applicable control', () => {
      const [result] =
        pkg['oscal-package'].documents['assessment-results.json']['assessment-results'].results;
      expect(result.observations).toHaveLength(org.evidenceCount);
      expect(result.findings).toHaveLength(org.controls.filter((control) => control.applicable).length);
    });

    it('keeps every UUID but the per-export result across two exports', async () => {
      const again: OscalPackage = (await get('oscal')).json();
      const before = uuidsByPath(pkg);
      const after = uuidsByPath(again);
      expect([...after.keys()]).toEqual([...before.keys()]);
      const changed = [...before].filter(([path, uuid]) => after.get(path) !== uuid).map(([path]) => path);
      expect(
        changed.every(
          (path) => path === '/oscal-package/documents/assessment-results.json/assessment-results/results/0',
        ),
      ).toBe(true);
      expect(before.size).toBeGreaterThan(2 * org.evidenceCount);
    });

    it('returns the same five documents as a zip archive', async () => {
      const response = await get('oscal?format=zip');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/zip');
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="oscal-acme-[\d-]+\.zip"$/,
      );
      const files = unzipSync(new Uint8Array(response.rawPayload));
      expect(Object.keys(files)).toEqual(Object.keys(KINDS));
      const documents = Object.fromEntries(
        Object.entries(files).map(([name, bytes]) => [name, JSON.parse(Buffer.from(bytes).toString('utf8'))]),
      );
      const zipped = { 'oscal-package': { 'oscal-version': '1.2.1', documents } } as OscalPackage;
      expectValidPackage(zipped);
      const plan = (p: OscalPackage) => p['oscal-package'].documents['ssp.json']['system-security-plan'];
      expect(plan(zipped)['control-implementation']).toEqual(plan(pkg)['control-implementation']);
      expect(plan(zipped)['back-matter']).toEqual(plan(pkg)['back-matter']);
    });

    it('refuses to send a package that does not validate: 500 naming the problem', async () => {
      await t.createOrg('ancient');
      // OSCAL date-times must fall in the years 1900 to 2999; nothing stops older data in the database.
      await t.db.em().transactional((tx) =>
        insertEvidence(tx, [
          {
            orgId: 'ancient',
            frameworkId: 'iso-42001',
            requirementId: 'A.2.2',
            type: 'attestation',
            title: 'Found in the archive',
            createdAt: new Date('1850-01-01T00:00:00Z'),
          },
        ]),
      );
      const response = await t.request({ method: 'GET', url: '/api/v1/orgs/ancient/export/oscal' });
      expect(response.statusCode).toBe(500);
      const { error } = response.json();
      expect(error.code).toBe('INTERNAL_ERROR');
      expect(error.message).toMatch(
        /^The OSCAL export is invalid \(1 problem\(s\)\): assessment-results\.json /,
      );
      expect(error.message).toContain('/observations/0/collected');
      expect(error.details).toMatchObject({ problems: 1 });
      // The Statement of Applicability has no such rule.
      const soa = await t.request({ method: 'GET', url: '/api/v1/orgs/ancient/export/soa?format=csv' });
      expect(soa.statusCode).toBe(200);
    });

    it('refuses an unknown format and an unknown org', async () => {
      const unknown = await get('oscal?format=xml');
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error.code).toBe('BAD_REQUEST');
      const missing = await t.request({ method: 'GET', url: '/api/v1/orgs/nobody/export/oscal' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.message).toBe('Organization not found');
    });
  });

  describe('Statement of Applicability', () => {
    it('defaults to JSON with every control, the header and the score', async () => {
      const response = await get('soa');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="soa-acme-[\d-]+\.json"$/,
      );
      const soa = response.json();
      const compliance = (
        await t.request({ method: 'GET', url: `/api/v1/orgs/${org.orgId}/compliance` })
      ).json();
      expect(soa).toMatchObject({
        orgId: 'acme',
        orgName: TRICKS.orgName,
        score: compliance.score,
        snapshot: null,
      });
      expect(soa.counts).toEqual(compliance.counts);
      expect(soa.controls).toHaveLength(org.controls.length);
      for (const control of org.controls) {
        const row = soa.controls.find((r: { controlId: string }) => r.controlId === control.controlId);
        expect(row).toMatchObject({
          status: control.status,
          applicable: control.applicable,
          justification: control.justification,
          reviewer: control.reviewer,
          evidenceCount: control.evidenceTitles.length,
        });
        expect(row.evidence.map((e: { title: string }) => e.title).sort()).toEqual(
          [...control.evidenceTitles].sort(),
        );
      }
    });

    it('writes RFC 4180 CSV that parses back, with formulas neutralised', async () => {
      const response = await get('soa?format=csv');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
      expect(response.headers['content-disposition']).toMatch(/filename="soa-acme-[\d-]+\.csv"$/);
      expect(response.body).toContain('\r\n');
      const records: Record<string, string>[] = parse(response.body, { columns: true });
      expect(Object.keys(records[0])).toEqual([...SOA_CSV_COLUMNS]);
      expect(records).toHaveLength(org.controls.length);
      for (const control of org.controls) {
        const record = records.find((r) => r.controlId === control.controlId);
        expect(record?.status).toBe(control.status);
        expect(record?.applicable).toBe(String(control.applicable));
      }
      const byIndex = (i: number) => records.find((r) => r.controlId === org.controls[i].controlId);
      expect(byIndex(4)?.justification).toBe(`'${TRICKS.plusJustification}`);
      expect(byIndex(1)?.reviewer).toBe(`'${TRICKS.atReviewer}`);
      expect(byIndex(2)?.evidenceReferences).toContain(TRICKS.formulaTitle);
      for (const record of records) {
        for (const value of Object.values(record)) expect(value).not.toMatch(/^[=+\-@\t\r]/);
      }
    });

    it('writes Markdown with table syntax escaped', async () => {
      const response = await get('soa?format=markdown');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(/filename="soa-acme-[\d-]+\.md"$/);
      const lines = response.body.split('\n');
      const rows = lines.filter((line: string) => /^\| A\.\d/.test(line));
      expect(rows).toHaveLength(org.controls.length);
      // Every row keeps exactly the table's nine cells: user pipes are escaped.
      const header = lines.find((line: string) => line.startsWith('| Control'));
      const cells = (line: string) => line.replace(/\\\|/g, '').split('|').length;
      for (const row of rows) expect(cells(row)).toBe(cells(header ?? ''));
      expect(response.body).toContain('\\<script\\>');
      expect(response.body).not.toContain('<script>');
      expect(response.body).toContain('Acme \\| \\*AI\\* \\<Ltd\\> \\& \\[co\\](javascript:x)');
    });

    it('writes a paginated PDF whose text carries the title, the org, the score and the controls', async () => {
      const response = await get('soa?format=pdf');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toMatch(/filename="soa-acme-[\d-]+\.pdf"$/);
      const text = await pdfText(response.rawPayload);
      const compliance = (
        await t.request({ method: 'GET', url: `/api/v1/orgs/${org.orgId}/compliance` })
      ).json();
      expect(text).toContain('Statement of Applicability');
      expect(text).toContain('Acme | *AI* <Ltd>');
      expect(text).toContain(`${compliance.score.toFixed(1)} %`);
      for (const control of org.controls) expect(text).toContain(control.controlId);
    });

    it('lists the newest evidence references of a busy control and counts the rest; OSCAL keeps them all', async () => {
      const busy = 'busy';
      await t.createOrg(busy);
      const total = SOA_EVIDENCE_LIMIT + 7;
      await t.db.em().transactional((tx) =>
        insertEvidence(
          tx,
          Array.from({ length: total }, (_, i) => ({
            orgId: busy,
            frameworkId: 'iso-42001',
            requirementId: 'A.2.2',
            type: 'attestation' as const,
            title: `Run ${i}`,
            createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
          })),
        ),
      );
      const soa = (await t.request({ method: 'GET', url: `/api/v1/orgs/${busy}/export/soa` })).json();
      const row = soa.controls.find((r: { controlId: string }) => r.controlId === 'A.2.2');
      expect(row.evidenceCount).toBe(total);
      expect(row.evidence).toHaveLength(SOA_EVIDENCE_LIMIT);
      expect(row.evidence[0].title).toBe(`Run ${total - 1}`);
      const csv = await t.request({ method: 'GET', url: `/api/v1/orgs/${busy}/export/soa?format=csv` });
      const record = (parse(csv.body, { columns: true }) as Record<string, string>[])[0];
      expect(record.evidenceReferences).toMatch(/; and 7 more$/);
      const pkg: OscalPackage = (
        await t.request({ method: 'GET', url: `/api/v1/orgs/${busy}/export/oscal` })
      ).json();
      const [result] =
        pkg['oscal-package'].documents['assessment-results.json']['assessment-results'].results;
      expect(result.observations).toHaveLength(total);
    });

    it('answers 400 for an unknown format and 404 for an unknown snapshot', async () => {
      for (const format of ['xml', 'CSV', '']) {
        const response = await get(`soa?format=${format}`);
        expect(response.statusCode, format).toBe(400);
        expect(response.json().error.code).toBe('BAD_REQUEST');
      }
      const missing = await get('soa?snapshotId=nope');
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error).toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
        message: 'Snapshot not found',
      });
    });

    it('renders a snapshot as it was frozen, whatever changed afterwards', async () => {
      const base = `/api/v1/orgs/${org.orgId}`;
      const target = org.controls.find((control) => control.applicable && control.status === 'not_started');
      if (!target) throw new Error('no applicable not-started control');
      const taken = await t.request({
        method: 'POST',
        url: `${base}/compliance/snapshot`,
        body: { label: 'Audit 2026' },
      });
      expect(taken.statusCode).toBe(201);
      const snapshot = taken.json();
      await t.request({
        method: 'PUT',
        url: `${base}/controls/${target.controlId}/status`,
        body: { status: 'implemented', reviewer: 'erin@acme.example' },
      });
      await t.request({
        method: 'POST',
        url: `${base}/controls/${target.controlId}/evidence`,
        body: { type: 'attestation', title: 'Added after the snapshot' },
      });

      const frozen = (await get(`soa?snapshotId=${snapshot.snapshotId}`)).json();
      const live = (await get('soa')).json();
      const rowOf = (soa: { controls: { controlId: string }[] }) =>
        soa.controls.find((row) => row.controlId === target.controlId);
      expect(rowOf(frozen)).toMatchObject({
        status: 'not_started',
        evidenceCount: target.evidenceTitles.length,
      });
      expect(rowOf(live)).toMatchObject({
        status: 'implemented',
        evidenceCount: target.evidenceTitles.length + 1,
      });
      expect(frozen.snapshot).toMatchObject({ snapshotId: snapshot.snapshotId, label: 'Audit 2026' });
      expect(frozen.score).toBe(snapshot.score);
      expect(live.score).toBeGreaterThan(snapshot.score);

      const csv = await get(`soa?format=csv&snapshotId=${snapshot.snapshotId}`);
      const records: Record<string, string>[] = parse(csv.body, { columns: true });
      expect(records.find((r) => r.controlId === target.controlId)?.status).toBe('not_started');
      expect(records[0].snapshotLabel).toBe('Audit 2026');
      expect(csv.headers['content-disposition']).toMatch(/filename="soa-acme-[\d-]+-Audit-2026\.csv"$/);
      const pdf = await pdfText((await get(`soa?format=pdf&snapshotId=${snapshot.snapshotId}`)).rawPayload);
      expect(pdf).toMatch(/Snapshot\s+Audit 2026/);
      expect(pdf).toContain(`SHA-256 ${snapshot.contentHash}`);
      expect(frozen.asOf).toBe(snapshot.createdAt);
    });

    it('carries the status note and marks evidence expired as of the export, as the gate does', async () => {
      await t.createOrg('noted', 'Noted Ltd');
      const base = '/api/v1/orgs/noted';
      const note = 'Model cards reviewed by the AI board each quarter.';
      const put = await t.request({
        method: 'PUT',
        url: `${base}/controls/A.6.2.4/status`,
        body: { status: 'implemented', reviewer: 'alice@noted.example', note },
      });
      expect(put.statusCode, put.body).toBe(200);
      for (const [title, expiresAt] of [
        ['Validation report 2025', '2026-01-31T00:00:00.000Z'],
        ['Validation report 2026', '2026-06-30T00:00:00.000Z'],
      ]) {
        const posted = await t.request({
          method: 'POST',
          url: `${base}/controls/A.6.2.4/evidence`,
          body: { type: 'document', title, fileUrl: 'https://files.noted.example/validation.pdf', expiresAt },
        });
        expect(posted.statusCode, posted.body).toBe(201);
      }
      const soa = (await t.request({ method: 'GET', url: `${base}/export/soa` })).json();
      const row = soa.controls.find((r: { controlId: string }) => r.controlId === 'A.6.2.4');
      expect(row).toMatchObject({ status: 'implemented', note, evidenceExpired: true });
      expect(
        row.evidence.map((e: { expired: boolean; expiresAt: string }) => [e.expiresAt, e.expired]),
      ).toEqual([
        ['2026-06-30T00:00:00.000Z', true],
        ['2026-01-31T00:00:00.000Z', true],
      ]);
      // The gate's view of the same record.
      const record = (
        await t.request({ method: 'GET', url: `${base}/frameworks/iso-42001/requirements/A.6.2.4` })
      ).json();
      expect(record.evidenceExpired).toBe(true);
      const csv = await t.request({ method: 'GET', url: `${base}/export/soa?format=csv` });
      const line = (parse(csv.body, { columns: true }) as Record<string, string>[]).find(
        (r) => r.controlId === 'A.6.2.4',
      );
      expect(line).toMatchObject({ note, evidenceExpired: 'true' });
      expect(line?.evidenceReferences).toMatch(
        /^EXPIRED 2026-06-30: Validation report 2026 \(document, files\.noted\.example\/validation\.pdf, added \d{4}-\d\d-\d\d\); EXPIRED 2026-01-31: /,
      );
      const markdown = (await t.request({ method: 'GET', url: `${base}/export/soa?format=markdown` })).body;
      expect(markdown).toContain(`| Implemented (all evidence expired) | ${note} |`);
      const pkg: OscalPackage = (await t.request({ method: 'GET', url: `${base}/export/oscal` })).json();
      expectValidPackage(pkg);
      const statement = pkg['oscal-package'].documents['ssp.json']['system-security-plan'][
        'control-implementation'
      ]['implemented-requirements'].find((r) => r['control-id'] === 'a.6.2.4');
      expect(statement?.['by-components'][0].description).toBe(note);
    });

    it('names who exported it; the person prepares it unless a key or an auditor exports it', async () => {
      await addMember(t, 'acme', { email: 'olivia@acme.example', name: 'Olivia Owner', role: 'owner' });
      await addMember(t, 'acme', {
        email: 'axel@audit.example',
        name: 'Axel Auditor',
        role: 'auditor',
        expiresAt: '2099-01-01T00:00:00.000Z',
      });
      const exportAs = async (cookie: string) => {
        const response = await t.request({ method: 'GET', url: url('soa'), key: null, headers: { cookie } });
        expect(response.statusCode, response.body).toBe(200);
        return response.json();
      };
      const owner = await exportAs(await signIn(t, 'olivia@acme.example', 'correct horse battery'));
      expect(owner.exportedBy).toEqual({
        type: 'user',
        name: 'Olivia Owner',
        email: 'olivia@acme.example',
        role: 'owner',
      });
      expect(owner.approval.preparedBy).toEqual({
        name: 'Olivia Owner',
        role: 'owner',
        date: owner.generatedAt,
      });
      const auditor = await exportAs(await signIn(t, 'axel@audit.example', 'correct horse battery'));
      expect(auditor.exportedBy).toMatchObject({ type: 'user', name: 'Axel Auditor', role: 'auditor' });
      expect(auditor.approval.preparedBy).toEqual({ name: null, role: null, date: null });
      const byKey = (await get('soa', await t.createKey('acme', ['export']))).json();
      expect(byKey.exportedBy).toMatchObject({ type: 'key', email: null, role: null });
      expect(byKey.approval.preparedBy).toEqual({ name: null, role: null, date: null });
      const pdf = await pdfText(
        (
          await t.request({
            method: 'GET',
            url: url('soa?format=pdf'),
            key: null,
            headers: { cookie: await signIn(t, 'olivia@acme.example', 'correct horse battery') },
          })
        ).rawPayload,
      );
      expect(pdf).toMatch(/Prepared by\s+Olivia Owner\s+owner/);
    });

    it('documents the JSON statement in OpenAPI, and the statement it sends validates against it', async () => {
      const { paths } = (await t.request({ method: 'GET', url: '/api/v1/openapi.json', key: null })).json();
      const schema =
        paths['/api/v1/orgs/{orgId}/export/soa'].get.responses['200'].content['application/json'].schema;
      expect(Object.keys(schema.properties)).toEqual(
        expect.arrayContaining(['asOf', 'exportedBy', 'approval', 'snapshot', 'controls']),
      );
      expect(Object.keys(schema.properties.controls.items.properties)).toEqual(
        expect.arrayContaining(['note', 'evidenceExpired', 'evidence']),
      );
      expect(Object.keys(schema.properties.controls.items.properties.evidence.items.properties)).toEqual(
        expect.arrayContaining(['expiresAt', 'expired', 'effectiveDate']),
      );
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      const validate = ajv.compile(schema);
      const statement = (await get('soa')).json();
      expect(validate(statement), JSON.stringify(validate.errors)).toBe(true);
    });
  });

  it('reads every evidence row of a control across keyset pages, newest first, ties broken by id', async () => {
    await t.createOrg('paged');
    // More rows than one page, many sharing a timestamp to the microsecond.
    await t.db.em().execute(
      `insert into evidence (evidence_id, org_id, framework_id, requirement_id, type, title, created_at)
       select 'ev-' || lpad(g::text, 6, '0'), 'paged', 'iso-42001', 'A.6.2.4', 'attestation', 'Run ' || g,
         timestamptz '2026-05-01 12:00:00.123456+00' + (g / 1000) * interval '1 microsecond'
       from generate_series(1, 20050) g`,
    );
    const data = await loadExportData(t.db.em(), 'paged', { generatedAt: new Date() });
    const control = data.controls.find((c) => c.controlId === 'A.6.2.4');
    const ids = control?.evidence.map((item) => item.evidenceId) ?? [];
    expect(ids).toHaveLength(20_050);
    expect(new Set(ids).size).toBe(20_050);
    // Newest first: the highest g (latest microsecond), and within one instant the highest id.
    expect(ids.slice(0, 3)).toEqual(['ev-020050', 'ev-020049', 'ev-020048']);
    expect(ids.at(-1)).toBe('ev-000001');
    expect(control?.evidence[0].createdAt).toBe('2026-05-01T12:00:00.123Z');
  });

  describe('permissions', () => {
    it('needs the export scope, and a tenant key only exports its own org', async () => {
      const readWrite = await t.createKey('acme', ['read', 'write']);
      for (const path of ['oscal', 'soa', 'soa?format=csv']) {
        const refused = await get(path, readWrite);
        expect(refused.statusCode, path).toBe(403);
        expect(refused.json().error).toMatchObject({
          code: 'FORBIDDEN',
          details: { requiredScope: 'export' },
        });
      }
      const exporter = await t.createKey('acme', ['export']);
      expect((await get('soa?format=csv', exporter)).statusCode).toBe(200);
      await t.createOrg('other');
      const outsider = await t.createKey('other', ['export']);
      expect((await get('soa', outsider)).statusCode).toBe(403);
      expect((await get('oscal', null)).statusCode).toBe(401);
    });
  });
});
