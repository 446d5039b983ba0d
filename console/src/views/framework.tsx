import { useEffect, useRef, useState } from 'react';
import { ASSESSMENTS, type Requirement, STATUSES } from '../api';
import { frameworkHref } from '../links';
import { useGaps } from '../resources/cte';
import {
  addEvidence,
  type RequirementRef,
  setApplicability,
  setRequirementStatus,
  useOrgFrameworks,
  useRequirement,
  useRequirementEvidence,
  useRequirements,
  withdrawAssessment,
} from '../resources/frameworks';
import { Badge, Field, label, Pager, Scroll, Show, useAction, useSession, when } from '../ui';
import { ScorePanel } from './overview';

const PAGE = 25;

export function FrameworkView({
  frameworkId,
  requirementId,
}: {
  frameworkId: string;
  requirementId?: string;
}) {
  const frameworks = useOrgFrameworks();
  const name = frameworks.data?.frameworks.find((f) => f.frameworkId === frameworkId)?.name ?? frameworkId;
  return (
    <>
      <h1>{name}</h1>
      <Field label="Framework">
        {(id) => (
          <select
            id={id}
            value={frameworkId}
            onChange={(event) => {
              window.location.hash = frameworkHref(event.target.value);
            }}
          >
            {(frameworks.data?.frameworks ?? [{ frameworkId, name: frameworkId }]).map((f) => (
              <option key={f.frameworkId} value={f.frameworkId}>
                {f.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="grid">
        <ScorePanel frameworkId={frameworkId} />
        <GapList frameworkId={frameworkId} />
      </div>
      <Requirements frameworkId={frameworkId} selected={requirementId} />
    </>
  );
}

function GapList({ frameworkId }: { frameworkId: string }) {
  const [offset, setOffset] = useState(0);
  const gaps = useGaps(frameworkId);
  return (
    <section aria-labelledby="gap-heading" className="card">
      <h2 id="gap-heading">Gaps by priority</h2>
      <Show loaded={gaps}>
        {(g) => (
          <>
            <p data-testid="gap-summary">
              {g.summary.critical} critical · {g.summary.important} important · {g.summary.minor} minor
            </p>
            <ol className="gap-list" start={offset + 1}>
              {g.gaps.slice(offset, offset + 10).map((gap) => (
                <li key={gap.controlId}>
                  <a href={frameworkHref(frameworkId, gap.controlId)}>{gap.controlId}</a>{' '}
                  <Badge kind={gap.priority}>{gap.priority}</Badge>{' '}
                  <Badge kind={gap.status}>{label(gap.status)}</Badge>{' '}
                  <span className="muted">{gap.assessment}</span>
                  <p>{gap.recommendation}</p>
                </li>
              ))}
            </ol>
            <Pager offset={offset} limit={10} total={g.gaps.length} onChange={setOffset} label="Gaps" />
          </>
        )}
      </Show>
    </section>
  );
}

function Requirements({ frameworkId, selected }: { frameworkId: string; selected?: string }) {
  const [status, setStatus] = useState('');
  const [assessment, setAssessment] = useState('');
  const [applicable, setApplicable] = useState('');
  const [text, setText] = useState('');
  const [offset, setOffset] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts at the first page
  useEffect(() => setOffset(0), [frameworkId, status, assessment, applicable, text]);
  const list = useRequirements(frameworkId, { status, assessment, applicable });
  const needle = text.trim().toLowerCase();
  return (
    <section aria-labelledby="req-heading" className="card wide">
      <h2 id="req-heading">Requirements</h2>
      <div className="filters">
        <Field label="Status">
          {(id) => (
            <select id={id} value={status} onChange={(e) => setStatus(e.target.value)}>
              <option value="">any</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {label(s)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Source">
          {(id) => (
            <select id={id} value={assessment} onChange={(e) => setAssessment(e.target.value)}>
              <option value="">any</option>
              {ASSESSMENTS.map((source) => (
                <option key={source} value={source}>
                  {source}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Applicable">
          {(id) => (
            <select id={id} value={applicable} onChange={(e) => setApplicable(e.target.value)}>
              <option value="">any</option>
              <option value="true">yes</option>
              <option value="false">no</option>
            </select>
          )}
        </Field>
        <Field label="Search">
          {(id) => (
            <input
              id={id}
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="id or title"
            />
          )}
        </Field>
      </div>
      <Show loaded={list}>
        {(l) => {
          const rows = needle
            ? l.requirements.filter((r) => `${r.requirementId} ${r.title}`.toLowerCase().includes(needle))
            : l.requirements;
          return (
            <>
              <Scroll>
                <table className="requirements">
                  <thead>
                    <tr>
                      <th scope="col">Requirement</th>
                      <th scope="col">Title</th>
                      <th scope="col">Status</th>
                      <th scope="col">Source</th>
                      <th scope="col">Applicable</th>
                      <th scope="col">Evidence</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.slice(offset, offset + PAGE).map((r) => (
                      <tr
                        key={r.requirementId}
                        data-requirement={r.requirementId}
                        aria-selected={r.requirementId === selected}
                      >
                        <th scope="row">
                          <a href={frameworkHref(frameworkId, r.requirementId)}>{r.requirementId}</a>
                        </th>
                        <td>{r.title}</td>
                        <td>
                          <Badge kind={r.status}>{label(r.status)}</Badge>
                        </td>
                        <td>{r.assessment}</td>
                        <td>{r.applicable ? 'yes' : 'no'}</td>
                        <td className="num">
                          {r.evidenceCount}
                          {r.evidenceExpired ? <Badge kind="expired">expired</Badge> : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Scroll>
              <Pager
                offset={offset}
                limit={PAGE}
                total={rows.length}
                onChange={setOffset}
                label="Requirements"
              />
            </>
          );
        }}
      </Show>
      {selected ? (
        <RequirementPanel
          key={`${frameworkId}/${selected}`}
          frameworkId={frameworkId}
          requirementId={selected}
        />
      ) : null}
    </section>
  );
}

function RequirementPanel({ frameworkId, requirementId }: { frameworkId: string; requirementId: string }) {
  const session = useSession();
  const item = useRequirement(frameworkId, requirementId);
  const ref = { frameworkId, requirementId };
  const canWrite = session.can.write;
  const heading = useRef<HTMLHeadingElement>(null);
  // Opening a requirement moves the focus (and the view) to its panel.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="panel" aria-labelledby="panel-heading" data-testid="requirement-panel">
      <h2 id="panel-heading" tabIndex={-1} ref={heading}>
        {requirementId}
      </h2>
      <a className="close" href={frameworkHref(frameworkId)}>
        Close
      </a>
      <Show loaded={item}>
        {(r) => (
          <>
            <p>{r.title}</p>
            <dl className="facts">
              <dt>Status</dt>
              <dd>
                <Badge kind={r.status}>{label(r.status)}</Badge> ({r.assessment})
              </dd>
              <dt>Applicable</dt>
              <dd>{r.applicable ? 'yes' : `no: ${r.justification ?? ''}`}</dd>
              <dt>Reviewer</dt>
              <dd>{r.reviewer ?? '—'}</dd>
              <dt>Owner</dt>
              <dd>{r.owner ?? '—'}</dd>
              <dt>Note</dt>
              <dd>{r.note ?? '—'}</dd>
              <dt>Updated</dt>
              <dd>{when(r.updatedAt)}</dd>
            </dl>
            <h3>What the crosswalk infers</h3>
            <p>
              <Badge kind={r.inferred.status}>{label(r.inferred.status)}</Badge> ({r.inferred.coverage})
              {r.inferred.from.length > 0
                ? ` from ${r.inferred.from.map((f) => `${f.frameworkId} ${f.requirementId}`).join(', ')}`
                : ''}
            </p>
            {r.inferred.justifications && r.inferred.justifications.length > 0 ? (
              <ul className="reasoning">
                {r.inferred.justifications.map((j) => (
                  <li key={`${j.frameworkId}/${j.controlId}/${j.path.length}`}>
                    {j.frameworkId} {j.controlId} is {label(j.controlStatus)}
                    {j.evidenceExpired ? ' (evidence expired)' : ''}: {j.credit} credit
                    <ul>
                      {j.path.map((step) => (
                        <li key={`${step.from.requirementId}>${step.to.requirementId}`}>
                          {step.from.frameworkId} {step.from.requirementId} → {step.to.frameworkId}{' '}
                          {step.to.requirementId}: {step.relationship} ({step.origin})
                        </li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ul>
            ) : null}
            {canWrite ? <Edits record={ref} requirement={r} /> : null}
          </>
        )}
      </Show>
      <EvidenceList record={ref} canWrite={canWrite} />
    </section>
  );
}

function Edits({ record, requirement }: { record: RequirementRef; requirement: Requirement }) {
  const session = useSession();
  const status = useAction();
  const applicability = useAction();
  const withdraw = useAction();
  // A signed-in person is the reviewer of what they change: the API records their name whatever is sent.
  const person = session.person;
  const [form, setForm] = useState({
    status: requirement.status as string,
    reviewer: person?.name ?? requirement.reviewer ?? '',
    note: '',
    owner: requirement.owner ?? '',
  });
  const [appl, setAppl] = useState({
    applicable: requirement.applicable,
    justification: requirement.justification ?? '',
    reviewer: person?.name ?? requirement.reviewer ?? '',
  });
  return (
    <div className="edits">
      <form
        aria-labelledby="status-form"
        onSubmit={(event) => {
          event.preventDefault();
          status.run(
            () =>
              setRequirementStatus(session, record, {
                status: form.status,
                reviewer: form.reviewer,
                ...(form.note ? { note: form.note } : {}),
                ...(form.owner ? { owner: form.owner } : {}),
              }),
            'Status saved',
          );
        }}
      >
        <h3 id="status-form">Set status</h3>
        <Field label="New status">
          {(id) => (
            <select
              id={id}
              value={form.status}
              onChange={(e) => setForm({ ...form, status: e.target.value })}
            >
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {label(s)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Reviewer">
          {(id) =>
            person ? (
              <ReviewerIsYou id={id} name={person.name} />
            ) : (
              <input
                id={id}
                required
                value={form.reviewer}
                onChange={(e) => setForm({ ...form, reviewer: e.target.value })}
              />
            )
          }
        </Field>
        <Field label="Owner">
          {(id) => (
            <input id={id} value={form.owner} onChange={(e) => setForm({ ...form, owner: e.target.value })} />
          )}
        </Field>
        <Field label="Note">
          {(id) => (
            <input id={id} value={form.note} onChange={(e) => setForm({ ...form, note: e.target.value })} />
          )}
        </Field>
        <button type="submit" disabled={status.busy}>
          Save status
        </button>
        {status.message}
      </form>
      <form
        aria-labelledby="appl-form"
        onSubmit={(event) => {
          event.preventDefault();
          applicability.run(() => setApplicability(session, record, appl), 'Applicability saved');
        }}
      >
        <h3 id="appl-form">Applicability</h3>
        <Field label="Applies to the organization">
          {(id) => (
            <select
              id={id}
              value={appl.applicable ? 'true' : 'false'}
              onChange={(e) => setAppl({ ...appl, applicable: e.target.value === 'true' })}
            >
              <option value="true">applicable</option>
              <option value="false">not applicable</option>
            </select>
          )}
        </Field>
        <Field label="Justification">
          {(id) => (
            <textarea
              id={id}
              required
              value={appl.justification}
              onChange={(e) => setAppl({ ...appl, justification: e.target.value })}
            />
          )}
        </Field>
        <Field label="Reviewer (applicability)">
          {(id) =>
            person ? (
              <ReviewerIsYou id={id} name={person.name} />
            ) : (
              <input
                id={id}
                required
                value={appl.reviewer}
                onChange={(e) => setAppl({ ...appl, reviewer: e.target.value })}
              />
            )
          }
        </Field>
        <button type="submit" disabled={applicability.busy}>
          Save applicability
        </button>
        {applicability.message}
      </form>
      {record.frameworkId !== 'iso-42001' && requirement.assessment === 'direct' ? (
        <div>
          <button
            type="button"
            disabled={withdraw.busy}
            onClick={() =>
              withdraw.run(
                () => withdrawAssessment(session, record),
                'Withdrawn: the crosswalk decides again',
              )
            }
          >
            Withdraw the direct record
          </button>
          {withdraw.message}
        </div>
      ) : null}
    </div>
  );
}

function EvidenceList({ record, canWrite }: { record: RequirementRef; canWrite: boolean }) {
  const session = useSession();
  const [offset, setOffset] = useState(0);
  const list = useRequirementEvidence(record.frameworkId, record.requirementId, offset);
  const add = useAction();
  const empty = { type: 'document', title: '', fileUrl: '', description: '', expiresAt: '' };
  const [form, setForm] = useState(empty);
  return (
    <>
      <h3>Evidence</h3>
      <Show loaded={list}>
        {(l) => (
          <>
            {l.evidence.length === 0 ? (
              <p>No evidence yet.</p>
            ) : (
              <ul className="evidence" data-testid="evidence-list">
                {l.evidence.map((e) => (
                  <li key={e.evidenceId}>
                    <Badge kind={e.type}>{e.type}</Badge>{' '}
                    {e.fileUrl ? (
                      <a href={e.fileUrl} rel="noopener noreferrer" target="_blank">
                        {e.title}
                      </a>
                    ) : (
                      e.title
                    )}{' '}
                    <span className="muted">
                      added {when(e.createdAt)}
                      {e.expiresAt ? ` · expires ${e.expiresAt.slice(0, 10)}` : ''}
                    </span>
                    {e.expired ? <Badge kind="expired">expired</Badge> : null}
                  </li>
                ))}
              </ul>
            )}
            <Pager offset={offset} limit={10} total={l.total} onChange={setOffset} label="Evidence" />
          </>
        )}
      </Show>
      {canWrite ? (
        <form
          aria-labelledby="evidence-form"
          onSubmit={async (event) => {
            event.preventDefault();
            const ok = await add.run(
              () =>
                addEvidence(session, record, {
                  type: form.type,
                  title: form.title,
                  ...(form.fileUrl ? { fileUrl: form.fileUrl } : {}),
                  ...(form.description ? { description: form.description } : {}),
                  ...(form.expiresAt ? { expiresAt: form.expiresAt } : {}),
                }),
              'Evidence added',
            );
            if (ok) setForm(empty);
          }}
        >
          <h3 id="evidence-form">Add evidence</h3>
          <Field label="Type">
            {(id) => (
              <select id={id} value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value })}>
                <option value="document">document</option>
                <option value="link">link</option>
                <option value="attestation">attestation</option>
              </select>
            )}
          </Field>
          <Field label="Title">
            {(id) => (
              <input
                id={id}
                required
                value={form.title}
                onChange={(e) => setForm({ ...form, title: e.target.value })}
              />
            )}
          </Field>
          <Field label="File URL">
            {(id) => (
              <input
                id={id}
                type="url"
                required={form.type !== 'attestation'}
                value={form.fileUrl}
                onChange={(e) => setForm({ ...form, fileUrl: e.target.value })}
              />
            )}
          </Field>
          <Field label="Expires on">
            {(id) => (
              <input
                id={id}
                type="date"
                value={form.expiresAt}
                onChange={(e) => setForm({ ...form, expiresAt: e.target.value })}
              />
            )}
          </Field>
          <button type="submit" disabled={add.busy}>
            Add evidence
          </button>
          {add.message}
        </form>
      ) : null}
    </>
  );
}

/** The reviewer field of a signed-in person: their own name, not editable. */
const ReviewerIsYou = ({ id, name }: { id: string; name: string }) => (
  <input id={id} readOnly value={name} title="Changes you make are recorded under your name" />
);
