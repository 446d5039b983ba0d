import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { FeatureRoutes } from '../../context.js';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { principalOf } from '../auth/auth.plugin.js';
import { publicBase } from '../auth/auth.routes.js';
import { RiskSchema } from '../risks/risks.schemas.js';
import {
  AssessmentListQuery,
  AssessmentPageSchema,
  AssessmentParams,
  AssessmentSchema,
  StartAssessmentBody,
  SystemAssessmentListSchema,
  SystemAssessmentParams,
  TemplateListSchema,
  TemplateParams,
  TemplateSchema,
  UpdateAssessmentBody,
} from './impact-assessments.schemas.js';
import {
  approveAssessment,
  getAssessment,
  getTemplate,
  listAssessments,
  listSystemAssessments,
  listTemplates,
  raiseRisk,
  reviseAssessment,
  startAssessment,
  submitAssessment,
  updateAssessment,
} from './impact-assessments.service.js';

const TAG = 'impact-assessments';

/** An assessment's own API path, relative to the daemon's origin. */
const assessmentPath = (orgId: string, assessmentId: string) =>
  `/api/v1/orgs/${encodeURIComponent(orgId)}/impact-assessments/${encodeURIComponent(assessmentId)}`;

/** The impact-assessment templates, the same for every org. */
export const impactAssessmentTemplateRoutes: FeatureRoutes = async function impactAssessmentTemplateRoutes(
  app,
) {
  app.get(
    '/impact-assessment-templates',
    {
      schema: {
        tags: [TAG],
        summary:
          'The impact-assessment templates: ISO/IEC 42001 AI system impact assessment, EU AI Act FRIA, GDPR DPIA',
        description:
          'Versioned; each question is text, choice (one option), multi (a list of options) or scale (an integer ' +
          '1..n over its options); `evidenceFor` names the requirements an approved assessment is evidence for.',
        response: { 200: TemplateListSchema, ...errorResponses },
      },
    },
    async () => listTemplates(),
  );

  app.get(
    '/impact-assessment-templates/:templateId',
    {
      schema: {
        tags: [TAG],
        summary: 'One impact-assessment template',
        params: TemplateParams,
        response: { 200: TemplateSchema, ...errorResponses },
      },
    },
    async (request) => getTemplate(request.params.templateId),
  );
};

