import { useEffect, useId, useRef, useState } from 'react';
import type { AiSystem, ImpactAssessment, ImpactAssessmentTemplate, Risk } from '../api';
import { ApiError } from '../api';
import { assessmentHref, frameworkHref, riskHref, systemHref } from '../links';
import {
  type AnswerValue,
  approveAssessment,
  type Impact,
  raiseImpactRisk,
  reviseAssessment,
  saveAssessment,
  startAssessment,
  submitAssessment,
  useAssessment,
  useAssessments,
  useSystemAssessments,
  useTemplates,
} from '../resources/assessments';
import { useRisks } from '../resources/risks';
import { useAiSystem, useAiSystems } from '../resources/systems';
import { Badge, day, ErrorText, Field, Pager, Scroll, Show, useAction, useSession, when } from '../ui';

type Template = ImpactAssessmentTemplate;
type Question = Template['sections'][number]['questions'][number];
type Answers = Record<string, AnswerValue | undefined>;

const STATES = ['draft', 'submitted', 'approved', 'superseded'] as const;
const AFFECTED = ['individuals', 'groups', 'society', 'environment'] as const;
const RATINGS = [1, 2, 3, 4, 5];
const ALL_SYSTEMS = { riskLevel: '', lifecycleStage: '' };
const PAGE = 25;

const templateOf = (templates: Template[] | undefined, templateId: string) =>
  templates?.find((t) => t.templateId === templateId);

const isEmpty = (value: AnswerValue | undefined | null) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** An answer as text: a scale's point with its name, a multi's options in a list. */
function answerText(question: Question | undefined, value: AnswerValue | undefined): string {
  if (isEmpty(value)) return '—';
  if (typeof value === 'number') {
    const name = question?.options?.[value - 1];
    return name ? `${value} · ${name}` : String(value);
  }
  if (Array.isArray(value)) return value.join('; ');
  return value as string;
}

const StateBadge = ({ state }: { state: ImpactAssessment['state'] }) => (
  <Badge kind={`assessment-${state}`}>{state}</Badge>
);

/** Why an approved assessment is due again, or nothing. */
function Reassessment({ assessment }: { assessment: ImpactAssessment }) {
  if (!assessment.reassessment.due) return null;
  return (
    <span className="reassessment">
      <Badge kind="reassessment">re-assessment due</Badge>{' '}
      <span className="muted">{assessment.reassessment.reasons.map((r) => r.message).join('; ')}</span>
    </span>
  );
}

