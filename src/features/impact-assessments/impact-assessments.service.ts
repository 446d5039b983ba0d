/**
 * The life of an impact assessment: started as a `draft` of a template for one AI system, answered and given
 * impacts while it is a draft, `submitted` once every required question is answered, `approved` by a person
 * other than the one who submitted it, and replaced by a revision (`version + 1`, a new draft with the answers
 * copied) whose approval makes the older one `superseded`. Approval freezes the content under a hash, records
 * the system's risk level, lifecycle stage and purpose, and adds the assessment as evidence on the requirements
 * its template names, all in one transaction. An approved assessment is due for re-assessment when one of
 * those three fields has changed since or its review date (a year after approval) has passed; that is worked
 * out whenever it is read, never stored.
 */
import canonicalize from 'canonicalize';
import type { Static } from 'typebox';
import type { Em } from '../../platform/db/database.js';
import { badRequest, conflict, forbidden, invalidField, resourceNotFound } from '../../platform/errors.js';
import { contentHashOf } from '../../shared/content-hash.js';
import { getAiSystem } from '../ai-systems/ai-systems.service.js';
import type { Actor } from '../auth/scopes.js';
import { addEvidence } from '../evidence/evidence.service.js';
import { createRisk, type RiskView } from '../risks/risks.service.js';
import { selectRisk } from '../risks/risks.store.js';
import type {
  AssessmentListQuery,
  AssessmentSchema,
  AssessmentState,
  ReassessmentSchema,
  UpdateAssessmentBody,
} from './impact-assessments.schemas.js';
import {
  type Answer,
  type Answers,
  type AssessmentRow,
  type EvidenceRef,
  type Impact,
  insertAssessment,
  markApproved,
  markSubmitted,
  type SystemState,
  selectAssessment,
  selectAssessmentPage,
  selectLatestInLine,
  selectSystemAssessments,
  supersedeOlder,
  updateDraftRow,
} from './impact-assessments.store.js';
import { type Question, questionsOf, TEMPLATES, type Template, templateOf } from './templates.js';

export type AssessmentView = Static<typeof AssessmentSchema>;
export type Reassessment = Static<typeof ReassessmentSchema>;
export type AssessmentChanges = Static<typeof UpdateAssessmentBody>;

/** How long an approval holds before the assessment is due for review. */
const REVIEW_MONTHS = 12;

export const listTemplates = () => ({ templates: [...TEMPLATES] });

export function getTemplate(templateId: string): Template {
  const template = templateOf(templateId);
  if (!template) throw resourceNotFound('Impact assessment template', { templateId });
  return template;
}

/** The template an assessment was written against (templates are never withdrawn). */
function templateOfRow(row: AssessmentRow): Template {
  const template = templateOf(row.templateId);
  if (!template)
    throw new Error(`impact assessment ${row.assessmentId} names unknown template ${row.templateId}`);
  return template;
}

const SYSTEM_FIELDS = [
  ['riskLevel', 'risk_level_changed', 'risk level'],
  ['lifecycleStage', 'lifecycle_stage_changed', 'lifecycle stage'],
  ['purpose', 'purpose_changed', 'purpose'],
] as const;

/** Whether an assessment is due again, and why: the rule `DUE` in the store states in SQL. */
export function reassessmentOf(row: AssessmentRow, now: Date): Reassessment {
  if (row.state !== 'approved' || !row.systemAtApproval) return { due: false, reasons: [] };
  const reasons: Reassessment['reasons'] = [];
  for (const [field, code, label] of SYSTEM_FIELDS) {
    const then = row.systemAtApproval[field];
    const current = row.system[field];
    if (then === current) continue;
    reasons.push({
      code,
      message:
        field === 'purpose'
          ? "The AI system's purpose has changed since approval"
          : `The AI system's ${label} changed from ${then} to ${current} since approval`,
    });
  }
  if (row.reviewDue !== null && Date.parse(row.reviewDue) <= now.getTime()) {
    reasons.push({ code: 'review_due', message: `The review was due on ${row.reviewDue}` });
  }
  return { due: reasons.length > 0, reasons };
}

export function viewOf(row: AssessmentRow, now: Date): AssessmentView {
  const { system: _current, ...stored } = row;
  return { ...stored, reassessment: reassessmentOf(row, now) };
}

async function loadAssessment(
  em: Em,
  orgId: string,
  assessmentId: string,
  lock = false,
): Promise<AssessmentRow> {
  const row = await selectAssessment(em, orgId, assessmentId, { lock });
  if (!row) throw resourceNotFound('Impact assessment', { assessmentId });
  return row;
}

const refuseState = (row: AssessmentRow, action: string, why: string) =>
  conflict(`Cannot ${action} an assessment that is ${row.state}: ${why}`, {
    assessmentId: row.assessmentId,
    state: row.state,
  });

