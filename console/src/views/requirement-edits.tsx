import { useEffect, useState } from 'react';
import { ISO_42001, PROFILE_REVIEWER } from '../../../src/shared/vocabulary.js';
import { type Requirement, STATUSES } from '../api';
import {
  type RequirementRef,
  setApplicability,
  setRequirementStatus,
  withdrawAssessment,
} from '../resources/frameworks';
import { Field, label, useAction, useSession } from '../ui';

/** The writes on a requirement's record: its status, its applicability, and the withdrawal of a direct record. */
export function Edits({ record, requirement }: { record: RequirementRef; requirement: Requirement }) {
  return (
    <div className="edits">
      <StatusForm record={record} requirement={requirement} />
      <ApplicabilityForm record={record} requirement={requirement} />
      {record.frameworkId !== ISO_42001 && requirement.assessment === 'direct' ? (
        <Withdraw record={record} />
      ) : null}
    </div>
  );
}

/**
 * The status the organization recorded itself, or '' when it recorded none. An inferred status is never a
 * starting value: saving a note would turn the inference into a claim nobody made. Nor is a status an open
 * major nonconformity caps (it reads `in_progress` whatever was recorded): the officer states it again.
 */
export function ownStatus(requirement: Requirement): string {
  if (requirement.assessment !== 'direct') return '';
  if (requirement.findings?.length && requirement.status === 'in_progress') return '';
  return requirement.status;
}

/** "inferred: implemented via iso-42001 A.6.2.4, iso-42001 A.8.2" — what the crosswalk gives, as information. */
export function inferredText(requirement: Requirement): string {
  const { status, from } = requirement.inferred;
  const sources = from.map((source) => `${source.frameworkId} ${source.requirementId}`).join(', ');
  return `inferred: ${label(status)}${sources ? ` via ${sources}` : ' (no record of another framework reaches it)'}`;
}

function StatusForm({ record, requirement }: { record: RequirementRef; requirement: Requirement }) {
  const session = useSession();
  const status = useAction();
  // A signed-in person is the reviewer of what they change: the API records their name whatever is sent.
  const person = session.person;
  const initial = () => ({
    status: ownStatus(requirement),
    reviewer: person?.name ?? requirement.reviewer ?? '',
    note: requirement.note ?? '',
    owner: requirement.owner ?? '',
  });
  const [form, setForm] = useState(initial);
  // After a write (this one, a withdrawal, another tab's) the form starts again from the record.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the record's stamp and source say it changed
  useEffect(() => setForm(initial()), [requirement.updatedAt, requirement.assessment]);
  const capped = Boolean(requirement.findings?.length) && requirement.assessment === 'direct';
  return (
    <form
      aria-labelledby="status-form"
      onSubmit={(event) => {
        event.preventDefault();
        status.run(
          () =>
            setRequirementStatus(session, record, {
              status: form.status,
              reviewer: form.reviewer,
              // An emptied note clears the one recorded.
              ...(form.note || requirement.note ? { note: form.note } : {}),
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
            required
            value={form.status}
            onChange={(e) => setForm({ ...form, status: e.target.value })}
          >
            <option value="" disabled>
              {capped ? 'choose (capped by a finding)' : 'none recorded: choose'}
            </option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {label(s)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <p className="muted hint" data-testid="inferred-status">
        {inferredText(requirement)}
        {requirement.assessment === 'direct' ? ' (the record overrides it)' : ''}
      </p>
      {capped && form.status === '' ? (
        <p className="muted hint">
          An open major nonconformity counts this requirement as in progress at most: state the status the
          organization records.
        </p>
      ) : null}
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
  );
}

function ApplicabilityForm({ record, requirement }: { record: RequirementRef; requirement: Requirement }) {
  const session = useSession();
  const applicability = useAction();
  const person = session.person;
  // An exclusion the applicability profile wrote is no one's judgement: overriding it takes a reason and a name.
  const byProfile = requirement.reviewer === PROFILE_REVIEWER;
  const [appl, setAppl] = useState({
    applicable: requirement.applicable,
    justification: byProfile ? '' : (requirement.justification ?? ''),
    reviewer: person?.name ?? (byProfile ? '' : (requirement.reviewer ?? '')),
  });
  return (
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
  );
}

function Withdraw({ record }: { record: RequirementRef }) {
  const session = useSession();
  const withdraw = useAction();
  return (
    <div>
      <button
        type="button"
        disabled={withdraw.busy}
        onClick={() =>
          withdraw.run(() => withdrawAssessment(session, record), 'Withdrawn: the crosswalk decides again')
        }
      >
        Withdraw the direct record
      </button>
      {withdraw.message}
    </div>
  );
}

/** The reviewer field of a signed-in person: their own name, not editable. */
const ReviewerIsYou = ({ id, name }: { id: string; name: string }) => (
  <input id={id} readOnly value={name} title="Changes you make are recorded under your name" />
);