/** An AI system's impact assessments (every version), and the start of a new one. */
export function SystemAssessments({ system }: { system: AiSystem }) {
  const session = useSession();
  const templates = useTemplates();
  const list = useSystemAssessments(system.systemId);
  const start = useAction();
  const [templateId, setTemplateId] = useState('');
  const started = new Set((list.data?.assessments ?? []).map((a) => a.templateId));
  const available = (templates.data?.templates ?? []).filter((t) => !started.has(t.templateId));
  const chosen = available.some((t) => t.templateId === templateId)
    ? templateId
    : (available[0]?.templateId ?? '');
  return (
    <section className="card wide" aria-labelledby="system-assessments">
      <h2 id="system-assessments">Impact assessments</h2>
      <Show loaded={list}>
        {(l) =>
          l.assessments.length === 0 ? (
            <p>No impact assessment of this system yet.</p>
          ) : (
            <Scroll>
              <table data-testid="system-assessments">
                <thead>
                  <tr>
                    <th scope="col">Assessment</th>
                    <th scope="col">State</th>
                    <th scope="col">Approved</th>
                    <th scope="col">Review due</th>
                    <th scope="col">Re-assessment</th>
                  </tr>
                </thead>
                <tbody>
                  {l.assessments.map((a) => (
                    <tr key={a.assessmentId} data-assessment={`${a.templateId} v${a.version}`}>
                      <th scope="row">
                        <a href={assessmentHref(a.assessmentId)}>
                          {templateOf(templates.data?.templates, a.templateId)?.name ?? a.templateId}, version{' '}
                          {a.version}
                        </a>
                      </th>
                      <td>
                        <StateBadge state={a.state} />
                      </td>
                      <td>{a.approvedBy ? `${a.approvedBy.name}, ${day(a.approvedAt)}` : '—'}</td>
                      <td>{day(a.reviewDue)}</td>
                      <td>{a.reassessment.due ? <Reassessment assessment={a} /> : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )
        }
      </Show>
      {session.can.write && available.length > 0 ? (
        <form
          aria-labelledby="start-assessment"
          onSubmit={async (event) => {
            event.preventDefault();
            let created: ImpactAssessment | undefined;
            const ok = await start.run(async () => {
              created = await startAssessment(session, system.systemId, chosen);
            }, 'Assessment started');
            if (ok && created) window.location.hash = assessmentHref(created.assessmentId);
          }}
        >
          <h3 id="start-assessment">Start an assessment</h3>
          <div className="filters">
            <Field label="Template">
              {(id) => (
                <select id={id} value={chosen} onChange={(e) => setTemplateId(e.target.value)}>
                  {available.map((t) => (
                    <option key={t.templateId} value={t.templateId}>
                      {t.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <button type="submit" disabled={start.busy || !chosen}>
              Start assessment
            </button>
          </div>
          {start.message}
        </form>
      ) : null}
    </section>
  );
}

/** The org's impact assessments: by state, or only those due for re-assessment. */
export function AssessmentsView() {
  const [filters, setFilters] = useState({ state: '', due: '' });
  const [offset, setOffset] = useState(0);
  const list = useAssessments(filters, offset, PAGE);
  const templates = useTemplates();
  const systems = useAiSystems(ALL_SYSTEMS);
  const names = new Map((systems.data?.systems ?? []).map((s) => [s.systemId, s.name]));
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts at the first page
  useEffect(() => setOffset(0), [filters]);
  return (
    <>
      <h1>Impact assessments</h1>
      <p className="muted">Start an assessment from its AI system's page.</p>
      <div className="filters">
        <Field label="State">
          {(id) => (
            <select
              id={id}
              value={filters.state}
              onChange={(e) => setFilters({ ...filters, state: e.target.value })}
            >
              <option value="">any</option>
              {STATES.map((state) => (
                <option key={state}>{state}</option>
              ))}
            </select>
          )}
        </Field>
        <label className="check">
          <input
            type="checkbox"
            checked={filters.due === 'true'}
            onChange={(e) => setFilters({ ...filters, due: e.target.checked ? 'true' : '' })}
          />{' '}
          Due for re-assessment only
        </label>
      </div>
      <Show loaded={list}>
        {(l) => (
          <>
            <Scroll>
              <table data-testid="assessments">
                <caption className="sr-only">The organization's impact assessments</caption>
                <thead>
                  <tr>
                    <th scope="col">Assessment</th>
                    <th scope="col">AI system</th>
                    <th scope="col">State</th>
                    <th scope="col">Updated</th>
                    <th scope="col">Review due</th>
                    <th scope="col">Re-assessment</th>
                  </tr>
                </thead>
                <tbody>
                  {l.assessments.map((a) => (
                    <tr key={a.assessmentId} data-assessment={`${a.templateId} v${a.version}`}>
                      <th scope="row">
                        <a href={assessmentHref(a.assessmentId)}>
                          {templateOf(templates.data?.templates, a.templateId)?.name ?? a.templateId}, version{' '}
                          {a.version}
                        </a>
                      </th>
                      <td>
                        <a href={systemHref(a.systemId)}>{names.get(a.systemId) ?? a.systemId}</a>
                      </td>
                      <td>
                        <StateBadge state={a.state} />
                      </td>
                      <td>{when(a.updatedAt)}</td>
                      <td>{day(a.reviewDue)}</td>
                      <td>{a.reassessment.due ? <Reassessment assessment={a} /> : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
            {l.assessments.length === 0 ? <p>No assessment matches.</p> : null}
            <Pager offset={offset} limit={PAGE} total={l.total} onChange={setOffset} label="Assessments" />
          </>
        )}
      </Show>
    </>
  );
}

/** One impact assessment: its facts, the form its template generates, its workflow and its versions. */
export function AssessmentView({ assessmentId }: { assessmentId: string }) {
  const assessment = useAssessment(assessmentId);
  const templates = useTemplates();
  return (
    <>
      <p>
        <a href="#/assessments">← Impact assessments</a>
      </p>
      <Show loaded={assessment}>
        {(a) => {
          if (templates.error) return <ErrorText error={templates.error} />;
          const template = templateOf(templates.data?.templates, a.templateId);
          if (!templates.data) return <p className="muted">Loading…</p>;
          if (!template) return <p role="alert">The template {a.templateId} is not offered any more.</p>;
          return <Assessment assessment={a} template={template} />;
        }}
      </Show>
    </>
  );
}

function Assessment({ assessment: a, template }: { assessment: ImpactAssessment; template: Template }) {
  const session = useSession();
  const system = useAiSystem(a.systemId);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const editable = a.state === 'draft' && session.can.write;
  return (
    <>
      <h1 tabIndex={-1} ref={heading}>
        {template.name}
      </h1>
      <p>
        Of <a href={systemHref(a.systemId)}>{system.data?.name ?? a.systemId}</a>, version {a.version}{' '}
        <StateBadge state={a.state} />
      </p>
      {a.reassessment.due ? (
        <div className="notice" data-testid="reassessment">
          <strong>Due for re-assessment:</strong>
          <ul>
            {a.reassessment.reasons.map((r) => (
              <li key={r.code}>{r.message}</li>
            ))}
          </ul>
          {a.state === 'approved' ? 'Revise it to assess the system as it is now.' : null}
        </div>
      ) : null}
      <div className="grid">
        <section className="card" aria-labelledby="assessment-facts">
          <h2 id="assessment-facts">Record</h2>
          <dl className="facts" data-testid="assessment-facts">
            <dt>State</dt>
            <dd>
              <StateBadge state={a.state} />
            </dd>
            <dt>Template</dt>
            <dd>
              {a.templateId}, version {a.templateVersion}
            </dd>
            <dt>Started by</dt>
            <dd>{a.createdBy ? `${a.createdBy.name}, ${when(a.createdAt)}` : when(a.createdAt)}</dd>
            <dt>Submitted by</dt>
            <dd>{a.submittedBy ? `${a.submittedBy.name}, ${when(a.submittedAt)}` : '—'}</dd>
            <dt>Approved by</dt>
            <dd>
              {a.approvedBy ? `${a.approvedBy.name} (${a.approvedBy.email}), ${when(a.approvedAt)}` : '—'}
            </dd>
            <dt>Review due</dt>
            <dd>{day(a.reviewDue)}</dd>
            {a.contentHash ? (
              <>
                <dt>Content hash</dt>
                <dd>
                  <code>{a.contentHash}</code>
                </dd>
              </>
            ) : null}
            {a.supersededBy ? (
              <>
                <dt>Superseded by</dt>
                <dd>
                  <a href={assessmentHref(a.supersededBy)}>the newer version</a>
                </dd>
              </>
            ) : null}
            <dt>Evidence for</dt>
            <dd>
              {a.evidence.length
                ? a.evidence.map((e, index) => (
                    <span key={e.evidenceId}>
                      {index > 0 ? ', ' : ''}
                      <a href={frameworkHref(e.frameworkId, e.requirementId)}>
                        {e.frameworkId} {e.requirementId}
                      </a>
                    </span>
                  ))
                : `once approved: ${template.evidenceFor.map((r) => `${r.frameworkId} ${r.requirementId}`).join(', ')}`}
            </dd>
          </dl>
        </section>
        <Workflow assessment={a} />
      </div>
      {editable ? (
        <AnswerForm assessment={a} template={template} />
      ) : (
        <ReadAnswers assessment={a} template={template} />
      )}
      <CompareVersions assessment={a} template={template} />
    </>
  );
}

/** Submit, approve, revise: what the state allows and the signed-in key or person may do. */
function Workflow({ assessment: a }: { assessment: ImpactAssessment }) {
  const session = useSession();
  const act = useAction();
  const [unanswered, setUnanswered] = useState<{ questionId: string; text: string }[]>([]);
  // A saved draft may answer what was missing: the list is of the last refused submission only.
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared whenever the assessment changes
  useEffect(() => setUnanswered([]), [a.updatedAt]);
  const submitter = a.submittedBy?.type === 'user' && a.submittedBy.id === session.person?.userId;
  return (
    <section className="card" aria-labelledby="workflow-heading" data-testid="workflow">
      <h2 id="workflow-heading">Workflow</h2>
      {a.state === 'draft' ? (
        session.can.write ? (
          <>
            <p>A draft: save the answers as you go, then submit it for approval by a second person.</p>
            <button
              type="button"
              disabled={act.busy}
              onClick={async () => {
                setUnanswered([]);
                await act.run(async () => {
                  try {
                    await submitAssessment(session, a.assessmentId);
                  } catch (error) {
                    const missing = error instanceof ApiError ? error.details.unanswered : undefined;
                    if (Array.isArray(missing)) setUnanswered(missing as typeof unanswered);
                    throw error;
                  }
                }, 'Submitted for approval');
              }}
            >
              Submit for approval
            </button>
            {unanswered.length ? (
              <ul className="unanswered" aria-label="Unanswered required questions">
                {unanswered.map((q) => (
                  <li key={q.questionId}>{q.text}</li>
                ))}
              </ul>
            ) : null}
          </>
        ) : (
          <p>A draft, not yet submitted.</p>
        )
      ) : a.state === 'submitted' ? (
        session.kind === 'key' ? (
          <p className="muted" data-testid="approve-why-not">
            Waiting for approval. Approvals are made by people: an approver or owner signs in to approve it;
            an API key cannot.
          </p>
        ) : !session.can.approve ? (
          <p className="muted" data-testid="approve-why-not">
            Waiting for approval. Your role ({session.role ?? 'none'}) does not include approvals: an approver
            or an owner approves it.
          </p>
        ) : submitter ? (
          <p className="muted" data-testid="approve-why-not">
            You submitted it: a second person, another approver or owner, approves it.
          </p>
        ) : (
          <>
            <p>
              Submitted by {a.submittedBy?.name ?? '—'}. Approving freezes it under its content hash and makes
              it evidence; its review falls due in 12 months.
            </p>
            <button
              type="button"
              disabled={act.busy}
              onClick={() => act.run(() => approveAssessment(session, a.assessmentId), 'Assessment approved')}
            >
              Approve
            </button>
          </>
        )
      ) : a.state === 'approved' ? (
        <>
          <p>Approved and frozen. A revision is a new draft, one version up, with these answers copied.</p>
          {session.can.write ? (
            <button
              type="button"
              disabled={act.busy}
              onClick={async () => {
                let revision: ImpactAssessment | undefined;
                const ok = await act.run(async () => {
                  revision = await reviseAssessment(session, a.assessmentId);
                }, 'Revision started');
                if (ok && revision) window.location.hash = assessmentHref(revision.assessmentId);
              }}
            >
              Revise
            </button>
          ) : null}
        </>
      ) : (
        <p>Superseded by a newer approved version.</p>
      )}
      {act.message}
    </section>
  );
}

/** The answers of an assessment no longer (or not by this key or person) editable. */
function ReadAnswers({ assessment, template }: { assessment: ImpactAssessment; template: Template }) {
  return (
    <section className="card wide" aria-labelledby="answers-heading" data-testid="answers">
      <h2 id="answers-heading">Answers</h2>
      {template.sections.map((section) => (
        <div key={section.sectionId}>
          <h3>{section.title}</h3>
          <dl className="answers">
            {section.questions.map((q) => (
              <div key={q.questionId} data-question={q.questionId}>
                <dt>{q.text}</dt>
                <dd>{answerText(q, assessment.answers[q.questionId])}</dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
      <h3>Impacts</h3>
      <ImpactList assessment={assessment} />
    </section>
  );
}

/** The recorded impacts; each links the risk it raised, or (for writers) raises one. */
function ImpactList({ assessment }: { assessment: ImpactAssessment }) {
  const session = useSession();
  const raise = useAction();
  // Only a draft's impact keeps the link to the risk it raised: here the page remembers it.
  const [raised, setRaised] = useState<Record<number, string>>({});
  const { impacts } = assessment;
  if (impacts.length === 0) return <p>No impact recorded.</p>;
  return (
    <>
      <Scroll>
        <table data-testid="impacts">
          <thead>
            <tr>
              <th scope="col">Affected</th>
              <th scope="col">Impact</th>
              <th scope="col">Rights</th>
              <th scope="col">Likelihood × severity</th>
              <th scope="col">Mitigation</th>
              <th scope="col">Risk</th>
            </tr>
          </thead>
          <tbody>
            {impacts.map((impact, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: impacts have no id; the list is shown as stored
              <tr key={index}>
                <td>{impact.affected}</td>
                <td>{impact.description}</td>
                <td>{impact.rights?.join(', ') || '—'}</td>
                <td className="num">
                  {impact.likelihood} × {impact.severity}
                </td>
                <td>{impact.mitigation ?? '—'}</td>
                <td>
                  {impact.riskId || raised[index] ? (
                    <a href={riskHref(impact.riskId ?? raised[index])}>the risk</a>
                  ) : session.can.write ? (
                    <button
                      type="button"
                      disabled={raise.busy}
                      onClick={() =>
                        raise.run(async () => {
                          const risk = await raiseImpactRisk(session, assessment.assessmentId, index);
                          setRaised((previous) => ({ ...previous, [index]: risk.riskId }));
                        }, 'Risk raised')
                      }
                    >
                      Raise impact {index + 1} as a risk
                    </button>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
      {raise.message}
    </>
  );
}

interface ImpactForm {
  key: number;
  affected: Impact['affected'];
  rights: string;
  description: string;
  likelihood: string;
  severity: string;
  mitigation: string;
  riskId: string;
}

const impactForm = (impact: Impact, key: number): ImpactForm => ({
  key,
  affected: impact.affected,
  rights: (impact.rights ?? []).join(', '),
  description: impact.description,
  likelihood: String(impact.likelihood),
  severity: String(impact.severity),
  mitigation: impact.mitigation ?? '',
  riskId: impact.riskId ?? '',
});

/** Whether an impact of the form is the one saved at its place: only a saved impact can be raised as a risk. */
const isSaved = (form: ImpactForm, saved: Impact | undefined) =>
  saved !== undefined &&
  saved.affected === form.affected &&
  saved.description === form.description &&
  saved.likelihood === Number(form.likelihood) &&
  saved.severity === Number(form.severity);

const impactOf = (form: ImpactForm): Impact => {
  const rights = form.rights
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  return {
    affected: form.affected,
    description: form.description,
    likelihood: Number(form.likelihood),
    severity: Number(form.severity),
    ...(rights.length ? { rights } : {}),
    ...(form.mitigation ? { mitigation: form.mitigation } : {}),
    ...(form.riskId ? { riskId: form.riskId } : {}),
  };
};

/** The form the template generates: one field per question, by its kind, and the list of impacts. */
function AnswerForm({ assessment, template }: { assessment: ImpactAssessment; template: Template }) {
  const session = useSession();
  const save = useAction();
  const [answers, setAnswers] = useState<Answers>(() => ({ ...assessment.answers }));
  const [impacts, setImpacts] = useState<ImpactForm[]>(() => assessment.impacts.map(impactForm));
  const raise = useAction();
  const next = useRef(assessment.impacts.length);
  const risks = useRisks({ state: '', level: '', systemId: assessment.systemId });
  const set = (questionId: string, value: AnswerValue | undefined) =>
    setAnswers((previous) => ({ ...previous, [questionId]: value }));
  const setImpact = (key: number, change: Partial<ImpactForm>) =>
    setImpacts((previous) => previous.map((i) => (i.key === key ? { ...i, ...change } : i)));
  const changes = () => {
    const body: Record<string, AnswerValue | null> = {};
    for (const section of template.sections) {
      for (const { questionId } of section.questions) {
        const value = answers[questionId];
        const before = assessment.answers[questionId];
        if (isEmpty(value)) {
          if (!isEmpty(before)) body[questionId] = null;
        } else if (JSON.stringify(value) !== JSON.stringify(before)) body[questionId] = value as AnswerValue;
      }
    }
    return body;
  };
  return (
    <form
      className="card wide assessment-form"
      aria-labelledby="answers-heading"
      data-testid="assessment-form"
      onSubmit={(event) => {
        event.preventDefault();
        const answered = changes();
        save.run(
          () =>
            saveAssessment(session, assessment.assessmentId, {
              ...(Object.keys(answered).length ? { answers: answered } : {}),
              impacts: impacts.map(impactOf),
            }),
          'Draft saved',
        );
      }}
    >
      <h2 id="answers-heading">Answers</h2>
      <p className="muted">{template.description}</p>
      {template.sections.map((section) => (
        <fieldset key={section.sectionId} className="section">
          <legend>{section.title}</legend>
          {section.description ? <p className="muted">{section.description}</p> : null}
          {section.questions.map((q) => (
            <QuestionField
              key={q.questionId}
              question={q}
              value={answers[q.questionId]}
              onChange={(value) => set(q.questionId, value)}
            />
          ))}
        </fieldset>
      ))}
      <fieldset className="section">
        <legend>Impacts</legend>
        {impacts.length === 0 ? <p>No impact recorded yet.</p> : null}
        {impacts.map((impact, index) => (
          <fieldset key={impact.key} className="impact" data-testid="impact">
            <legend>Impact {index + 1}</legend>
            <div className="filters">
              <Field label="Affected">
                {(id) => (
                  <select
                    id={id}
                    value={impact.affected}
                    onChange={(e) =>
                      setImpact(impact.key, { affected: e.target.value as Impact['affected'] })
                    }
                  >
                    {AFFECTED.map((a) => (
                      <option key={a}>{a}</option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Likelihood">
                {(id) => (
                  <select
                    id={id}
                    value={impact.likelihood}
                    onChange={(e) => setImpact(impact.key, { likelihood: e.target.value })}
                  >
                    {RATINGS.map((n) => (
                      <option key={n}>{n}</option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Severity">
                {(id) => (
                  <select
                    id={id}
                    value={impact.severity}
                    onChange={(e) => setImpact(impact.key, { severity: e.target.value })}
                  >
                    {RATINGS.map((n) => (
                      <option key={n}>{n}</option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Rights at stake (comma-separated)">
                {(id) => (
                  <input
                    id={id}
                    value={impact.rights}
                    onChange={(e) => setImpact(impact.key, { rights: e.target.value })}
                  />
                )}
              </Field>
              <Field label="Raised as risk">
                {(id) => (
                  <select
                    id={id}
                    value={impact.riskId}
                    onChange={(e) => setImpact(impact.key, { riskId: e.target.value })}
                  >
                    <option value="">none</option>
                    {(risks.data?.risks ?? []).map((r) => (
                      <option key={r.riskId} value={r.riskId}>
                        {r.title}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
            <Field label="What may happen">
              {(id) => (
                <textarea
                  id={id}
                  required
                  value={impact.description}
                  onChange={(e) => setImpact(impact.key, { description: e.target.value })}
                />
              )}
            </Field>
            <Field label="Mitigation">
              {(id) => (
                <textarea
                  id={id}
                  value={impact.mitigation}
                  onChange={(e) => setImpact(impact.key, { mitigation: e.target.value })}
                />
              )}
            </Field>
            <div className="buttons">
              <button
                type="button"
                onClick={() => setImpacts((previous) => previous.filter((i) => i.key !== impact.key))}
              >
                Remove impact {index + 1}
              </button>
              {!impact.riskId && isSaved(impact, assessment.impacts[index]) ? (
                <button
                  type="button"
                  disabled={raise.busy}
                  onClick={async () => {
                    let risk: Risk | undefined;
                    const ok = await raise.run(
                      async () => {
                        risk = await raiseImpactRisk(session, assessment.assessmentId, index);
                      },
                      `Impact ${index + 1} raised as a risk`,
                    );
                    // The server linked the draft's impact; the form keeps the link for the next save.
                    if (ok && risk) setImpact(impact.key, { riskId: risk.riskId });
                  }}
                >
                  Raise impact {index + 1} as a new risk
                </button>
              ) : null}
            </div>
          </fieldset>
        ))}
        <button
          type="button"
          onClick={() => {
            next.current += 1;
            setImpacts((previous) => [
              ...previous,
              {
                key: next.current,
                affected: 'individuals',
                rights: '',
                description: '',
                likelihood: '3',
                severity: '3',
                mitigation: '',
                riskId: '',
              },
            ]);
          }}
        >
          Add impact
        </button>
      </fieldset>
      {raise.message}
      <div className="buttons">
        <button type="submit" disabled={save.busy}>
          Save draft
        </button>
      </div>
      {save.message}
    </form>
  );
}

/** One question's field, by kind: text, choice (one option), multi (several), scale (1..n, named points). */
function QuestionField({
  question: q,
  value,
  onChange,
}: {
  question: Question;
  value: AnswerValue | undefined;
  onChange(value: AnswerValue | undefined): void;
}) {
  const id = useId();
  const help = q.help ? (
    <p className="muted help" id={`${id}-help`}>
      {q.help}
    </p>
  ) : null;
  const described = q.help ? `${id}-help` : undefined;
  const text = (
    <>
      {q.text}
      {q.required ? <span className="required"> (required)</span> : null}
    </>
  );
  const options = q.options ?? [];
  if (q.kind === 'multi' || q.kind === 'scale') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset className="question" data-question={q.questionId} aria-describedby={described}>
        <legend>{text}</legend>
        {help}
        <div className={q.kind === 'scale' ? 'scale' : 'options'}>
          {options.map((option, index) =>
            q.kind === 'scale' ? (
              <label key={option}>
                <input
                  type="radio"
                  name={id}
                  checked={value === index + 1}
                  onChange={() => onChange(index + 1)}
                />{' '}
                {index + 1} · {option}
              </label>
            ) : (
              <label key={option}>
                <input
                  type="checkbox"
                  checked={chosen.includes(option)}
                  onChange={(e) =>
                    onChange(e.target.checked ? [...chosen, option] : chosen.filter((c) => c !== option))
                  }
                />{' '}
                {option}
              </label>
            ),
          )}
        </div>
        {q.kind === 'scale' && typeof value === 'number' && !q.required ? (
          <button type="button" className="link" onClick={() => onChange(undefined)}>
            Clear
          </button>
        ) : null}
      </fieldset>
    );
  }
  return (
    <div className="field question" data-question={q.questionId}>
      <label htmlFor={id}>{text}</label>
      {help}
      {q.kind === 'choice' ? (
        <select
          id={id}
          aria-describedby={described}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value || undefined)}
        >
          <option value="">not answered</option>
          {options.map((option) => (
            <option key={option}>{option}</option>
          ))}
        </select>
      ) : (
        <textarea
          id={id}
          aria-describedby={described}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </div>
  );
}

/** Two versions of the same system's assessment of one template, side by side, the changed answers marked. */
function CompareVersions({ assessment, template }: { assessment: ImpactAssessment; template: Template }) {
  const list = useSystemAssessments(assessment.systemId);
  const line = (list.data?.assessments ?? [])
    .filter((a) => a.templateId === assessment.templateId)
    .sort((x, y) => x.version - y.version);
  const [left, setLeft] = useState<string | null>(null);
  const [right, setRight] = useState<string | null>(null);
  if (line.length < 2) return null;
  const current = line.findIndex((a) => a.assessmentId === assessment.assessmentId);
  const rightOne =
    line.find((a) => a.assessmentId === right) ?? line[current === -1 ? line.length - 1 : current];
  const leftOne =
    line.find((a) => a.assessmentId === left) ?? line[Math.max(0, line.indexOf(rightOne) - 1)] ?? line[0];
  const versionPicker = (name: string, value: ImpactAssessment, onChange: (id: string) => void) => (
    <Field label={name}>
      {(id) => (
        <select id={id} value={value.assessmentId} onChange={(e) => onChange(e.target.value)}>
          {line.map((a) => (
            <option key={a.assessmentId} value={a.assessmentId}>
              version {a.version} ({a.state})
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  const rows = template.sections.flatMap((section) => section.questions.map((q) => ({ section, q })));
  const changed = rows.filter(
    ({ q }) =>
      JSON.stringify(leftOne.answers[q.questionId] ?? null) !==
      JSON.stringify(rightOne.answers[q.questionId] ?? null),
  ).length;
  return (
    <section className="card wide" aria-labelledby="compare-heading" data-testid="compare">
      <h2 id="compare-heading">Compare versions</h2>
      <div className="filters">
        {versionPicker('Left', leftOne, setLeft)}
        {versionPicker('Right', rightOne, setRight)}
      </div>
      <p role="status">
        {changed === 0
          ? 'The answers are the same.'
          : `${changed} ${changed === 1 ? 'answer differs' : 'answers differ'}.`}
      </p>
      <Scroll>
        <table className="compare">
          <caption className="sr-only">
            Version {leftOne.version} and version {rightOne.version} side by side
          </caption>
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col">
                Version {leftOne.version} <StateBadge state={leftOne.state} />
              </th>
              <th scope="col">
                Version {rightOne.version} <StateBadge state={rightOne.state} />
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ q }) => {
              const before = leftOne.answers[q.questionId];
              const after = rightOne.answers[q.questionId];
              const differs = JSON.stringify(before ?? null) !== JSON.stringify(after ?? null);
              return (
                <tr
                  key={q.questionId}
                  data-question={q.questionId}
                  data-changed={differs}
                  className={differs ? 'changed' : ''}
                >
                  <th scope="row">
                    {q.text}
                    {differs ? <span className="sr-only"> (changed)</span> : null}
                  </th>
                  <td>{answerText(q, before)}</td>
                  <td>{answerText(q, after)}</td>
                </tr>
              );
            })}
            <tr>
              <th scope="row">Impacts</th>
              <td>{leftOne.impacts.length}</td>
              <td>{rightOne.impacts.length}</td>
            </tr>
          </tbody>
        </table>
      </Scroll>
    </section>
  );
}
