import { useState } from 'react';
import type { Assessment } from '../api';
import { frameworkHref } from '../links';
import { useGaps } from '../resources/cte';
import { useOrgFrameworks } from '../resources/frameworks';
import { Badge, label, Show } from '../ui';

/** How many gaps a list shows before "Show all N". */
const TOP = 10;

/** Where a gap's status comes from, in words. */
const SOURCE_WORDS: Record<Assessment, string> = {
  direct: 'as recorded',
  inferred: 'inferred',
  none: 'no record',
};

/**
 * A framework's gaps by priority: the top ten, then every one on request; each links to its record, and the
 * one whose record is open is marked.
 */
export function GapList({ frameworkId, selected }: { frameworkId: string; selected?: string }) {
  const [all, setAll] = useState(false);
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
            {g.gaps.length === 0 ? (
              <p>No gap: every applicable requirement is implemented.</p>
            ) : (
              <ol className="gap-list" data-testid="gap-list" id={`gaps-${frameworkId}`}>
                {(all ? g.gaps : g.gaps.slice(0, TOP)).map((gap) => (
                  <li key={gap.controlId} aria-current={gap.controlId === selected ? 'true' : undefined}>
                    <a href={frameworkHref(frameworkId, gap.controlId)}>{gap.controlId}</a>{' '}
                    <Badge kind={gap.priority}>{gap.priority}</Badge>{' '}
                    <Badge kind={gap.status}>{label(gap.status)}</Badge>{' '}
                    <span className="muted">{SOURCE_WORDS[gap.assessment]}</span>
                    <p>{gap.recommendation}</p>
                  </li>
                ))}
              </ol>
            )}
            {g.gaps.length > TOP ? (
              <button
                type="button"
                aria-expanded={all}
                aria-controls={`gaps-${frameworkId}`}
                onClick={() => setAll(!all)}
              >
                {all ? `Show the top ${TOP}` : `Show all ${g.gaps.length}`}
              </button>
            ) : null}
          </>
        )}
      </Show>
    </section>
  );
}

/** The gaps of one framework on a page of their own (the frameworks page links here). */
export function GapsView({ frameworkId }: { frameworkId: string }) {
  const frameworks = useOrgFrameworks();
  const name = frameworks.data?.frameworks.find((f) => f.frameworkId === frameworkId)?.name ?? frameworkId;
  return (
    <>
      <p>
        <a href={frameworkHref()}>← Frameworks</a> · <a href={frameworkHref(frameworkId)}>{name}: records</a>
      </p>
      <h1>Gaps · {name}</h1>
      <GapList frameworkId={frameworkId} />
    </>
  );
}