const actorRef = (actor: Actor) => ({ type: actor.type, id: actor.id, name: actor.name });

/** Starts version 1 of a system's assessment of a template. A system has one line per template: after that, revise. */
export async function startAssessment(
  em: Em,
  orgId: string,
  systemId: string,
  templateId: string,
  actor: Actor,
  now = new Date(),
): Promise<AssessmentView> {
  const template = templateOf(templateId);
  if (!template) {
    throw invalidField(
      'body.templateId',
      `names no template (there are ${TEMPLATES.map((t) => t.templateId).join(', ')})`,
    );
  }
  await getAiSystem(em, orgId, systemId);
  const taken = async () => {
    const latest = await selectLatestInLine(em, orgId, systemId, templateId);
    return conflict(
      `This AI system already has a ${templateId} assessment; revise its approved version instead of starting another`,
      { systemId, templateId, ...(latest ? { assessmentId: latest.assessmentId, state: latest.state } : {}) },
    );
  };
  if (await selectLatestInLine(em, orgId, systemId, templateId)) throw await taken();
  const assessmentId = await insertAssessment(
    em,
    {
      orgId,
      systemId,
      templateId,
      templateVersion: template.version,
      version: 1,
      answers: {},
      impacts: [],
      createdBy: actorRef(actor),
    },
    now,
  );
  if (!assessmentId) throw await taken();
  return getAssessment(em, orgId, assessmentId, now);
}

export async function getAssessment(
  em: Em,
  orgId: string,
  assessmentId: string,
  now = new Date(),
): Promise<AssessmentView> {
  return viewOf(await loadAssessment(em, orgId, assessmentId), now);
}

export async function listSystemAssessments(
  em: Em,
  orgId: string,
  systemId: string,
  now = new Date(),
): Promise<AssessmentView[]> {
  await getAiSystem(em, orgId, systemId);
  return (await selectSystemAssessments(em, orgId, systemId)).map((row) => viewOf(row, now));
}

export async function listAssessments(
  em: Em,
  orgId: string,
  query: Static<typeof AssessmentListQuery>,
  now = new Date(),
): Promise<{ assessments: AssessmentView[]; total: number; limit: number; offset: number }> {
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const page = await selectAssessmentPage(
    em,
    orgId,
    {
      state: query.state as AssessmentState | undefined,
      due: query.due,
      systemId: query.systemId,
      templateId: query.templateId,
      limit,
      offset,
    },
    now,
  );
  return { assessments: page.assessments.map((row) => viewOf(row, now)), total: page.total, limit, offset };
}

/** Why a value is not an answer to the question, or null when it is. */
function misfit(question: Question, value: Answer): string | null {
  const options = question.options ?? [];
  switch (question.kind) {
    case 'text':
      return typeof value === 'string' ? null : 'must be text';
    case 'choice':
      return typeof value === 'string' && options.includes(value)
        ? null
        : `must be one of the options: ${options.join(' | ')}`;
    case 'multi':
      if (!Array.isArray(value) || value.some((item) => !options.includes(item)))
        return `must be a list of the options: ${options.join(' | ')}`;
      return new Set(value).size === value.length ? null : 'must not list an option twice';
    case 'scale':
      return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= options.length
        ? null
        : `must be an integer from 1 (${options[0]}) to ${options.length} (${options.at(-1)})`;
  }
}

/** Refuses, naming each, the answers that name no question of the template or do not fit their question. */
function checkAnswers(template: Template, answers: Record<string, Answer | null>): void {
  const questions = questionsOf(template);
  const problems: { field: string; message: string }[] = [];
  for (const [questionId, value] of Object.entries(answers)) {
    const question = questions.get(questionId);
    const field = `body.answers.${questionId}`;
    if (!question) {
      problems.push({ field, message: `is not a question of ${template.templateId} v${template.version}` });
    } else if (value !== null) {
      const why = misfit(question, value);
      if (why) problems.push({ field, message: `(${question.kind}) ${why}` });
    }
  }
  if (problems.length) {
    throw badRequest(
      `Answers that do not fit the template: ${problems.map((p) => `${p.field.slice('body.answers.'.length)} ${p.message}`).join('; ')}`,
      { fields: problems, templateId: template.templateId, templateVersion: template.version },
    );
  }
}

/** Refuses, naming each, the impacts that name a risk the org's register does not hold. */
async function checkRiskIds(em: Em, orgId: string, impacts: Impact[]): Promise<void> {
  const known = new Map<string, boolean>();
  const problems: { field: string; message: string }[] = [];
  for (const [index, { riskId }] of impacts.entries()) {
    if (riskId === undefined) continue;
    if (!known.has(riskId)) known.set(riskId, (await selectRisk(em, orgId, riskId)) !== null);
    if (!known.get(riskId))
      problems.push({ field: `body.impacts.${index}.riskId`, message: 'names no risk of the org' });
  }
  if (problems.length) {
    const unknown = [...known].filter(([, exists]) => !exists).map(([riskId]) => riskId);
    throw badRequest(`Unknown risk(s): ${unknown.join(', ')}`, { fields: problems, riskIds: unknown });
  }
}

