import { frameworkHref, gapsHref } from '../links';
import { useOrgFrameworks } from '../resources/frameworks';
import { Field } from '../ui';
import { GapList } from './gaps';
import { ScorePanel } from './overview';
import { RequirementPanel } from './requirement-panel';
import { Requirements } from './requirements-table';

/**
 * One framework: its score and history, its gaps, its requirements with the org's records, and — when the
 * address names a requirement — that requirement's record in a panel beside the list (above it on a narrow
 * screen), brought into view and highlighted.
 */
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
      <p>
        <a href={frameworkHref()}>← Frameworks</a> · <a href={gapsHref(frameworkId)}>every gap</a>
      </p>
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
      <div className={requirementId === undefined ? 'framework-body' : 'framework-body with-record'}>
        <div className="framework-main">
          <div className="grid">
            <ScorePanel frameworkId={frameworkId} />
            <GapList frameworkId={frameworkId} selected={requirementId} />
          </div>
          <Requirements frameworkId={frameworkId} selected={requirementId} />
        </div>
        {requirementId === undefined ? null : (
          <RequirementPanel
            key={`${frameworkId}/${requirementId}`}
            frameworkId={frameworkId}
            requirementId={requirementId}
          />
        )}
      </div>
    </>
  );
}
