import { expect } from 'vitest';
import type { TestApp } from '../support/app.js';

export const STATUSES = ['not_started', 'in_progress', 'implemented'] as const;
export type Status = (typeof STATUSES)[number];

export interface SeededControl {
  controlId: string;
  status: Status;
  applicable: boolean;
  justification: string | null;
  reviewer: string | null;
  evidenceTitles: string[];
}

export interface SeededOrg {
  orgId: string;
  name: string;
  controls: SeededControl[];
  evidenceCount: number;
}

/** Texts that try formula, Markdown and markup injection on every writer. */
export const TRICKS = {
  orgName: 'Acme | *AI* <Ltd> & [co](javascript:x)',
  formulaTitle: '=HYPERLINK("https://evil.example","click")',
  plusJustification: '+cmd|\' /C calc\'!A0, "quoted", and\na second line',
  markdownJustification: '# not a heading\n- not a list\n| a | b |\n<script>alert(1)</script>',
  atReviewer: '@SUM(1+1)',
};

async function send(t: TestApp, method: 'POST' | 'PUT', url: string, body: unknown, expected: number) {
  const response = await t.request({ method, url, body });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(expected);
  return response.json();
}

/**
 * An org built through the API with every combination of status and applicability (cycling over the
 * library), justified exclusions, evidence of every type on some controls, two AI systems, and texts
 * that try injection on the writers.
 */
export async function seedExportOrg(t: TestApp, orgId: string): Promise<SeededOrg> {
  await t.createOrg(orgId, TRICKS.orgName);
  const library = (await t.request({ method: 'GET', url: '/api/v1/controls' })).json() as {
    controls: { controlId: string }[];
  };
  const base = `/api/v1/orgs/${orgId}`;
  const controls: SeededControl[] = [];
  let evidenceCount = 0;
  for (const [index, { controlId }] of library.controls.entries()) {
    const status = STATUSES[index % 3];
    const applicable = Math.floor(index / 3) % 2 === 0;
    let reviewer: string | null = null;
    let justification: string | null = null;
    if (status !== 'not_started') {
      reviewer = index === 1 ? TRICKS.atReviewer : 'alice@acme.example';
      await send(t, 'PUT', `${base}/controls/${controlId}/status`, { status, reviewer }, 200);
    }
    if (!applicable) {
      justification =
        index === 3
          ? TRICKS.markdownJustification
          : index === 4
            ? TRICKS.plusJustification
            : `Out of scope: ${controlId} does not apply to our AI systems.`;
      reviewer = 'bob@acme.example';
      await send(
        t,
        'PUT',
        `${base}/controls/${controlId}/applicability`,
        { applicable: false, justification, reviewer },
        200,
      );
    }
    const evidence: { type: string; title: string; fileUrl?: string; description?: string }[] = [];
    if (index % 4 >= 1) evidence.push({ type: 'attestation', title: `Attestation for ${controlId}` });
    if (index % 4 >= 2) {
      evidence.push({
        type: 'document',
        title: index === 2 ? TRICKS.formulaTitle : `Policy document for ${controlId}`,
        fileUrl: `https://files.example.com/${controlId}/policy.pdf`,
        description: 'Signed policy, *approved* by the board.',
      });
    }
    if (index % 4 === 3) {
      evidence.push({
        type: 'link',
        title: `Runbook | ${controlId}`,
        fileUrl: 'https://wiki.example.com/runbook',
      });
    }
    for (const item of evidence) await send(t, 'POST', `${base}/controls/${controlId}/evidence`, item, 201);
    evidenceCount += evidence.length;
    controls.push({
      controlId,
      status,
      applicable,
      justification,
      reviewer,
      evidenceTitles: evidence.map((item) => item.title),
    });
  }
  await send(
    t,
    'POST',
    `${base}/ai-systems`,
    {
      name: 'Support chatbot',
      owner: 'carol@acme.example',
      purpose: 'Answers customer questions',
      riskLevel: 'limited',
      lifecycleStage: 'deployed',
    },
    201,
  );
  await send(
    t,
    'POST',
    `${base}/ai-systems`,
    {
      name: 'Credit <scoring>',
      description: 'Scores loan applications.',
      owner: 'dave@acme.example',
      purpose: 'Lending decisions',
      riskLevel: 'high',
    },
    201,
  );
  return { orgId, name: TRICKS.orgName, controls, evidenceCount };
}
