import { useState } from 'react';
import type { Conflict, FrameworkDetail } from '../api';
import { frameworkHref } from '../links';
import { type ConflictFilters, useConflicts, useFrameworkDetails } from '../resources/cte';
import { useOrgFrameworks } from '../resources/frameworks';
import { Badge, Field, Show } from '../ui';
import { durationsInWords, parameterName, parameterWords } from '../words';

/** How many conflicts are open when the page (or a new filter) shows them; the rest are collapsed. */
const OPEN_FIRST = 3;

type Details = Map<string, FrameworkDetail>;

export function ConflictsView() {
  const [filters, setFilters] = useState<ConflictFilters>({ frameworkId: '', kind: '', severity: '' });
  const list = useConflicts(filters);
  return (
    <>
      <h1>Conflicts</h1>
      <ConflictFilterForm filters={filters} onChange={setFilters} />
      {/* Another list (a new filter) opens with its first few open again. */}
      <Show loaded={list}>
        {(l) => <ConflictList key={l.conflicts.map((c) => c.conflictId).join()} conflicts={l.conflicts} />}
      </Show>
    </>
  );
}

function ConflictFilterForm({
  filters,
  onChange,
}: {
  filters: ConflictFilters;
  onChange(filters: ConflictFilters): void;
}) {
  // The org's frameworks as the API lists them: built-in, clause frameworks and imported catalogs alike.
  const frameworks = useOrgFrameworks();
  const choice = (name: keyof ConflictFilters, options: string[], labels?: string[]) => (id: string) => (
    <select id={id} value={filters[name]} onChange={(e) => onChange({ ...filters, [name]: e.target.value })}>
      <option value="">any</option>
      {options.map((option, i) => (
        <option key={option} value={option}>
          {labels?.[i] ?? option}
        </option>
      ))}
    </select>
  );
  const known = frameworks.data?.frameworks ?? [];
  return (
    <div className="filters">
      <Field label="Framework">
        {choice(
          'frameworkId',
          known.map((f) => f.frameworkId),
          known.map((f) => f.name),
        )}
      </Field>
      <Field label="Kind">{choice('kind', ['contradiction', 'tension', 'overlap'])}</Field>
      <Field label="Severity">{choice('severity', ['high', 'medium', 'low'])}</Field>
    </div>
  );
}

/** The conflicts, the first few open; the parameters they turn on read from the library, in words. */
function ConflictList({ conflicts }: { conflicts: Conflict[] }) {
  const [open, setOpen] = useState(() => new Set(conflicts.slice(0, OPEN_FIRST).map((c) => c.conflictId)));
  const withParameters = conflicts.flatMap((c) => c.requirements.filter((r) => r.parameter));
  const details = useFrameworkDetails(withParameters.map((r) => r.frameworkId));
  const all = open.size === conflicts.length;
  const toggle = (conflictId: string, shown: boolean) =>
    setOpen((previous) => {
      if (previous.has(conflictId) === shown) return previous;
      const next = new Set(previous);
      if (shown) next.add(conflictId);
      else next.delete(conflictId);
      return next;
    });
  if (conflicts.length === 0) return <p>No conflict matches.</p>;
  return (
    <>
      <p className="muted">
        {conflicts.length} conflicts.{' '}
        <button
          type="button"
          onClick={() => setOpen(all ? new Set() : new Set(conflicts.map((c) => c.conflictId)))}
        >
          {all ? 'Collapse all' : 'Expand all'}
        </button>
      </p>
      <ul className="conflicts" data-testid="conflicts">
        {conflicts.map((c) => (
          <li key={c.conflictId}>
            <ConflictItem
              conflict={c}
              open={open.has(c.conflictId)}
              onToggle={(shown) => toggle(c.conflictId, shown)}
              details={details.data}
            />
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * The description's first sentence as the conflict's headline (clipped when long), and what the open card
 * still has to say: the rest of it, or all of it when the headline was clipped.
 */
function headline(description: string): { title: string; rest: string } {
  const text = durationsInWords(description);
  const [first, ...others] = text.split(/(?<=[.;:])\s/);
  if (first.length > 160) return { title: `${first.slice(0, 157)}…`, rest: text };
  return { title: first, rest: others.join(' ') };
}

function ConflictItem({
  conflict: c,
  open,
  onToggle,
  details,
}: {
  conflict: Conflict;
  open: boolean;
  onToggle(open: boolean): void;
  details: Details | undefined;
}) {
  const { title, rest } = headline(c.description);
  return (
    <details
      className="card conflict"
      data-conflict={c.conflictId}
      open={open}
      onToggle={(event) => onToggle(event.currentTarget.open)}
    >
      <summary>
        <Badge kind={c.severity}>{c.severity}</Badge> <Badge kind={c.kind}>{c.kind}</Badge>{' '}
        <span className="conflict-title">{title}</span> <span className="muted">{c.conflictId}</span>
      </summary>
      {rest ? <p>{rest}</p> : null}
      <ul>
        {c.requirements.map((r) => (
          <li key={`${r.frameworkId}/${r.requirementId}/${r.parameter ?? ''}`}>
            <a href={frameworkHref(r.frameworkId, r.requirementId)}>
              {r.frameworkId} {r.requirementId}
            </a>
            {r.parameter ? ` · ${parameterText(details, r.frameworkId, r.requirementId, r.parameter)}` : ''}
          </li>
        ))}
      </ul>
      <p>
        <strong>Resolution:</strong> {durationsInWords(c.resolution)}
      </p>
    </details>
  );
}

/** The values the requirement sets for the parameter, in words; its name alone until the library is read. */
function parameterText(
  details: Details | undefined,
  frameworkId: string,
  requirementId: string,
  type: string,
) {
  const control = details
    ?.get(frameworkId)
    ?.controls.find((candidate) => candidate.controlId === requirementId);
  const values = (control?.parameters ?? []).filter((parameter) => parameter.type === type);
  return values.length === 0 ? parameterName(type) : values.map(parameterWords).join('; ');
}
