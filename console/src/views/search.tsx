import { useRef, useState } from 'react';
import type { SearchResult } from '../api';
import { frameworkHref } from '../links';
import { searchRequirements } from '../resources/cte';
import { useOrgFrameworks } from '../resources/frameworks';
import { Badge, ErrorText, Field, statusText, useSession } from '../ui';

/** Questions an officer asks in their own words; the empty page offers them, one click runs one. */
const EXAMPLES = [
  'Who needs to be trained on AI at our company?',
  'An algorithm is screening CVs',
  'How long must we keep the logs of an AI system?',
  'What must we do after a serious incident?',
  'Must a person be able to override an automated decision?',
];

/** Hits shown: the closest of every framework, or of the framework chosen (the API searches in it). */
const SHOWN = 20;

type Hit = SearchResult['results'][number];

interface Asked {
  query: string;
  frameworkId: string;
}

export function SearchView() {
  const session = useSession();
  const frameworks = useOrgFrameworks();
  const [query, setQuery] = useState('');
  const [frameworkId, setFrameworkId] = useState('');
  const [state, setState] = useState<{
    asked?: Asked;
    results?: Hit[];
    model?: string;
    error?: Error;
    busy?: boolean;
  }>({});
  // The latest search wins: an answer to an earlier one that arrives later is dropped.
  const latest = useRef(0);
  const run = async (asked: Asked) => {
    const turn = ++latest.current;
    setState((previous) => ({ ...previous, busy: true }));
    try {
      const r = await searchRequirements(session, asked.query, {
        frameworkId: asked.frameworkId || undefined,
        limit: SHOWN,
      });
      if (turn === latest.current) setState({ asked, results: r.results, model: r.model });
    } catch (error) {
      if (turn === latest.current) setState({ asked, error: error as Error });
    }
  };
  const frameworkName = (id: string) =>
    frameworks.data?.frameworks.find((f) => f.frameworkId === id)?.name ?? id;
  return (
    <>
      <h1>Semantic search</h1>
      <search>
        <form
          className="search-form"
          onSubmit={(event) => {
            event.preventDefault();
            run({ query, frameworkId });
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
                <select
                  id={id}
                  value={frameworkId}
                  onChange={(e) => {
                    setFrameworkId(e.target.value);
                    // Once a question has been asked, the one in the box is asked of the framework chosen.
                    if (state.asked) {
                      run({ query: query.trim() ? query : state.asked.query, frameworkId: e.target.value });
                    }
                  }}
                >
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
        state.results.length === 0 ? (
          <p>
            {state.asked?.frameworkId
              ? `Nothing found in ${frameworkName(state.asked.frameworkId)}.`
              : 'Nothing found.'}
          </p>
        ) : (
          <Hits hits={state.results} />
        )
      ) : state.error ? null : (
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
                    run({ query: example, frameworkId });
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

/**
 * The hits, each with the org's status of the requirement as the search gives it (its record, or what the
 * crosswalk infers, marked); none where the signed-in person may not read that framework.
 */
function Hits({ hits }: { hits: Hit[] }) {
  return (
    <ol className="results" data-testid="search-results">
      {hits.map((hit) => (
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
            {hit.orgStatus && hit.assessment && hit.applicable !== undefined ? (
              <Badge kind={hit.applicable ? hit.orgStatus : 'not_applicable'}>
                {statusText({
                  status: hit.orgStatus,
                  assessment: hit.assessment,
                  applicable: hit.applicable,
                })}
              </Badge>
            ) : (
              <span className="muted">status not shown</span>
            )}
          </span>{' '}
          <span className="muted">distance {hit.distance.toFixed(3)}</span>
        </li>
      ))}
    </ol>
  );
}