/** Merges the answers given (null removes one) and replaces the impacts, while the assessment is a draft. */
export async function updateAssessment(
  em: Em,
  orgId: string,
  assessmentId: string,
  changes: AssessmentChanges,
  now = new Date(),
): Promise<AssessmentView> {
  await em.transactional(async (tx) => {
    const row = await loadAssessment(tx, orgId, assessmentId, true);
    if (row.state !== 'draft') {
      throw refuseState(
        row,
        'change',
        'only a draft can be edited; revise an approved assessment to change it',
      );
    }
    const template = templateOfRow(row);
    if (changes.answers) checkAnswers(template, changes.answers);
    if (changes.impacts) await checkRiskIds(tx, orgId, changes.impacts);
    const answers: Answers = { ...row.answers };
    for (const [questionId, value] of Object.entries(changes.answers ?? {})) {
      if (value === null) delete answers[questionId];
      else answers[questionId] = value;
    }
    await updateDraftRow(tx, assessmentId, { answers, impacts: changes.impacts ?? row.impacts }, now);
  });
  return getAssessment(em, orgId, assessmentId, now);
}

const isAnswered = (value: Answer | undefined) =>
  value !== undefined &&
  (typeof value === 'string' ? value.trim() !== '' : Array.isArray(value) ? value.length > 0 : true);

/** A draft whose required questions are all answered becomes `submitted`, recording who submitted it. */
export async function submitAssessment(
  em: Em,
  orgId: string,
  assessmentId: string,
  actor: Actor,
  now = new Date(),
): Promise<AssessmentView> {
  await em.transactional(async (tx) => {
    const row = await loadAssessment(tx, orgId, assessmentId, true);
    if (row.state !== 'draft') throw refuseState(row, 'submit', 'only a draft can be submitted');
    const template = templateOfRow(row);
    const unanswered = template.sections.flatMap((section) =>
      section.questions
        .filter((question) => question.required && !isAnswered(row.answers[question.questionId]))
        .map((question) => ({
          sectionId: section.sectionId,
          questionId: question.questionId,
          text: question.text,
        })),
    );
    if (unanswered.length) {
      throw badRequest(
        `${unanswered.length} required question(s) unanswered: ${unanswered.map((q) => q.questionId).join(', ')}`,
        { reason: 'unanswered_questions', unanswered },
      );
    }
    await markSubmitted(tx, assessmentId, actorRef(actor), now);
  });
  return getAssessment(em, orgId, assessmentId, now);
}

/** The approving person, as a signed-in principal describes them. */
export interface Approver {
  actor: Actor;
  email: string;
}

/**
 * Approves a submitted assessment, by a person other than the one who submitted it. In the same transaction:
 * the content is frozen under its hash, the system's state is recorded, older approved versions are
 * superseded, and the assessment becomes evidence (a document whose URL is `selfUrl`) on each requirement its
 * template names, valid until its review is due.
 */
export async function approveAssessment(
  em: Em,
  orgId: string,
  assessmentId: string,
  approver: Approver,
  selfUrl: string,
  now = new Date(),
): Promise<AssessmentView> {
  await em.transactional(async (tx) => {
    const row = await loadAssessment(tx, orgId, assessmentId, true);
    if (row.state !== 'submitted')
      throw refuseState(row, 'approve', 'only a submitted assessment can be approved');
    const { actor } = approver;
    if (row.submittedBy?.type === 'user' && row.submittedBy.id === actor.id) {
      throw forbidden('An assessment must be approved by someone other than the person who submitted it', {
        reason: 'second_person_required',
        submittedBy: row.submittedBy,
      });
    }
    const template = templateOfRow(row);
    const reviewDue = new Date(now);
    reviewDue.setUTCMonth(reviewDue.getUTCMonth() + REVIEW_MONTHS);
    const approvedBy = { userId: actor.id, email: approver.email, name: actor.name };
    const system: SystemState = {
      riskLevel: row.system.riskLevel,
      lifecycleStage: row.system.lifecycleStage,
      purpose: row.system.purpose,
    };
    const content = {
      assessmentId: row.assessmentId,
      systemId: row.systemId,
      templateId: row.templateId,
      templateVersion: row.templateVersion,
      version: row.version,
      answers: row.answers,
      impacts: row.impacts,
      system,
      submittedBy: row.submittedBy,
      submittedAt: row.submittedAt,
      approvedBy,
      approvedAt: now.toISOString(),
      reviewDue: reviewDue.toISOString(),
    };
    const evidence: EvidenceRef[] = [];
    for (const { frameworkId, requirementId } of template.evidenceFor) {
      const item = await addEvidence(
        tx,
        {
          orgId,
          frameworkId,
          requirementId,
          evidence: {
            type: 'document',
            title: `${template.name}, version ${row.version}: ${row.system.name}`,
            description: `Approved by ${actor.name} on ${now.toISOString().slice(0, 10)}; review due ${reviewDue.toISOString().slice(0, 10)}.`,
            fileUrl: selfUrl,
            effectiveDate: now.toISOString(),
            expiresAt: reviewDue.toISOString(),
          },
          createdBy: actor.id,
        },
        now,
      );
      evidence.push({ frameworkId, requirementId, evidenceId: item.evidenceId });
    }
    await markApproved(tx, assessmentId, {
      approvedBy,
      approvedAt: now,
      reviewDue,
      contentHash: contentHashOf(canonicalize(content) as string),
      systemAtApproval: system,
      evidence,
    });
    await supersedeOlder(tx, row, row.version, assessmentId, now);
  });
  return getAssessment(em, orgId, assessmentId, now);
}

