import { useState } from 'react';
import type { SearchResult } from '../api';
import { frameworkHref } from '../links';
import { searchRequirements } from '../resources/cte';
import { recordKey, useOrgFrameworks, useRequirementRecords } from '../resources/frameworks';
import { Badge, ErrorText, Field, statusText, useSession } from '../ui';

/** Questions an officer asks in their own words; the empty page offers them, one click runs one. */
const EXAMPLES = [
  'Who needs to be trained on AI at our company?',
  'An algorithm is screening CVs',
  'How long must we keep the logs of an AI system?',
  'What must we do after a serious incident?',
  'Must a person be able to override an automated decision?',
];

/** Hits shown: the closest of the framework chosen (the API ranks at most 100 of every framework). */
const SHOWN = 20;

type Hit = SearchResult['results'][number];

export function SearchView() {
  const session = useSession();
  const frameworks = useOrgFrameworks();
  const [query, setQuery] = useState('');
  const [frameworkId, setFrameworkId] = useState('');
  const [state, setState] = useState<{ results?: Hit[]; model?: string; error?: Error; busy?: boolean }>({});
  const run = async (text: string) => {
    setState((previous) => ({ ...previous, busy: true }));
    try {
      const r = await searchRequirements(session, text);
      setState({ results: r.results, model: r.model });
    } catch (error) {
      setState({ error: error as Error });
    }
  };
  const hits = (state.results ?? []).filter((r) => !frameworkId || r.frameworkId === frameworkId);
  return (
    <>
      <h1>Semantic search</h1>
      <search>
        <form
          className="search-form"
          onSubmit={(event) => {
            event.preventDefault();
            run(query);
          }}
        >
          <Field label="Search every framework">
            {(id) => (
              <input
                id={id}
                type="search"
                className="search-box"
                required
                placeholder="Ask in your own words: who must be trained on AI?"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
              />
            )}
          </Field>
          <div className="filters">
            <Field label="Framework">
              {(id) => (
                <select id={id} value={frameworkId} onChange={(e) => setFrameworkId(e.target.value)}>
                  <option value="">every framework</option>
                  {(frameworks.data?.frameworks ?? []).map((f) => (
                    <option key={f.frameworkId} value={f.frameworkId}>
                      {f.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <button type="submit" disabled={state.busy}>
              Search
            </button>
          </div>
        </form>
      </search>
      {state.error ? <ErrorText error={state.error} /> : null}
      {state.results ? (
        hits.length === 0 ? (
          <p>
            {state.results.length === 0
              ? 'Nothing found.'
              : `None of the ${state.results.length} closest requirements is in this framework.`}
          </p>
        ) : (
          <Hits hits={hits.slice(0, SHOWN)} />
        )
      ) : (
        <section className="card" aria-labelledby="examples-heading" data-testid="search-examples">
          <h2 id="examples-heading">Try a question</h2>
          <ul className="examples">
            {EXAMPLES.map((example) => (
              <li key={example}>
                <button
                  type="button"
                  className="link"
                  onClick={() => {
                    setQuery(example);
                    run(example);
                  }}
                >
                  {example}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {state.model ? <p className="muted">model: {state.model}</p> : null}
    </>
  );
}

/** The hits, each with the org's status of the requirement (its record, or what the crosswalk infers). */
function Hits({ hits }: { hits: Hit[] }) {
  const records = useRequirementRecords(hits.map((hit) => hit.frameworkId));
  return (
    <ol className="results" data-testid="search-results">
      {hits.map((hit) => {
        const record = records.data?.get(recordKey(hit.frameworkId, hit.requirementId));
        return (
          <li
            key={`${hit.frameworkId}/${hit.requirementId}`}
            data-framework={hit.frameworkId}
            data-requirement={hit.requirementId}
          >
            <a href={frameworkHref(hit.frameworkId, hit.requirementId)}>
              {hit.frameworkId} {hit.requirementId}
            </a>{' '}
            {hit.title}{' '}
            <span data-testid="hit-status">
              {record ? (
                <Badge kind={record.applicable ? record.status : 'not_applicable'}>
                  {statusText(record)}
                </Badge>
              ) : (
                <span className="muted">…</span>
              )}
            </span>{' '}
            <span className="muted">distance {hit.distance.toFixed(3)}</span>
          </li>
        );
      })}
    </ol>
  );
}
