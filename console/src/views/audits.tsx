import { useState } from 'react';
import { FINDING_KINDS, type FindingKind } from '../../../src/shared/vocabulary.js';
import type { Finding, InternalAudit } from '../api';
import { auditHref, findingHref, frameworkHref } from '../links';
import {
  changeFinding,
  checkFinding,
  type FindingFilters,
  moveAudit,
  openFinding,
  planAudit,
  type RequirementRef,
  useAudit,
  useAudits,
  useFinding,
  useFindingRequirements,
  useFindings,
} from '../resources/audits';
import { useOrgFrameworks } from '../resources/frameworks';
import { Badge, day, Field, label, Scroll, Show, useAction, useSession, when } from '../ui';
import { RequirementPicker, refText, useFrameworkNames } from './requirement-picker';

/** A date field's day as an instant: the start of the day (UTC), or its end for what is due that day. */
const startOfDay = (date: string) => `${date}T00:00:00.000Z`;
const endOfDay = (date: string) => `${date}T23:59:59.000Z`;
const today = () => new Date().toISOString().slice(0, 10);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** What an open major nonconformity does to each requirement it names, as the pages say it. */
export const CAP_TEXT = 'counts at most as in progress until closed';

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

// ---------------------------------------------------------------------------------------------------------------
// Audits

