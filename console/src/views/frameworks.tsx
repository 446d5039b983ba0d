import type { OrgFramework } from '../api';
import { frameworkHref, gapsHref } from '../links';
import { useGaps } from '../resources/cte';
import { useOrgFrameworks } from '../resources/frameworks';
import { Bar, pct, Scroll, Show, score } from '../ui';

/**
 * Every framework the API lists — built in, clause frameworks and imported catalogs alike — with the org's
 * score, and links to the framework's records and to its gaps.
 */
export function FrameworksView() {
  const frameworks = useOrgFrameworks();
  return (
    <>
      <h1>Frameworks</h1>
      <p className="muted">
        The score counts each applicable requirement by the organization's record, or else by what the
        crosswalk infers from the records of the other frameworks; the direct score counts the records alone.
      </p>
      <Show loaded={frameworks}>
        {(f) => (
          <Scroll>
            <table className="stack" data-testid="frameworks">
              <thead>
                <tr>
                  <th scope="col">Framework</th>
                  <th scope="col">Score</th>
                  <th scope="col">Direct score</th>
                  <th scope="col">Coverage</th>
                  <th scope="col">Records: direct / inferred / none</th>
                  <th scope="col">Gaps</th>
                </tr>
              </thead>
              <tbody>
                {f.frameworks.map((fw) => (
                  <FrameworkRow key={fw.frameworkId} framework={fw} />
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      </Show>
    </>
  );
}

function FrameworkRow({ framework: fw }: { framework: OrgFramework }) {
  return (
    <tr data-framework={fw.frameworkId}>
      <th scope="row">
        <a href={frameworkHref(fw.frameworkId)}>{fw.name}</a>
        <div className="muted">
          {fw.frameworkId} · {fw.controlCount} requirements
        </div>
      </th>
      <td className="num" data-label="Score">
        <span className="fw-score">{score(fw.score)}</span> <Bar value={fw.score} />
      </td>
      <td className="num" data-label="Direct score">
        {score(fw.directScore)}
      </td>
      <td className="num" data-label="Coverage">
        {pct(fw.coverage)}
      </td>
      <td data-label="Direct / inferred / none">
        <a href={frameworkHref(fw.frameworkId)}>Records</a>{' '}
        <span className="muted">
          {fw.assessed.direct} / {fw.assessed.inferred} / {fw.assessed.none}
        </span>
      </td>
      <td data-label="Gaps">
        <GapCount frameworkId={fw.frameworkId} />
      </td>
    </tr>
  );
}

function GapCount({ frameworkId }: { frameworkId: string }) {
  const gaps = useGaps(frameworkId);
  if (gaps.error) return <span className="muted">—</span>;
  if (!gaps.data) return <span className="muted">…</span>;
  const { gaps: list, summary } = gaps.data;
  return (
    <>
      <a href={gapsHref(frameworkId)}>
        {list.length} {list.length === 1 ? 'gap' : 'gaps'}
      </a>
      {summary.critical > 0 ? <span className="muted"> ({summary.critical} critical)</span> : null}
    </>
  );
}
