import { useEffect, useRef, useState } from 'react';
import {
  RISK_SCORE_LEVELS,
  RISK_STATES,
  type RiskScoreLevel,
  TREATMENT_OPTIONS,
  type TreatmentOption,
} from '../../../src/shared/vocabulary.js';
import type { AiSystem, Risk, RiskCriteria, RiskSummary } from '../api';
import { frameworkHref, riskHref, systemHref } from '../links';
import { useOrgFrameworks, useRequirements } from '../resources/frameworks';
import {
  acceptRisk,
  addRisk,
  changeRisk,
  type RiskBody,
  type RiskFilters,
  removeRisk,
  useRisk,
  useRiskCriteria,
  useRiskSummary,
  useRisks,
  withdrawAcceptance,
} from '../resources/risks';
import { useAiSystems } from '../resources/systems';
import { Badge, day, Field, label, Pager, Scroll, Show, useAction, useSession, when } from '../ui';

const PAGE = 25;
const RATINGS = [1, 2, 3, 4, 5];
const ALL_SYSTEMS = { riskLevel: '', lifecycleStage: '' };
const ANY_REQUIREMENT = { status: '', assessment: '', applicable: '' };

/** The default criteria (contract): what a cell is rated as until the org's own criteria have loaded. */
const DEFAULT_BANDS: RiskCriteria['levels'] = [
  { level: 'low', min: 1, max: 4 },
  { level: 'medium', min: 5, max: 9 },
  { level: 'high', min: 10, max: 16 },
  { level: 'critical', min: 20, max: 25 },
];

const levelOf = (score: number, bands: RiskCriteria['levels']): RiskScoreLevel =>
  bands.find((band) => score >= band.min && score <= band.max)?.level ?? 'critical';

/** A day chosen in a date field, as the end of that day (UTC): what a due date or an acceptance runs until. */
const endOfDay = (date: string) => `${date}T23:59:59.000Z`;

type Rating = 'inherent' | 'residual';
interface Cell {
  likelihood: number;
  impact: number;
}

const inCell = (risk: Risk, rating: Rating, cell: Cell) =>
  rating === 'inherent'
    ? risk.likelihood === cell.likelihood && risk.impact === cell.impact
    : risk.residualLikelihood === cell.likelihood && risk.residualImpact === cell.impact;

const systemNames = (systems: AiSystem[] | undefined) =>
  new Map((systems ?? []).map((system) => [system.systemId, system.name]));

/** The AI systems a risk arises from, each linked to its page. */
function SystemLinks({ ids, names }: { ids: string[]; names: Map<string, string> }) {
  if (ids.length === 0) return <>—</>;
  return (
    <>
      {ids.map((id, index) => (
        <span key={id}>
          {index > 0 ? ', ' : ''}
          <a href={systemHref(id)}>{names.get(id) ?? id}</a>
        </span>
      ))}
    </>
  );
}

/** A rating as a level badge with its score. */
const Level = ({ rated }: { rated: Risk['inherent'] }) => (
  <Badge kind={`level-${rated.level}`}>
    {rated.level} ({rated.score})
  </Badge>
);

const StateBadge = ({ state }: { state: Risk['state'] }) => (
  <Badge kind={`risk-${state}`}>{label(state)}</Badge>
);

