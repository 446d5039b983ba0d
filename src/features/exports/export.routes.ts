import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FeatureRoutes } from '../../context.js';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { principalOf } from '../auth/auth.plugin.js';
import { sendRecordReport } from '../cte/report-cache.js';
import { collectAfterExport, runExport } from './export.job.js';
import {
  exportErrorResponses,
  fileResponse,
  OscalExportQuery,
  SoaChecksSchema,
  SoaExportQuery,
  SoaStatementSchema,
} from './export.schemas.js';
import {
  loadSoaChecks,
  refuseSnapshotOfOtherFramework,
  requesterOf,
  requireExportFramework,
  requireSnapshot,
} from './export.service.js';
import { contentDisposition, decodedArtifact, type ExportArtifact, yieldToLoop } from './export-artifact.js';
import { type OscalDocumentKind, warmOscalValidators } from './oscal/index.js';
import { SOA_CHECK_SEVERITY_TEXT } from './soa/soa-checks.js';

const WARM_AFTER_MS = 2000;
/** A body this large is worth a collection once it has been sent (see `collectAfterExport`). */
const LARGE_BODY_BYTES = 8 << 20;
const EXPORTED_KINDS: OscalDocumentKind[] = [
  'catalog',
  'profile',
  'ssp',
  'assessment-plan',
  'assessment-results',
];

async function warmExportSchemas(): Promise<void> {
  for (const kind of EXPORTED_KINDS) {
    warmOscalValidators([kind]);
    await yieldToLoop();
  }
}

/** Whether `Accept-Encoding` admits gzip (by name or `*`, with a non-zero q). */
function acceptsGzip(request: FastifyRequest): boolean {
  return String(request.headers['accept-encoding'] ?? '')
    .split(',')
    .some((part) => {
      const [coding, ...params] = part.trim().toLowerCase().split(';');
      const quality = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
      return (coding === 'gzip' || coding === '*') && (quality === undefined || Number(quality.slice(2)) > 0);
    });
}

/**
 * Sends the document. A gzipped hand-over from a worker goes out as is to clients that accept gzip,
 * so the representation may depend on `Accept-Encoding`.
 */
async function send(request: FastifyRequest, reply: FastifyReply, artifact: ExportArtifact) {
  const sent = artifact.contentEncoding && !acceptsGzip(request) ? await decodedArtifact(artifact) : artifact;
  reply.header('vary', 'accept-encoding');
  if (sent.contentEncoding) reply.header('content-encoding', sent.contentEncoding);
  reply
    .header('content-type', sent.contentType)
    .header('content-disposition', contentDisposition(sent.fileName));
  if (sent.spooled) {
    // Streamed from the spool as the socket takes it; the spool goes once the stream closes.
    const stream = sent.spooled.stream();
    stream.once('close', collectAfterExport);
    return reply.header('content-length', sent.spooled.size).send(stream);
  }
  if (sent.body.length >= LARGE_BODY_BYTES) reply.raw.once('close', collectAfterExport);
  return reply.send(sent.body);
}

