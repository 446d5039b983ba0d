import { useEffect, useRef } from 'react';
import { PROFILE_REVIEWER } from '../../../src/shared/vocabulary.js';
import type { Requirement } from '../api';
import { frameworkHref, scopeHref } from '../links';
import { useRequirement } from '../resources/frameworks';
import { Badge, label, Show, useSession, when } from '../ui';
import { Edits } from './requirement-edits';
import { EvidenceList } from './requirement-evidence';

/**
 * Brings the panel into view unless its top is already there: on a wide screen the panel stands beside the
 * list (sticky, so usually in view), on a narrow one above it, under the sticky navigation (its
 * `scroll-margin-top` keeps it clear). Called when the requirement changes and once its record is loaded,
 * so that content loading above it cannot leave it out of view.
 */
function keepInView(panel: HTMLElement | null) {
  if (!panel) return;
  const top = panel.getBoundingClientRect().top;
  const margin = Number.parseFloat(getComputedStyle(panel).scrollMarginTop) || 0;
  if (top < margin || top > window.innerHeight / 2) panel.scrollIntoView({ block: 'start' });
}

/**
 * A requirement's record, opened by a link to it (from a gap, a search hit, the overview, a risk's treatment):
 * what the org recorded, what the crosswalk infers, the edits, the evidence. Highlighted as the link's target.
 */
export function RequirementPanel({
  frameworkId,
  requirementId,
}: {
  frameworkId: string;
  requirementId: string;
}) {
  const session = useSession();
  const item = useRequirement(frameworkId, requirementId);
  const ref = { frameworkId, requirementId };
  const panel = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const loaded = item.data !== undefined;
  // Opening a requirement moves the focus to its panel (without the browser's own jump) and the panel into view.
  useEffect(() => heading.current?.focus({ preventScroll: true }), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once on opening, once more when the record is in
  useEffect(() => keepInView(panel.current), [loaded]);
  return (
    <section
      className="panel record-panel"
      aria-labelledby="panel-heading"
      data-testid="requirement-panel"
      ref={panel}
    >
      <h2 id="panel-heading" tabIndex={-1} ref={heading}>
        {requirementId}
      </h2>
      <a className="close" href={frameworkHref(frameworkId)}>
        Close
      </a>
      <Show loaded={item}>
        {(r) => (
          <>
            <p className="record-title">{r.title}</p>
            <RecordFacts requirement={r} />
            <h3>What the crosswalk infers</h3>
            <Reasoning requirement={r} />
            {session.can.write ? <Edits record={ref} requirement={r} /> : null}
          </>
        )}
      </Show>
      <EvidenceList record={ref} canWrite={session.can.write} />
    </section>
  );
}

function RecordFacts({ requirement: r }: { requirement: Requirement }) {
  return (
    <dl className="facts">
      <dt>Counts as</dt>
      <dd>
        <Badge kind={r.status}>{label(r.status)}</Badge>{' '}
        {r.assessment === 'direct'
          ? '(the organization’s record)'
          : r.assessment === 'inferred'
            ? '(inferred: no record of its own)'
            : '(no record, nothing inferred)'}
      </dd>
      <dt>Applicable</dt>
      <dd>{r.applicable ? 'yes' : `no: ${r.justification ?? ''}`}</dd>
      <dt>Reviewer</dt>
      <dd>
        {r.reviewer === PROFILE_REVIEWER ? (
          <a href={scopeHref()}>the applicability profile</a>
        ) : (
          (r.reviewer ?? '—')
        )}
      </dd>
      <dt>Owner</dt>
      <dd>{r.owner ?? '—'}</dd>
      <dt>Note</dt>
      <dd>{r.note || '—'}</dd>
      <dt>Updated</dt>
      <dd>{when(r.updatedAt)}</dd>
      {r.findings?.length ? (
        <>
          <dt>Capped</dt>
          <dd>an open major nonconformity counts it as in progress at most</dd>
        </>
      ) : null}
    </dl>
  );
}

function Reasoning({ requirement: r }: { requirement: Requirement }) {
  return (
    <>
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
    </>
  );
}