/** The AI risk register: the 5 × 5 heat map, filters, the list and the form that adds a risk. */
export function RisksView() {
  const session = useSession();
  const [filters, setFilters] = useState<RiskFilters>({ state: '', level: '', systemId: '' });
  const [rating, setRating] = useState<Rating>('residual');
  const [cell, setCell] = useState<Cell | null>(null);
  const [offset, setOffset] = useState(0);
  const summary = useRiskSummary();
  const criteria = useRiskCriteria();
  const risks = useRisks(filters);
  const systems = useAiSystems(ALL_SYSTEMS);
  const names = systemNames(systems.data?.systems);
  const bands = criteria.data?.levels ?? DEFAULT_BANDS;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts at the first page
  useEffect(() => setOffset(0), [filters, rating, cell]);
  return (
    <>
      <h1>AI risks</h1>
      <div className="grid">
        <section className="card" aria-labelledby="heat-heading">
          <h2 id="heat-heading">Heat map</h2>
          <fieldset className="segmented">
            <legend>Rating</legend>
            {(['inherent', 'residual'] as const).map((value) => (
              <label key={value}>
                <input
                  type="radio"
                  name="rating"
                  value={value}
                  checked={rating === value}
                  onChange={() => {
                    setRating(value);
                    setCell(null);
                  }}
                />{' '}
                {value}
              </label>
            ))}
          </fieldset>
          <Show loaded={summary}>
            {(s) => <HeatMap summary={s} bands={bands} rating={rating} cell={cell} onCell={setCell} />}
          </Show>
        </section>
        <section className="card" aria-labelledby="summary-heading">
          <h2 id="summary-heading">Summary</h2>
          <Show loaded={summary}>
            {(s) => (
              <dl className="facts" data-testid="risk-summary">
                <dt>By residual level</dt>
                <dd>
                  {RISK_SCORE_LEVELS.map((level) => `${s.counts.byLevel[level] ?? 0} ${level}`).join(' · ')}
                </dd>
                <dt>By state</dt>
                <dd>
                  {RISK_STATES.map((state) => `${s.counts.byState[state] ?? 0} ${label(state)}`).join(' · ')}
                </dd>
                <dt>Overdue treatments</dt>
                <dd>{s.overdueTreatments}</dd>
                <dt>Acceptances</dt>
                <dd>
                  {s.acceptances.valid} valid · {s.acceptances.stale} stale · {s.acceptances.expired} expired
                </dd>
                <dt>Acceptable up to</dt>
                <dd>{criteria.data ? `${criteria.data.acceptableLevel} (residual)` : '—'}</dd>
              </dl>
            )}
          </Show>
        </section>
      </div>
      <section className="card wide" aria-labelledby="register-heading">
        <h2 id="register-heading">Register</h2>
        <div className="filters">
          <Field label="State">
            {(id) => (
              <select
                id={id}
                value={filters.state}
                onChange={(e) => setFilters({ ...filters, state: e.target.value })}
              >
                <option value="">any</option>
                {RISK_STATES.map((state) => (
                  <option key={state} value={state}>
                    {label(state)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Residual level">
            {(id) => (
              <select
                id={id}
                value={filters.level}
                onChange={(e) => setFilters({ ...filters, level: e.target.value })}
              >
                <option value="">any</option>
                {RISK_SCORE_LEVELS.map((level) => (
                  <option key={level}>{level}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label="AI system">
            {(id) => (
              <select
                id={id}
                value={filters.systemId}
                onChange={(e) => setFilters({ ...filters, systemId: e.target.value })}
              >
                <option value="">any</option>
                {(systems.data?.systems ?? []).map((system) => (
                  <option key={system.systemId} value={system.systemId}>
                    {system.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        {cell ? (
          <p role="status" data-testid="cell-filter">
            {label(rating)} likelihood {cell.likelihood} × impact {cell.impact} only.{' '}
            <button type="button" className="link" onClick={() => setCell(null)}>
              Show every cell
            </button>
          </p>
        ) : null}
        <Show loaded={risks}>
          {(r) => {
            const rows = cell ? r.risks.filter((risk) => inCell(risk, rating, cell)) : r.risks;
            return (
              <>
                <Scroll>
                  <table data-testid="risks">
                    <caption className="sr-only">The organization's AI risks</caption>
                    <thead>
                      <tr>
                        <th scope="col">Risk</th>
                        <th scope="col">AI systems</th>
                        <th scope="col">Inherent → residual</th>
                        <th scope="col">State</th>
                        <th scope="col">Treatment</th>
                        <th scope="col">Acceptance</th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.slice(offset, offset + PAGE).map((risk) => (
                        <tr key={risk.riskId} data-risk={risk.title}>
                          <th scope="row">
                            <a href={riskHref(risk.riskId)}>{risk.title}</a>
                          </th>
                          <td>
                            <SystemLinks ids={risk.systemIds} names={names} />
                          </td>
                          <td className="num">
                            <Level rated={risk.inherent} /> → <Level rated={risk.residual} />
                          </td>
                          <td>
                            <StateBadge state={risk.state} />
                          </td>
                          <td className="num">
                            {risk.treatment
                              ? `${risk.treatment.option} ${risk.treatmentProgress.implemented}/${risk.treatmentProgress.total}`
                              : '—'}
                            {risk.treatmentOverdue ? (
                              <>
                                {' '}
                                <Badge kind="overdue">overdue</Badge>
                              </>
                            ) : null}
                          </td>
                          <td>
                            {risk.acceptance ? (
                              <>
                                <Badge kind={`acceptance-${risk.acceptance.state}`}>
                                  {risk.acceptance.state}
                                </Badge>{' '}
                                until {day(risk.acceptance.expiresAt)}
                              </>
                            ) : risk.state === 'needs_acceptance' ? (
                              'needed'
                            ) : (
                              '—'
                            )}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </Scroll>
                {rows.length === 0 ? <p>No risk matches.</p> : null}
                <Pager offset={offset} limit={PAGE} total={rows.length} onChange={setOffset} label="Risks" />
              </>
            );
          }}
        </Show>
      </section>
      {session.can.write ? <AddRiskForm systems={systems.data?.systems ?? []} /> : null}
    </>
  );
}

/**
 * The 5 × 5 matrix of one rating: likelihood from 5 (top) to 1, impact from 1 to 5, each cell the number of
 * risks rated there (from the summary), shaded by the level its score falls in; choosing a cell filters the list.
 */
function HeatMap({
  summary,
  bands,
  rating,
  cell,
  onCell,
}: {
  summary: RiskSummary;
  bands: RiskCriteria['levels'];
  rating: Rating;
  cell: Cell | null;
  onCell(cell: Cell | null): void;
}) {
  const matrix = summary.matrix[rating];
  return (
    <Scroll>
      <table className="heatmap risk-map" data-testid="heat-map" data-rating={rating}>
        <caption>
          {label(rating)} risk: likelihood (rows) × impact (columns); choose a cell to list its risks
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="sr-only">Likelihood</span>
              <span aria-hidden="true">L \ I</span>
            </th>
            {RATINGS.map((impact) => (
              <th scope="col" key={impact}>
                impact {impact}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[...RATINGS].reverse().map((likelihood) => (
            <tr key={likelihood}>
              <th scope="row">likelihood {likelihood}</th>
              {RATINGS.map((impact) => {
                const count = matrix[likelihood - 1]?.[impact - 1] ?? 0;
                const level = levelOf(likelihood * impact, bands);
                const chosen = cell?.likelihood === likelihood && cell.impact === impact;
                return (
                  <td key={impact} className={`cell-${level}`}>
                    <button
                      type="button"
                      aria-pressed={chosen}
                      aria-label={`Likelihood ${likelihood}, impact ${impact} (${level}): ${count} ${count === 1 ? 'risk' : 'risks'}`}
                      onClick={() => onCell(chosen ? null : { likelihood, impact })}
                    >
                      {count || <span className="muted">0</span>}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

interface RiskForm {
  title: string;
  description: string;
  owner: string;
  category: string;
  likelihood: string;
  impact: string;
  systemIds: string[];
  option: '' | TreatmentOption;
  requirements: { frameworkId: string; requirementId: string }[];
  plan: string;
  dueDate: string;
  residualLikelihood: string;
  residualImpact: string;
}

const EMPTY: RiskForm = {
  title: '',
  description: '',
  owner: '',
  category: '',
  likelihood: '3',
  impact: '3',
  systemIds: [],
  option: '',
  requirements: [],
  plan: '',
  dueDate: '',
  residualLikelihood: '',
  residualImpact: '',
};

function bodyOf(form: RiskForm): RiskBody {
  return {
    title: form.title,
    likelihood: Number(form.likelihood),
    impact: Number(form.impact),
    ...(form.description ? { description: form.description } : {}),
    ...(form.owner ? { owner: form.owner } : {}),
    ...(form.category ? { category: form.category } : {}),
    ...(form.systemIds.length ? { systemIds: form.systemIds } : {}),
    ...(form.option
      ? {
          treatment: {
            option: form.option,
            requirements: form.requirements,
            ...(form.plan ? { plan: form.plan } : {}),
            ...(form.dueDate ? { dueDate: endOfDay(form.dueDate) } : {}),
          },
        }
      : {}),
    ...(form.residualLikelihood ? { residualLikelihood: Number(form.residualLikelihood) } : {}),
    ...(form.residualImpact ? { residualImpact: Number(form.residualImpact) } : {}),
  };
}

function RatingSelect({
  name,
  value,
  onChange,
  unset,
}: {
  name: string;
  value: string;
  onChange(value: string): void;
  unset?: string;
}) {
  return (
    <Field label={name}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          {unset ? <option value="">{unset}</option> : null}
          {RATINGS.map((n) => (
            <option key={n} value={String(n)}>
              {n}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function AddRiskForm({ systems }: { systems: AiSystem[] }) {
  const session = useSession();
  const add = useAction();
  const [form, setForm] = useState<RiskForm>(EMPTY);
  const set = (change: Partial<RiskForm>) => setForm((previous) => ({ ...previous, ...change }));
  return (
    <form
      className="card"
      aria-labelledby="risk-form"
      data-testid="risk-form"
      onSubmit={async (event) => {
        event.preventDefault();
        if (await add.run(() => addRisk(session, bodyOf(form)), 'Risk added')) setForm(EMPTY);
      }}
    >
      <h2 id="risk-form">Add a risk</h2>
      <div className="filters">
        <Field label="Title">
          {(id) => (
            <input id={id} required value={form.title} onChange={(e) => set({ title: e.target.value })} />
          )}
        </Field>
        <Field label="Owner">
          {(id) => <input id={id} value={form.owner} onChange={(e) => set({ owner: e.target.value })} />}
        </Field>
        <Field label="Category">
          {(id) => (
            <input id={id} value={form.category} onChange={(e) => set({ category: e.target.value })} />
          )}
        </Field>
        <RatingSelect
          name="Likelihood"
          value={form.likelihood}
          onChange={(likelihood) => set({ likelihood })}
        />
        <RatingSelect name="Impact" value={form.impact} onChange={(impact) => set({ impact })} />
      </div>
      <Field label="Description">
        {(id) => (
          <textarea id={id} value={form.description} onChange={(e) => set({ description: e.target.value })} />
        )}
      </Field>
      <fieldset className="picker">
        <legend>AI systems</legend>
        {systems.length === 0 ? <span className="muted">No AI system yet.</span> : null}
        {systems.map((system) => (
          <label key={system.systemId}>
            <input
              type="checkbox"
              checked={form.systemIds.includes(system.systemId)}
              onChange={(e) =>
                set({
                  systemIds: e.target.checked
                    ? [...form.systemIds, system.systemId]
                    : form.systemIds.filter((id) => id !== system.systemId),
                })
              }
            />{' '}
            {system.name}
          </label>
        ))}
      </fieldset>
      <div className="filters">
        <Field label="Treatment">
          {(id) => (
            <select
              id={id}
              value={form.option}
              onChange={(e) => set({ option: e.target.value as RiskForm['option'] })}
            >
              <option value="">none yet</option>
              {TREATMENT_OPTIONS.map((option) => (
                <option key={option}>{option}</option>
              ))}
            </select>
          )}
        </Field>
        {form.option ? (
          <Field label="Treatment due">
            {(id) => (
              <input
                id={id}
                type="date"
                value={form.dueDate}
                onChange={(e) => set({ dueDate: e.target.value })}
              />
            )}
          </Field>
        ) : null}
        <RatingSelect
          name="Residual likelihood"
          value={form.residualLikelihood}
          onChange={(residualLikelihood) => set({ residualLikelihood })}
          unset="as inherent"
        />
        <RatingSelect
          name="Residual impact"
          value={form.residualImpact}
          onChange={(residualImpact) => set({ residualImpact })}
          unset="as inherent"
        />
      </div>
      {form.option ? (
        <>
          <Field label="Treatment plan">
            {(id) => <textarea id={id} value={form.plan} onChange={(e) => set({ plan: e.target.value })} />}
          </Field>
          <RequirementPicker chosen={form.requirements} onChange={(requirements) => set({ requirements })} />
        </>
      ) : null}
      <button type="submit" disabled={add.busy}>
        Add risk
      </button>
      {add.message}
    </form>
  );
}

/** Requirements of any framework the treatment lists: a framework, then one of its requirements. */
function RequirementPicker({
  chosen,
  onChange,
}: {
  chosen: RiskForm['requirements'];
  onChange(requirements: RiskForm['requirements']): void;
}) {
  const frameworks = useOrgFrameworks();
  const [frameworkId, setFrameworkId] = useState('iso-42001');
  const [requirementId, setRequirementId] = useState('');
  const list = useRequirements(frameworkId, ANY_REQUIREMENT);
  const options = list.data?.frameworkId === frameworkId ? list.data.requirements : [];
  const taken = (id: string) => chosen.some((r) => r.frameworkId === frameworkId && r.requirementId === id);
  return (
    <fieldset className="picker requirement-picker" data-testid="requirement-picker">
      <legend>Requirements the treatment implements</legend>
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
            {(frameworks.data?.frameworks ?? [{ frameworkId, name: frameworkId }]).map((f) => (
              <option key={f.frameworkId} value={f.frameworkId}>
                {f.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Requirement">
        {(id) => (
          <select id={id} value={requirementId} onChange={(e) => setRequirementId(e.target.value)}>
            <option value="">choose…</option>
            {options.map((r) => (
              <option key={r.requirementId} value={r.requirementId} disabled={taken(r.requirementId)}>
                {r.requirementId} · {r.title}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button
        type="button"
        disabled={!requirementId || taken(requirementId)}
        onClick={() => {
          onChange([...chosen, { frameworkId, requirementId }]);
          setRequirementId('');
        }}
      >
        Add requirement
      </button>
      {chosen.length ? (
        <ul className="chosen" aria-label="Chosen requirements">
          {chosen.map((r) => (
            <li key={`${r.frameworkId}/${r.requirementId}`}>
              {r.frameworkId} {r.requirementId}{' '}
              <button
                type="button"
                className="link"
                aria-label={`Remove ${r.frameworkId} ${r.requirementId}`}
                onClick={() => onChange(chosen.filter((c) => c !== r))}
              >
                remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None chosen yet.</p>
      )}
    </fieldset>
  );
}

/** One risk: its ratings, its treatment's requirements with their live status, and its acceptance. */
export function RiskView({ riskId }: { riskId: string }) {
  const risk = useRisk(riskId);
  const systems = useAiSystems(ALL_SYSTEMS);
  const names = systemNames(systems.data?.systems);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <>
      <p>
        <a href={riskHref()}>← AI risks</a>
      </p>
      <Show loaded={risk}>
        {(r) => (
          <>
            <h1 tabIndex={-1} ref={heading}>
              {r.title}
            </h1>
            <div className="grid">
              <section className="card" aria-labelledby="risk-facts">
                <h2 id="risk-facts">Assessment</h2>
                <dl className="facts" data-testid="risk-facts">
                  <dt>State</dt>
                  <dd>
                    <StateBadge state={r.state} />
                  </dd>
                  <dt>Inherent</dt>
                  <dd>
                    likelihood {r.likelihood} × impact {r.impact} = <Level rated={r.inherent} />
                  </dd>
                  <dt>Residual</dt>
                  <dd>
                    likelihood {r.residualLikelihood} × impact {r.residualImpact} ={' '}
                    <Level rated={r.residual} />
                  </dd>
                  <dt>AI systems</dt>
                  <dd>
                    <SystemLinks ids={r.systemIds} names={names} />
                  </dd>
                  <dt>Owner</dt>
                  <dd>{r.owner ?? '—'}</dd>
                  <dt>Category</dt>
                  <dd>{r.category ?? '—'}</dd>
                  <dt>Description</dt>
                  <dd>{r.description ?? '—'}</dd>
                  <dt>Review</dt>
                  <dd>{day(r.reviewDate)}</dd>
                  <dt>Updated</dt>
                  <dd>{when(r.updatedAt)}</dd>
                </dl>
                <ResidualForm risk={r} />
              </section>
              <Acceptance risk={r} />
            </div>
            <Treatment risk={r} />
            <RemoveRisk risk={r} />
          </>
        )}
      </Show>
    </>
  );
}

function Treatment({ risk }: { risk: Risk }) {
  const { treatment, treatmentProgress: progress } = risk;
  return (
    <section className="card wide" aria-labelledby="treatment-heading">
      <h2 id="treatment-heading">Treatment</h2>
      {!treatment ? (
        <p>No treatment chosen yet: the risk is open.</p>
      ) : (
        <>
          <dl className="facts">
            <dt>Option</dt>
            <dd>{treatment.option}</dd>
            <dt>Plan</dt>
            <dd>{treatment.plan ?? '—'}</dd>
            <dt>Due</dt>
            <dd>
              {day(treatment.dueDate)}
              {risk.treatmentOverdue ? (
                <>
                  {' '}
                  <Badge kind="overdue">overdue</Badge>
                </>
              ) : null}
            </dd>
            <dt>Progress</dt>
            <dd data-testid="treatment-progress">
              {progress.implemented} of {progress.total} requirements implemented
            </dd>
          </dl>
          {progress.requirements.length ? (
            <Scroll>
              <table data-testid="treatment-requirements">
                <caption>The requirements the treatment implements, with their status now</caption>
                <thead>
                  <tr>
                    <th scope="col">Framework</th>
                    <th scope="col">Requirement</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {progress.requirements.map((r) => (
                    <tr key={`${r.frameworkId}/${r.requirementId}`} data-requirement={r.requirementId}>
                      <td>{r.frameworkId}</td>
                      <th scope="row">
                        <a href={frameworkHref(r.frameworkId, r.requirementId)}>{r.requirementId}</a>
                      </th>
                      <td>
                        <Badge kind={r.status}>{label(r.status)}</Badge>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          ) : (
            <p>The treatment lists no requirement.</p>
          )}
        </>
      )}
    </section>
  );
}

/** The residual rating, changed by editors; a change makes an acceptance stale. */
function ResidualForm({ risk }: { risk: Risk }) {
  const session = useSession();
  const save = useAction();
  const [form, setForm] = useState({
    likelihood: String(risk.residualLikelihood),
    impact: String(risk.residualImpact),
  });
  if (!session.can.write) return null;
  return (
    <form
      aria-labelledby="residual-form"
      onSubmit={(event) => {
        event.preventDefault();
        save.run(
          () =>
            changeRisk(session, risk.riskId, {
              residualLikelihood: Number(form.likelihood),
              residualImpact: Number(form.impact),
            }),
          'Residual rating saved',
        );
      }}
    >
      <h3 id="residual-form">Residual rating</h3>
      <div className="filters">
        <RatingSelect
          name="Residual likelihood"
          value={form.likelihood}
          onChange={(likelihood) => setForm({ ...form, likelihood })}
        />
        <RatingSelect
          name="Residual impact"
          value={form.impact}
          onChange={(impact) => setForm({ ...form, impact })}
        />
        <button type="submit" disabled={save.busy}>
          Save rating
        </button>
      </div>
      {risk.acceptance?.state === 'valid' ? (
        <p className="muted">A new rating makes the acceptance stale: the risk needs accepting again.</p>
      ) : null}
      {save.message}
    </form>
  );
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

function Acceptance({ risk }: { risk: Risk }) {
  const session = useSession();
  const accept = useAction();
  const withdraw = useAction();
  const [form, setForm] = useState({ justification: '', until: inDays(180) });
  const { acceptance } = risk;
  const canApprove = session.kind === 'user' && session.can.approve;
  return (
    <section className="card" aria-labelledby="acceptance-heading" data-testid="acceptance">
      <h2 id="acceptance-heading">Acceptance</h2>
      {acceptance ? (
        <dl className="facts">
          <dt>State</dt>
          <dd>
            <Badge kind={`acceptance-${acceptance.state}`}>{acceptance.state}</Badge>
            {acceptance.state === 'stale' ? ' (the risk changed since: it needs accepting again)' : ''}
            {acceptance.state === 'expired' ? ' (past its date: it needs accepting again)' : ''}
          </dd>
          <dt>Accepted by</dt>
          <dd>
            {acceptance.acceptedBy.name} ({acceptance.acceptedBy.email})
          </dd>
          <dt>Accepted on</dt>
          <dd>{when(acceptance.acceptedAt)}</dd>
          <dt>Until</dt>
          <dd>{day(acceptance.expiresAt)}</dd>
          <dt>Justification</dt>
          <dd>{acceptance.justification}</dd>
        </dl>
      ) : (
        <p>
          {risk.state === 'needs_acceptance'
            ? 'Not accepted: the residual risk is above what the organization accepts, or the treatment is to accept it.'
            : 'Not accepted.'}
        </p>
      )}
      {canApprove ? (
        <>
          <form
            aria-labelledby="accept-form"
            onSubmit={async (event) => {
              event.preventDefault();
              const body = { justification: form.justification, expiresAt: endOfDay(form.until) };
              if (await accept.run(() => acceptRisk(session, risk.riskId, body), 'Residual risk accepted'))
                setForm({ ...form, justification: '' });
            }}
          >
            <h3 id="accept-form">Accept residual risk</h3>
            <p className="muted">
              You accept the residual risk as it stands now ({risk.residual.level}, {risk.residual.score});
              any change of its rating, treatment or systems makes the acceptance stale.
            </p>
            <Field label="Justification">
              {(id) => (
                <textarea
                  id={id}
                  required
                  value={form.justification}
                  onChange={(e) => setForm({ ...form, justification: e.target.value })}
                />
              )}
            </Field>
            <Field label="Accepted until">
              {(id) => (
                <input
                  id={id}
                  type="date"
                  required
                  min={inDays(1)}
                  value={form.until}
                  onChange={(e) => setForm({ ...form, until: e.target.value })}
                />
              )}
            </Field>
            <button type="submit" disabled={accept.busy}>
              Accept residual risk
            </button>
            {accept.message}
          </form>
          <div>
            {acceptance ? (
              <button
                type="button"
                disabled={withdraw.busy}
                onClick={() =>
                  withdraw.run(() => withdrawAcceptance(session, risk.riskId), 'Acceptance withdrawn')
                }
              >
                Withdraw
              </button>
            ) : null}
            {withdraw.message}
          </div>
        </>
      ) : (
        <p className="muted" data-testid="acceptance-why-not">
          {session.kind === 'key'
            ? 'Accepting residual risk is an approval, and approvals are made by people: sign in as an approver or owner. An API key cannot accept a risk.'
            : `Your role (${session.role ?? 'none'}) does not include approvals: an approver or an owner accepts residual risk.`}
        </p>
      )}
    </section>
  );
}

function RemoveRisk({ risk }: { risk: Risk }) {
  const session = useSession();
  const [confirming, setConfirming] = useState(false);
  const remove = useAction();
  if (!session.can.write) return null;
  return (
    <div className="buttons danger-zone">
      {confirming ? (
        <>
          <button
            type="button"
            disabled={remove.busy}
            onClick={async () => {
              if (await remove.run(() => removeRisk(session, risk.riskId), 'Risk removed'))
                window.location.hash = riskHref();
            }}
          >
            Yes, remove “{risk.title}”
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>
          Remove risk
        </button>
      )}
      {remove.message}
    </div>
  );
}