export const exportRoutes: FeatureRoutes = async function exportRoutes(app, { ctx }) {
  // Exports run in this process when there is no queue: compile the OSCAL schemas soon after the daemon
  // listens, one per tick and not during start-up, so that the first export does not pay for them (a
  // worker compiles them on its first job).
  if (ctx.jobs.kind === 'in-process' && ctx.config.warmUp) {
    app.addHook('onListen', () => {
      setTimeout(() => void warmExportSchemas(), WARM_AFTER_MS).unref();
    });
  }

  app.get(
    '/orgs/:orgId/export/oscal',
    {
      config: { scope: 'export' },
      schema: {
        tags: ['exports'],
        summary: 'The organization against one framework as a NIST OSCAL 1.2.1 package',
        description:
          'Five documents (catalog, profile, system security plan, assessment plan, assessment results), ' +
          "each valid against NIST's official JSON schema, with stable v5 UUIDs. `format=json` (default) " +
          'returns `{"oscal-package": {"oscal-version", "documents": {"catalog.json": …}}}`; `format=zip` ' +
          'the same five files as a zip archive. `frameworkId` (default `iso-42001`) picks any framework ' +
          'of the library, built in or imported from an OSCAL catalog: the catalog holds its requirements ' +
          '(groups per domain, each original id as the `label` prop), the SSP the effective status of each, ' +
          'with a `status-source` prop (`urn:comply:oscal`) saying whether the org recorded it (`direct`), ' +
          'the crosswalk infers it (`inferred`) or neither (`none`); unknown framework → 404. ' +
          '`snapshotId` exports the state frozen in a snapshot, for ISO/IEC 42001 only: any other ' +
          '`frameworkId` with it → 400. An export that would not validate fails with 500.',
        params: OrgIdParam,
        querystring: OscalExportQuery,
        response: {
          200: fileResponse('The OSCAL package', ['application/json', 'application/zip']),
          ...errorResponses,
          ...exportErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const { format = 'json', frameworkId = ISO_42001, snapshotId } = request.query;
      const em = ctx.db.em();
      refuseSnapshotOfOtherFramework(frameworkId, snapshotId);
      await requireExportFramework(em, frameworkId);
      if (snapshotId !== undefined) await requireSnapshot(em, orgId, snapshotId);
      const artifact = await runExport(ctx, { kind: 'oscal', orgId, format, frameworkId, snapshotId });
      return send(request, reply, artifact);
    },
  );

  app.get(
    '/orgs/:orgId/export/soa',
    {
      config: { scope: 'export' },
      schema: {
        tags: ['exports'],
        summary: 'The ISO/IEC 42001 Statement of Applicability',
        description:
          'Every Annex A control with domain, title, applicability, justification, the risks whose treatment ' +
          'lists it, status, the note recorded with it, evidence references (the newest 50; the rest are ' +
          'counted; each with its dates and expiry, expired ones marked as of `asOf`), reviewer and last ' +
          'update, under a header with the org, the as-of time, the snapshot, the score, who exported it and ' +
          'an approval block (prepared, reviewed, approved by), and the checks of `/soa/checks` (JSON, ' +
          'Markdown, PDF). An applicable control without a justification of its own is justified by its risks ' +
          '(`justificationSource: "risks"`; the officer’s own is `"officer"`). `snapshotId` renders the state ' +
          'frozen in that snapshot, without risks and checks, which a snapshot does not freeze (a note says ' +
          'so). CSV follows RFC 4180 with spreadsheet-formula guards; the PDF adds the score history as a chart.',
        params: OrgIdParam,
        querystring: SoaExportQuery,
        response: {
          200: fileResponse(
            'The Statement of Applicability',
            ['application/json', 'text/csv', 'text/markdown', 'application/pdf'],
            SoaStatementSchema,
          ),
          ...errorResponses,
          ...exportErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const { format = 'json', snapshotId } = request.query;
      const em = ctx.db.em();
      if (snapshotId !== undefined) await requireSnapshot(em, orgId, snapshotId);
      const artifact = await runExport(ctx, {
        kind: 'soa',
        orgId,
        format,
        snapshotId,
        exportedBy: requesterOf(principalOf(request)),
      });
      return send(request, reply, artifact);
    },
  );

  app.get(
    '/orgs/:orgId/soa/checks',
    {
      schema: {
        tags: ['exports'],
        summary: 'What in the risk treatment an auditor would ask about, for the Statement of Applicability',
        description:
          'Computed from the ISO/IEC 42001 controls, the risk register (treatment, acceptances, due dates), ' +
          `the AI systems and their impact assessments, as they are now. Severities: ${SOA_CHECK_SEVERITY_TEXT} ` +
          'Most severe first. The SoA exports carry the same list.',
        params: OrgIdParam,
        response: { 200: SoaChecksSchema, ...errorResponses },
      },
    },
    (request, reply) => {
      const { orgId } = request.params;
      // Held in the org read cache until a write to the org or another library revision; at most a minute,
      // since acceptances, treatments and assessment reviews fall due with time alone.
      return sendRecordReport(ctx, reply, orgId, 'soa/checks', async () => ({
        value: { orgId, checks: await loadSoaChecks(ctx.db.em(), orgId) },
        validUntil: Date.now() + CHECKS_HELD_MS,
      }));
    },
  );
};

const CHECKS_HELD_MS = 60_000;