/** The internal audits (ISO/IEC 42001 9.2), latest planned first, and the form that plans one. */
export function AuditsView() {
  const session = useSession();
  const audits = useAudits();
  const nameOf = useFrameworkNames();
  return (
    <>
      <h1>Internal audits</h1>
      <Show loaded={audits}>
        {(list) =>
          list.audits.length === 0 ? (
            <p className="muted">No internal audit is planned yet.</p>
          ) : (
            <Scroll>
              <table data-testid="audits">
                <caption>Internal audits, latest planned first</caption>
                <thead>
                  <tr>
                    <th scope="col">Audit</th>
                    <th scope="col">State</th>
                    <th scope="col">Frameworks</th>
                    <th scope="col">Lead auditor</th>
                    <th scope="col">Planned</th>
                    <th scope="col">Findings open / closed</th>
                  </tr>
                </thead>
                <tbody>
                  {list.audits.map((a) => (
                    <tr key={a.auditId} data-audit={a.title}>
                      <th scope="row">
                        <a href={auditHref(a.auditId)}>{a.title}</a>
                      </th>
                      <td>
                        <Badge kind={a.state}>{label(a.state)}</Badge>
                      </td>
                      <td>{a.frameworkIds.map(nameOf).join(', ')}</td>
                      <td>{a.leadAuditor}</td>
                      <td className="num">
                        {day(a.plannedStart)} – {day(a.plannedEnd)}
                      </td>
                      <td className="num">
                        {a.findings.open} / {a.findings.closed}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )
        }
      </Show>
      {session.can.write ? <PlanAuditForm /> : null}
    </>
  );
}

function PlanAuditForm() {
  const session = useSession();
  const frameworks = useOrgFrameworks();
  const plan = useAction();
  const empty = () => ({
    title: '',
    frameworkIds: ['iso-42001'],
    criteria: '',
    leadAuditor: session.person?.name ?? '',
    plannedStart: today(),
    plannedEnd: inDays(14),
  });
  const [form, setForm] = useState(empty);
  return (
    <form
      className="card"
      aria-labelledby="plan-audit"
      onSubmit={async (event) => {
        event.preventDefault();
        let planned: InternalAudit | undefined;
        const done = await plan.run(async () => {
          planned = await planAudit(session, {
            title: form.title,
            frameworkIds: form.frameworkIds,
            ...(form.criteria.trim() ? { criteria: form.criteria.trim() } : {}),
            leadAuditor: form.leadAuditor,
            plannedStart: startOfDay(form.plannedStart),
            plannedEnd: endOfDay(form.plannedEnd),
          });
        }, 'Audit planned');
        if (done && planned) {
          setForm(empty());
          window.location.hash = auditHref(planned.auditId);
        }
      }}
    >
      <h2 id="plan-audit">Plan an internal audit</h2>
      <div className="filters">
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
        <Field label="Lead auditor">
          {(id) => (
            <input
              id={id}
              required
              value={form.leadAuditor}
              onChange={(e) => setForm({ ...form, leadAuditor: e.target.value })}
            />
          )}
        </Field>
        <Field label="Planned start">
          {(id) => (
            <input
              id={id}
              type="date"
              required
              value={form.plannedStart}
              onChange={(e) => setForm({ ...form, plannedStart: e.target.value })}
            />
          )}
        </Field>
        <Field label="Planned end">
          {(id) => (
            <input
              id={id}
              type="date"
              required
              min={form.plannedStart}
              value={form.plannedEnd}
              onChange={(e) => setForm({ ...form, plannedEnd: e.target.value })}
            />
          )}
        </Field>
      </div>
      <fieldset className="picker">
        <legend>Frameworks audited</legend>
        {(frameworks.data?.frameworks ?? []).map((f) => (
          <label key={f.frameworkId}>
            <input
              type="checkbox"
              checked={form.frameworkIds.includes(f.frameworkId)}
              onChange={(e) =>
                setForm({
                  ...form,
                  frameworkIds: e.target.checked
                    ? [...form.frameworkIds, f.frameworkId]
                    : form.frameworkIds.filter((id) => id !== f.frameworkId),
                })
              }
            />{' '}
            {f.name}
          </label>
        ))}
      </fieldset>
      <Field label="Audit criteria">
        {(id) => (
          <textarea
            id={id}
            value={form.criteria}
            onChange={(e) => setForm({ ...form, criteria: e.target.value })}
          />
        )}
      </Field>
      <button type="submit" disabled={plan.busy || form.frameworkIds.length === 0}>
        Plan audit
      </button>
      {plan.message}
    </form>
  );
}

/** One internal audit: its plan, the buttons that move it on, its findings and the form that records one. */
export function AuditView({ auditId }: { auditId: string }) {
  const audit = useAudit(auditId);
  const nameOf = useFrameworkNames();
  return (
    <Show loaded={audit}>
      {(a) => (
        <>
          <p>
            <a href={auditHref()}>Internal audits</a>
          </p>
          <h1>{a.title}</h1>
          <div className="grid">
            <section className="card" aria-labelledby="audit-facts">
              <h2 id="audit-facts">
                Audit <Badge kind={a.state}>{label(a.state)}</Badge>
              </h2>
              <dl className="facts" data-testid="audit-facts">
                <dt>Frameworks</dt>
                <dd>{a.frameworkIds.map(nameOf).join(', ')}</dd>
                <dt>Lead auditor</dt>
                <dd>{a.leadAuditor}</dd>
                <dt>Planned</dt>
                <dd>
                  {day(a.plannedStart)} – {day(a.plannedEnd)}
                </dd>
                <dt>Started</dt>
                <dd>{when(a.startedAt)}</dd>
                <dt>Completed</dt>
                <dd>{when(a.completedAt)}</dd>
                <dt>Criteria</dt>
                <dd>{a.criteria ?? '—'}</dd>
                <dt>Conclusion</dt>
                <dd data-testid="conclusion">{a.conclusion ?? '—'}</dd>
                <dt>Findings</dt>
                <dd>
                  {a.findings.open} open · {a.findings.closed} closed
                </dd>
              </dl>
            </section>
            <AuditStateCard audit={a} />
          </div>
          <section className="card" aria-labelledby="audit-findings">
            <h2 id="audit-findings">Findings</h2>
            <FindingTable auditId={a.auditId} />
          </section>
          {a.state !== 'completed' ? <OpenFindingForm audit={a} /> : null}
        </>
      )}
    </Show>
  );
}

function AuditStateCard({ audit }: { audit: InternalAudit }) {
  const session = useSession();
  const move = useAction();
  const [conclusion, setConclusion] = useState('');
  if (!session.can.write || audit.state === 'completed') return null;
  return (
    <section className="card" aria-labelledby="audit-state">
      <h2 id="audit-state">{audit.state === 'planned' ? 'Start the audit' : 'Complete the audit'}</h2>
      {audit.state === 'planned' ? (
        <button
          type="button"
          disabled={move.busy}
          onClick={() =>
            move.run(() => moveAudit(session, audit.auditId, { state: 'in_progress' }), 'Audit started')
          }
        >
          Start audit
        </button>
      ) : (
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            await move.run(
              () => moveAudit(session, audit.auditId, { state: 'completed', conclusion: conclusion.trim() }),
              'Audit completed',
            );
          }}
        >
          <Field label="Conclusion">
            {(id) => (
              <textarea id={id} required value={conclusion} onChange={(e) => setConclusion(e.target.value)} />
            )}
          </Field>
          <button type="submit" disabled={move.busy || !conclusion.trim()}>
            Complete audit
          </button>
        </form>
      )}
      {move.message}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Findings

const ANY: FindingFilters = { state: '', kind: '' };

/** Findings as a table: one audit's, or with no audit every finding of the org (with its audit). */
function FindingTable({ auditId, filters = ANY }: { auditId?: string; filters?: FindingFilters }) {
  const findings = useFindings(auditId, filters);
  const audits = useAudits();
  const titles = new Map((audits.data?.audits ?? []).map((a) => [a.auditId, a.title]));
  return (
    <Show loaded={findings}>
      {(list) =>
        list.findings.length === 0 ? (
          <p className="muted">No findings.</p>
        ) : (
          <Scroll>
            <table data-testid="findings">
              <thead>
                <tr>
                  <th scope="col">Finding</th>
                  <th scope="col">Kind</th>
                  <th scope="col">State</th>
                  <th scope="col">Requirements</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Due</th>
                  {auditId === undefined ? <th scope="col">Audit</th> : null}
                </tr>
              </thead>
              <tbody>
                {list.findings.map((f) => (
                  <tr key={f.findingId} data-finding={f.findingId}>
                    <th scope="row">
                      <a href={findingHref(f.findingId)}>{f.description.slice(0, 120)}</a>
                    </th>
                    <td>
                      <Badge kind={f.kind}>{label(f.kind)}</Badge>
                    </td>
                    <td>
                      <Badge kind={f.state}>{f.state}</Badge>
                      {f.caps ? <span className="muted"> · caps its requirements</span> : null}
                    </td>
                    <td>{f.requirements.map(refText).join(', ') || '—'}</td>
                    <td>{f.owner ?? '—'}</td>
                    <td className="num">{day(f.dueDate)}</td>
                    {auditId === undefined ? (
                      <td>
                        <a href={auditHref(f.auditId)}>{titles.get(f.auditId) ?? f.auditId}</a>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )
      }
    </Show>
  );
}

/** Every finding of the org, filtered by state and kind. */
export function FindingsView() {
  const [filters, setFilters] = useState<FindingFilters>({ state: 'open', kind: '' });
  return (
    <>
      <h1>Findings</h1>
      <div className="filters">
        <Field label="State">
          {(id) => (
            <select
              id={id}
              value={filters.state}
              onChange={(e) => setFilters({ ...filters, state: e.target.value })}
            >
              <option value="">any</option>
              <option value="open">open</option>
              <option value="closed">closed</option>
            </select>
          )}
        </Field>
        <Field label="Kind">
          {(id) => (
            <select
              id={id}
              value={filters.kind}
              onChange={(e) => setFilters({ ...filters, kind: e.target.value })}
            >
              <option value="">any</option>
              {FINDING_KINDS.map((k) => (
                <option key={k} value={k}>
                  {label(k)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <FindingTable filters={filters} />
    </>
  );
}

function OpenFindingForm({ audit }: { audit: InternalAudit }) {
  const session = useSession();
  const open = useAction();
  const empty = () => ({
    kind: 'major_nonconformity' as FindingKind,
    requirements: [] as RequirementRef[],
    description: '',
    owner: '',
    dueDate: '',
  });
  const [form, setForm] = useState(empty);
  if (!session.can.write) return null;
  return (
    <form
      className="card"
      aria-labelledby="open-finding"
      onSubmit={async (event) => {
        event.preventDefault();
        const done = await open.run(
          () =>
            openFinding(session, audit.auditId, {
              kind: form.kind,
              requirements: form.requirements,
              description: form.description.trim(),
              ...(form.owner.trim() ? { owner: form.owner.trim() } : {}),
              ...(form.dueDate ? { dueDate: endOfDay(form.dueDate) } : {}),
            }),
          'Finding opened',
        );
        if (done) setForm(empty());
      }}
    >
      <h2 id="open-finding">Open a finding</h2>
      <div className="filters">
        <Field label="Kind">
          {(id) => (
            <select
              id={id}
              value={form.kind}
              onChange={(e) => setForm({ ...form, kind: e.target.value as FindingKind })}
            >
              {FINDING_KINDS.map((k) => (
                <option key={k} value={k}>
                  {label(k)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Owner">
          {(id) => (
            <input id={id} value={form.owner} onChange={(e) => setForm({ ...form, owner: e.target.value })} />
          )}
        </Field>
        <Field label="Due">
          {(id) => (
            <input
              id={id}
              type="date"
              value={form.dueDate}
              onChange={(e) => setForm({ ...form, dueDate: e.target.value })}
            />
          )}
        </Field>
      </div>
      <RequirementPicker
        frameworkIds={audit.frameworkIds}
        value={form.requirements}
        onChange={(requirements) => setForm({ ...form, requirements })}
      />
      <Field label="Description">
        {(id) => (
          <textarea
            id={id}
            required
            value={form.description}
            onChange={(e) => setForm({ ...form, description: e.target.value })}
          />
        )}
      </Field>
      {form.kind === 'major_nonconformity' && form.requirements.length ? (
        <p className="muted">While it is open, each requirement chosen {CAP_TEXT}.</p>
      ) : null}
      <button type="submit" disabled={open.busy}>
        Open finding
      </button>
      {open.message}
    </form>
  );
}

/**
 * One finding: each requirement's status now and, while a major nonconformity is open, that it caps them; the
 * root cause and corrective action; the effectiveness checks, and the form that records one (approvers).
 */
export function FindingView({ findingId }: { findingId: string }) {
  const finding = useFinding(findingId);
  return (
    <Show loaded={finding}>
      {(f) => (
        <>
          <p>
            <a href={findingHref()}>Findings</a> · <AuditLink auditId={f.auditId} />
          </p>
          <h1>
            {sentence(label(f.kind))} <Badge kind={f.state}>{f.state}</Badge>
          </h1>
          <p className="lead">{f.description}</p>
          {f.caps ? (
            <p className="cap" data-testid="cap">
              This open major nonconformity caps its requirements: each {CAP_TEXT}.
            </p>
          ) : null}
          <FindingRequirements finding={f} />
          <div className="grid">
            <section className="card" aria-labelledby="finding-facts">
              <h2 id="finding-facts">Finding</h2>
              <dl className="facts">
                <dt>Owner</dt>
                <dd>{f.owner ?? '—'}</dd>
                <dt>Due</dt>
                <dd>{day(f.dueDate)}</dd>
                <dt>Opened</dt>
                <dd>{when(f.openedAt)}</dd>
                <dt>Closed</dt>
                <dd>{when(f.closedAt)}</dd>
                <dt>Root cause</dt>
                <dd>{f.rootCause ?? '—'}</dd>
                <dt>Corrective action</dt>
                <dd>{f.correctiveAction ?? '—'}</dd>
              </dl>
            </section>
            {f.state === 'open' ? <CorrectionForm finding={f} /> : null}
          </div>
          <Checks finding={f} />
          {f.state === 'open' ? <CheckForm finding={f} /> : null}
        </>
      )}
    </Show>
  );
}

function AuditLink({ auditId }: { auditId: string }) {
  const audit = useAudit(auditId);
  return <a href={auditHref(auditId)}>{audit.data?.title ?? 'The audit'}</a>;
}

function FindingRequirements({ finding }: { finding: Finding }) {
  const entries = useFindingRequirements(finding);
  const nameOf = useFrameworkNames();
  return (
    <section className="card finding-requirements" aria-labelledby="finding-requirements">
      <h2 id="finding-requirements">Requirements and their status now</h2>
      {finding.requirements.length === 0 ? (
        <p className="muted">The finding names no requirement.</p>
      ) : (
        <Scroll>
          <table data-testid="finding-requirements">
            <thead>
              <tr>
                <th scope="col">Requirement</th>
                <th scope="col">Framework</th>
                <th scope="col">Status now</th>
                <th scope="col">Cap</th>
              </tr>
            </thead>
            <tbody>
              {finding.requirements.map((r, i) => {
                const entry = entries.data?.[i];
                return (
                  <tr key={refText(r)} data-requirement={r.requirementId}>
                    <th scope="row">
                      <a href={frameworkHref(r.frameworkId, r.requirementId)}>{r.requirementId}</a>
                      {entry ? <span className="muted"> {entry.title}</span> : null}
                    </th>
                    <td>{nameOf(r.frameworkId)}</td>
                    <td>
                      <Badge kind={r.status}>{label(r.status)}</Badge>
                    </td>
                    <td>
                      {finding.caps ? (
                        <span className="cap-note">{CAP_TEXT}</span>
                      ) : (
                        <span className="muted">none</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </Scroll>
      )}
    </section>
  );
}

/** Root cause, corrective action, owner and due date of an open finding (writers). */
function CorrectionForm({ finding }: { finding: Finding }) {
  const session = useSession();
  const save = useAction();
  const [form, setForm] = useState({
    rootCause: finding.rootCause ?? '',
    correctiveAction: finding.correctiveAction ?? '',
    owner: finding.owner ?? '',
    dueDate: finding.dueDate ? finding.dueDate.slice(0, 10) : '',
  });
  if (!session.can.write) return null;
  const orNull = (text: string) => (text.trim() ? text.trim() : null);
  return (
    <form
      className="card"
      aria-labelledby="correction"
      onSubmit={async (event) => {
        event.preventDefault();
        await save.run(
          () =>
            changeFinding(session, finding, {
              rootCause: orNull(form.rootCause),
              correctiveAction: orNull(form.correctiveAction),
              owner: orNull(form.owner),
              dueDate: form.dueDate ? endOfDay(form.dueDate) : null,
            }),
          'Finding saved',
        );
      }}
    >
      <h2 id="correction">Root cause and corrective action</h2>
      <Field label="Root cause">
        {(id) => (
          <textarea
            id={id}
            value={form.rootCause}
            onChange={(e) => setForm({ ...form, rootCause: e.target.value })}
          />
        )}
      </Field>
      <Field label="Corrective action">
        {(id) => (
          <textarea
            id={id}
            value={form.correctiveAction}
            onChange={(e) => setForm({ ...form, correctiveAction: e.target.value })}
          />
        )}
      </Field>
      <div className="filters">
        <Field label="Owner">
          {(id) => (
            <input id={id} value={form.owner} onChange={(e) => setForm({ ...form, owner: e.target.value })} />
          )}
        </Field>
        <Field label="Due">
          {(id) => (
            <input
              id={id}
              type="date"
              value={form.dueDate}
              onChange={(e) => setForm({ ...form, dueDate: e.target.value })}
            />
          )}
        </Field>
      </div>
      <button type="submit" disabled={save.busy}>
        Save
      </button>
      {save.message}
    </form>
  );
}

function Checks({ finding }: { finding: Finding }) {
  return (
    <section className="card" aria-labelledby="checks">
      <h2 id="checks">Effectiveness checks</h2>
      {finding.checks.length === 0 ? (
        <p className="muted">No check recorded yet.</p>
      ) : (
        <Scroll>
          <table data-testid="checks">
            <thead>
              <tr>
                <th scope="col">Checked</th>
                <th scope="col">By</th>
                <th scope="col">Result</th>
                <th scope="col">Note</th>
                <th scope="col">Evidence</th>
              </tr>
            </thead>
            <tbody>
              {finding.checks.map((c) => (
                <tr key={c.checkId}>
                  <td className="num">{when(c.checkedAt)}</td>
                  <td>{c.checkedBy.name}</td>
                  <td>
                    <Badge kind={c.effective ? 'effective' : 'ineffective'}>
                      {c.effective ? 'effective' : 'not effective'}
                    </Badge>
                  </td>
                  <td>{c.note}</td>
                  <td>{c.evidenceIds.join(', ') || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
    </section>
  );
}

/** Records an effectiveness check: people who may approve only; an effective check closes the finding. */
function CheckForm({ finding }: { finding: Finding }) {
  const session = useSession();
  const check = useAction();
  const [form, setForm] = useState({ effective: true, note: '', evidenceIds: '' });
  if (!(session.kind === 'user' && session.can.approve)) {
    return (
      <p className="muted">
        An approver or owner, signed in as a person, records the effectiveness check that closes this finding.
      </p>
    );
  }
  return (
    <form
      className="card"
      aria-labelledby="record-check"
      onSubmit={async (event) => {
        event.preventDefault();
        const evidenceIds = form.evidenceIds.split(/[\s,]+/).filter(Boolean);
        const done = await check.run(
          () =>
            checkFinding(session, finding, {
              effective: form.effective,
              note: form.note.trim(),
              ...(evidenceIds.length ? { evidenceIds } : {}),
            }),
          form.effective ? 'Check recorded: the finding is closed' : 'Check recorded: the finding stays open',
        );
        if (done) setForm({ effective: true, note: '', evidenceIds: '' });
      }}
    >
      <h2 id="record-check">Record effectiveness check</h2>
      <fieldset className="segmented">
        <legend>Result</legend>
        <label>
          <input
            type="radio"
            name="effective"
            checked={form.effective}
            onChange={() => setForm({ ...form, effective: true })}
          />
          effective (closes the finding)
        </label>
        <label>
          <input
            type="radio"
            name="effective"
            checked={!form.effective}
            onChange={() => setForm({ ...form, effective: false })}
          />
          not effective (stays open)
        </label>
      </fieldset>
      <Field label="Check note">
        {(id) => (
          <textarea
            id={id}
            required
            value={form.note}
            onChange={(e) => setForm({ ...form, note: e.target.value })}
          />
        )}
      </Field>
      <Field label="Evidence ids (optional, comma-separated)">
        {(id) => (
          <input
            id={id}
            value={form.evidenceIds}
            onChange={(e) => setForm({ ...form, evidenceIds: e.target.value })}
          />
        )}
      </Field>
      <button type="submit" disabled={check.busy || !form.note.trim()}>
        Record effectiveness check
      </button>
      {check.message}
    </form>
  );
}
