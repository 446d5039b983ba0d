// The requirement picker the audit and document forms share, and the names of the org's frameworks.
import { useState } from 'react';
import { type RequirementRef, useOrgFrameworks, useRequirements } from '../resources/frameworks';
import { Field } from '../ui';

export const refText = (ref: RequirementRef) => `${ref.frameworkId} ${ref.requirementId}`;

/** The names of the org's frameworks, by id (the id itself until they are loaded). */
export function useFrameworkNames(): (frameworkId: string) => string {
  const frameworks = useOrgFrameworks();
  const names = new Map((frameworks.data?.frameworks ?? []).map((f) => [f.frameworkId, f.name]));
  return (frameworkId) => names.get(frameworkId) ?? frameworkId;
}

const NO_FILTERS = { status: '', assessment: '', applicable: '' };

/** Chooses requirements of the given frameworks: a framework, one of its requirements, Add; each chosen one can go. */
export function RequirementPicker({
  frameworkIds,
  value,
  onChange,
}: {
  frameworkIds: string[];
  value: RequirementRef[];
  onChange(value: RequirementRef[]): void;
}) {
  const nameOf = useFrameworkNames();
  const [frameworkId, setFrameworkId] = useState(frameworkIds[0] ?? 'iso-42001');
  const [requirementId, setRequirementId] = useState('');
  const requirements = useRequirements(frameworkId, NO_FILTERS);
  const chosen = (ref: RequirementRef) =>
    value.some((v) => v.frameworkId === ref.frameworkId && v.requirementId === ref.requirementId);
  const options = (requirements.data?.requirements ?? []).filter(
    (r) => !chosen({ frameworkId, requirementId: r.requirementId }),
  );
  const selected = options.some((r) => r.requirementId === requirementId)
    ? requirementId
    : (options[0]?.requirementId ?? '');
  return (
    <fieldset className="requirement-picker">
      <legend>Requirements</legend>
      {value.length ? (
        <ul data-testid="chosen-requirements">
          {value.map((ref) => (
            <li key={refText(ref)}>
              {nameOf(ref.frameworkId)} {ref.requirementId}{' '}
              <button
                type="button"
                className="link"
                aria-label={`Remove ${refText(ref)}`}
                onClick={() => onChange(value.filter((v) => v !== ref))}
              >
                remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None chosen yet.</p>
      )}
      <div className="filters">
        <Field label="Framework">
          {(id) => (
            <select
              id={id}
              value={frameworkId}
              onChange={(e) => {
                setFrameworkId(e.target.value);
                setRequirementId('');
              }}
            >
              {frameworkIds.map((f) => (
                <option key={f} value={f}>
                  {nameOf(f)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Requirement">
          {(id) => (
            <select id={id} value={selected} onChange={(e) => setRequirementId(e.target.value)}>
              {options.map((r) => (
                <option key={r.requirementId} value={r.requirementId}>
                  {r.requirementId} — {r.title}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button
          type="button"
          disabled={!selected}
          onClick={() => {
            onChange([...value, { frameworkId, requirementId: selected }]);
            setRequirementId('');
          }}
        >
          Add requirement
        </button>
      </div>
    </fieldset>
  );
}