/**
 * A new draft (`version + 1`) of an approved assessment, on the template's current version, with the answers
 * that still name one of its questions and the impacts copied. The approved version stays in force until the
 * revision is approved. One revision at a time: a line whose newer version exists already → 409.
 */
export async function reviseAssessment(
  em: Em,
  orgId: string,
  assessmentId: string,
  actor: Actor,
  now = new Date(),
): Promise<AssessmentView> {
  const revisionId = await em.transactional(async (tx) => {
    const row = await loadAssessment(tx, orgId, assessmentId, true);
    if (row.state !== 'approved') {
      throw refuseState(
        row,
        'revise',
        row.state === 'superseded'
          ? 'a newer version replaced it; revise that one'
          : 'only an approved assessment can be revised; edit or approve this one',
      );
    }
    const template = templateOfRow(row);
    const questions = questionsOf(template);
    const answers = Object.fromEntries(Object.entries(row.answers).filter(([id]) => questions.has(id)));
    const id = await insertAssessment(
      tx,
      {
        orgId,
        systemId: row.systemId,
        templateId: row.templateId,
        templateVersion: template.version,
        version: row.version + 1,
        answers,
        impacts: row.impacts,
        createdBy: actorRef(actor),
      },
      now,
    );
    if (!id) {
      const latest = await selectLatestInLine(tx, orgId, row.systemId, row.templateId);
      throw conflict('This assessment has a newer version already; work on that one', {
        assessmentId: row.assessmentId,
        ...(latest
          ? { latest: { assessmentId: latest.assessmentId, version: latest.version, state: latest.state } }
          : {}),
      });
    }
    return id;
  });
  return getAssessment(em, orgId, revisionId, now);
}

/**
 * Raises an impact into the risk register: a risk of the assessment's AI system rated by the impact's likelihood
 * and severity, described by it, once per impact (the risk records its source; a second raise gets `409` naming
 * the risk). While the assessment is a draft the impact is linked to the new risk (`riskId`); a submitted or
 * approved assessment stays as it was, and the risk names it in its description.
 */
export async function raiseRisk(
  em: Em,
  orgId: string,
  assessmentId: string,
  impactIndex: number,
  createdBy: string,
): Promise<RiskView> {
  const row = await loadAssessment(em, orgId, assessmentId);
  const impact = row.impacts[impactIndex];
  if (!impact) throw resourceNotFound('Impact', { assessmentId, impactIndex });
  if (impact.riskId)
    throw conflict('This impact already has a risk in the register', { riskId: impact.riskId });
  const risk = await createRisk(
    em,
    orgId,
    {
      title: impact.description.slice(0, 300),
      description:
        `Raised from impact ${impactIndex + 1} of the ${row.templateId} assessment (version ${row.version}) of ` +
        `${row.system.name}, affecting ${impact.affected}${impact.rights?.length ? ` (${impact.rights.join(', ')})` : ''}.` +
        (impact.mitigation ? ` Mitigation named there: ${impact.mitigation}` : ''),
      systemIds: [row.systemId],
      likelihood: impact.likelihood,
      impact: impact.severity,
    },
    createdBy,
    (_orgId, value) => value,
    { assessmentId, impactIndex },
  );
  if (row.state === 'draft') {
    await em.transactional(async (tx) => {
      const current = await loadAssessment(tx, orgId, assessmentId, true);
      if (current.state !== 'draft') return;
      const impacts = current.impacts.map((item, index) =>
        index === impactIndex ? { ...item, riskId: risk.riskId } : item,
      );
      await updateDraftRow(tx, assessmentId, { answers: current.answers, impacts }, new Date());
    });
  }
  return risk;
}