/** An org's impact assessments of its AI systems. */
export const impactAssessmentRoutes: FeatureRoutes = async function impactAssessmentRoutes(app, { ctx }) {
  const location = (request: FastifyRequest, orgId: string, assessmentId: string) =>
    `${publicBase(request, ctx.config.publicUrl)}${assessmentPath(orgId, assessmentId)}`;

  app.post(
    '/orgs/:orgId/ai-systems/:systemId/impact-assessments',
    {
      config: { scope: 'write' },
      schema: {
        tags: [TAG],
        summary: "Start an AI system's impact assessment of a template: version 1, a draft",
        description:
          'A system has one line of assessments per template: when it has one already → 409 (revise its approved ' +
          'version instead). An unknown template → 400.',
        params: SystemAssessmentParams,
        body: StartAssessmentBody,
        response: { 201: AssessmentSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { orgId, systemId } = request.params;
      const assessment = await startAssessment(
        ctx.db.em(),
        orgId,
        systemId,
        request.body.templateId,
        principalOf(request).actor,
      );
      return reply
        .status(201)
        .header('location', assessmentPath(orgId, assessment.assessmentId))
        .send(assessment);
    },
  );

  app.get(
    '/orgs/:orgId/ai-systems/:systemId/impact-assessments',
    {
      schema: {
        tags: [TAG],
        summary: "An AI system's impact assessments, every version, by template and newest version first",
        params: SystemAssessmentParams,
        response: { 200: SystemAssessmentListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, systemId } = request.params;
      return { orgId, systemId, assessments: await listSystemAssessments(ctx.db.em(), orgId, systemId) };
    },
  );

  app.get(
    '/orgs/:orgId/impact-assessments',
    {
      schema: {
        tags: [TAG],
        summary: "A page of the org's impact assessments, most recently changed first",
        description:
          'Filter by `state`, `systemId`, `templateId`; `due=true` keeps the approved assessments due for ' +
          "re-assessment (the AI system's risk level, lifecycle stage or purpose changed since approval, or the " +
          'review date passed).',
        params: OrgIdParam,
        querystring: AssessmentListQuery,
        response: { 200: AssessmentPageSchema, ...errorResponses },
      },
    },
    async (request) => ({
      orgId: request.params.orgId,
      ...(await listAssessments(ctx.db.em(), request.params.orgId, request.query)),
    }),
  );

  app.get(
    '/orgs/:orgId/impact-assessments/:assessmentId',
    {
      schema: {
        tags: [TAG],
        summary: 'One impact assessment, with whether it is due for re-assessment',
        params: AssessmentParams,
        response: { 200: AssessmentSchema, ...errorResponses },
      },
    },
    async (request) => getAssessment(ctx.db.em(), request.params.orgId, request.params.assessmentId),
  );

  app.put(
    '/orgs/:orgId/impact-assessments/:assessmentId',
    {
      config: { scope: 'write' },
      schema: {
        tags: [TAG],
        summary: 'Answer questions and set the impacts of a draft',
        description:
          '`answers` are merged into those given before (null removes one); `impacts` replaces the list. Only a ' +
          'draft can be changed (else 409). A question the template does not ask, or an answer of the wrong kind ' +
          '→ 400 naming it.',
        params: AssessmentParams,
        body: UpdateAssessmentBody,
        response: { 200: AssessmentSchema, ...errorResponses },
      },
    },
    async (request) =>
      updateAssessment(ctx.db.em(), request.params.orgId, request.params.assessmentId, request.body),
  );

  app.post(
    '/orgs/:orgId/impact-assessments/:assessmentId/submit',
    {
      config: { scope: 'write' },
      schema: {
        tags: [TAG],
        summary: 'Submit a draft for approval',
        description:
          'Every required question must be answered: else 400 with `details.unanswered` listing them. Records who ' +
          'submitted it. Only a draft can be submitted (else 409).',
        params: AssessmentParams,
        response: { 200: AssessmentSchema, ...errorResponses },
      },
    },
    async (request) =>
      submitAssessment(
        ctx.db.em(),
        request.params.orgId,
        request.params.assessmentId,
        principalOf(request).actor,
      ),
  );

  app.post(
    '/orgs/:orgId/impact-assessments/:assessmentId/approve',
    {
      config: { scope: 'approve', person: true },
      schema: {
        tags: [TAG],
        summary:
          'Approve a submitted assessment (a signed-in approver or owner, not the person who submitted it)',
        description:
          'An API key → 403 `person_required`; the person who submitted it → 403 `second_person_required`. The ' +
          'assessment is then immutable with its `contentHash`, due for review in 12 months, supersedes the ' +
          "older approved version, and is evidence (a document linking to this assessment) on its template's " +
          '`evidenceFor` requirements.',
        params: AssessmentParams,
        response: { 200: AssessmentSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, assessmentId } = request.params;
      const principal = principalOf(request);
      return approveAssessment(
        ctx.db.em(),
        orgId,
        assessmentId,
        { actor: principal.actor, email: principal.session?.email ?? '' },
        location(request, orgId, assessmentId),
      );
    },
  );

  app.post(
    '/orgs/:orgId/impact-assessments/:assessmentId/revise',
    {
      config: { scope: 'write' },
      schema: {
        tags: [TAG],
        summary:
          'Start a revision of an approved assessment: a new draft, version + 1, with the answers copied',
        description:
          'The approved version stays in force until the revision is approved, then becomes superseded. Only the ' +
          'newest approved version can be revised, one revision at a time (else 409).',
        params: AssessmentParams,
        response: { 201: AssessmentSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { orgId, assessmentId } = request.params;
      const revision = await reviseAssessment(ctx.db.em(), orgId, assessmentId, principalOf(request).actor);
      return reply
        .status(201)
        .header('location', assessmentPath(orgId, revision.assessmentId))
        .send(revision);
    },
  );

  app.post(
    '/orgs/:orgId/impact-assessments/:assessmentId/impacts/:impactIndex/risk',
    {
      config: { scope: 'write' },
      schema: {
        tags: [TAG],
        summary: 'Raise an impact into the risk register: a risk of the system, rated by the impact',
        description:
          'Likelihood and severity become the risk’s likelihood and impact. A draft’s impact is linked to the new ' +
          'risk (`riskId`); an impact already linked gets `409`. `impactIndex` counts from 0.',
        params: Type.Object({
          orgId: Type.String({ minLength: 1, maxLength: 64 }),
          assessmentId: Type.String({ minLength: 1, maxLength: 64 }),
          impactIndex: Type.Integer({ minimum: 0, maximum: 999 }),
        }),
        response: { 201: RiskSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { orgId, assessmentId, impactIndex } = request.params;
      const risk = await raiseRisk(
        ctx.db.em(),
        orgId,
        assessmentId,
        impactIndex,
        principalOf(request).actor.id,
      );
      return reply
        .status(201)
        .header('location', `/api/v1/orgs/${encodeURIComponent(orgId)}/risks/${risk.riskId}`)
        .send(risk);
    },
  );
};
