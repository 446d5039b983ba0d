import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

// The note given with a control's status is kept on the record, as it is through the requirement routes,
// so every view of the requirement (and the SoA built from it) can show it.
describe.each(dbKinds)('a control status note on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
  });
  afterAll(() => t.close());

  it('is kept on the record, not only in the change log', async () => {
    const set = await t.request({
      method: 'PUT',
      url: '/api/v1/orgs/acme/controls/A.2.2/status',
      body: { status: 'in_progress', reviewer: 'alice', note: 'draft policy with legal' },
    });
    expect(set.statusCode).toBe(200);
    const requirement = await t.request({
      method: 'GET',
      url: '/api/v1/orgs/acme/frameworks/iso-42001/requirements/A.2.2',
    });
    expect(requirement.json().note).toBe('draft policy with legal');

    // A later status without a note leaves the note as it was.
    await t.request({
      method: 'PUT',
      url: '/api/v1/orgs/acme/controls/A.2.2/status',
      body: { status: 'implemented', reviewer: 'alice' },
    });
    const after = await t.request({
      method: 'GET',
      url: '/api/v1/orgs/acme/frameworks/iso-42001/requirements/A.2.2',
    });
    expect(after.json()).toMatchObject({ status: 'implemented', note: 'draft policy with legal' });
  });
});
