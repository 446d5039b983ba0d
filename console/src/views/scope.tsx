import { useEffect, useId, useRef, useState } from 'react';
import { EU_AI_ACT, EU_AI_ACT_ROLES, type EuAiActRole } from '../../../src/shared/vocabulary.js';
import type { ApplicabilityProfileBody, ApplicabilityProfileView, ProfileExclusion } from '../api';
import { frameworkHref } from '../links';
import { previewProfile, saveProfile, useApplicabilityProfile } from '../resources/profile';
import { Badge, ErrorText, Scroll, Show, useAction, useSession, when } from '../ui';

/**
 * The applicability profile: what the organization is under the EU AI Act. Saving it records each EU AI Act
 * requirement that does not bind the organization as not applicable, with the reason; the officer reviews
 * each exclusion and overrides one on its record. A person's own applicability judgement always wins.
 */

/** Each role as the Act defines it (Art. 3), in a line. */
const ROLES: Record<EuAiActRole, { name: string; hint: string }> = {
  provider: {
    name: 'Provider',
    hint: 'develops an AI system or model (or has one developed) and places it on the market or puts it into service under its own name',
  },
  deployer: {
    name: 'Deployer',
    hint: 'uses an AI system under its own authority, other than for personal, non-professional use',
  },
  importer: {
    name: 'Importer',
    hint: 'places on the EU market an AI system bearing the name of a provider established outside the EU',
  },
  distributor: {
    name: 'Distributor',
    hint: 'makes an AI system available on the EU market, being neither its provider nor its importer',
  },
  authorisedRepresentative: {
    name: 'Authorised representative',
    hint: 'holds a written mandate from a provider outside the EU to act for it in the Union',
  },
};

type Question = 'generalPurposeModels' | 'biometrics' | 'lawEnforcement';

/** The three yes/no questions, each with what it decides. */
const QUESTIONS: { key: Question; question: string; hint: string }[] = [
  {
    key: 'generalPurposeModels',
    question: 'Does it provide general-purpose AI models?',
    hint: 'Models trained on broad data that serve many distinct tasks: their providers carry the duties of Art. 51–55.',
  },
  {
    key: 'biometrics',
    question: 'Does it use or provide biometric systems?',
    hint: 'Remote biometric identification, biometric categorisation or emotion recognition: their specific duties apply only then.',
  },
  {
    key: 'lawEnforcement',
    question: 'Is it, or does it work for, a law-enforcement authority?',
    hint: "The Act's provisions for law enforcement bind only such authorities and those acting for them.",
  },
];

const STATES: Record<ProfileExclusion['state'], string> = {
  applied: 'the record holds the profile’s exclusion',
  confirmed: 'a person recorded it as not applicable',
  overridden: 'a person recorded that it applies: their judgement wins',
  proposed: 'not written yet',
};

const PREFIX = "Not applicable by the organization's applicability profile: ";
/** The reason alone, as a sentence. */
const reasonOf = (exclusion: ProfileExclusion) => {
  const reason = exclusion.justification.replace(PREFIX, '');
  return reason.charAt(0).toUpperCase() + reason.slice(1);
};

const EMPTY: ApplicabilityProfileBody = {
  euAiActRoles: [],
  generalPurposeModels: false,
  biometrics: false,
  lawEnforcement: false,
};

const answersOf = (view: ApplicabilityProfileView): ApplicabilityProfileBody => {
  if (!view.profile) return EMPTY;
  const { euAiActRoles, generalPurposeModels, biometrics, lawEnforcement } = view.profile;
  return { euAiActRoles, generalPurposeModels, biometrics, lawEnforcement };
};

export function ScopeView() {
  const view = useApplicabilityProfile();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <>
      <h1 tabIndex={-1} ref={heading}>
        Scope under the EU AI Act
      </h1>
      <p className="muted">
        Tell comply what the organization is under the EU AI Act. Each requirement that binds none of its
        roles, or concerns biometrics or law enforcement it is not in, is recorded as not applicable with the
        reason, so gaps, scores and exports leave it out. Review each exclusion below; where one is wrong,
        open its record and set its applicability: a person’s judgement always wins over the profile.
      </p>
      <Show loaded={view}>
        {(v) => (
          <>
            <ProfileForm view={v} />
            <Exclusions view={v} />
            <BindNoOne view={v} />
          </>
        )}
      </Show>
    </>
  );
}

function ProfileForm({ view }: { view: ApplicabilityProfileView }) {
  const session = useSession();
  const save = useAction();
  const [answers, setAnswers] = useState(() => answersOf(view));
  const [preview, setPreview] = useState<{ view?: ApplicabilityProfileView; error?: Error; busy?: boolean }>(
    {},
  );
  // After a save the form starts again from the profile as stored, and an earlier preview no longer holds.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the stamp says the profile changed
  useEffect(() => {
    setAnswers(answersOf(view));
    setPreview({});
  }, [view.profile?.updatedAt]);
  const change = (next: ApplicabilityProfileBody) => {
    setAnswers(next);
    setPreview({});
  };
  const toggleRole = (role: EuAiActRole, held: boolean) =>
    change({
      ...answers,
      // In the Act's order, whatever order they were ticked in.
      euAiActRoles: EU_AI_ACT_ROLES.filter((r) => (r === role ? held : answers.euAiActRoles.includes(r))),
    });
  const readOnly = !session.can.write;
  return (
    <div className="grid">
      <div className="card">
        <form
          aria-labelledby="profile-form-heading"
          className="profile-form"
          onSubmit={(event) => {
            event.preventDefault();
            save.run(
              () => saveProfile(session, answers),
              'Profile saved: the exclusions below follow from it',
            );
          }}
        >
          <h2 id="profile-form-heading">What the organization is</h2>
          <p className="muted" data-testid="profile-saved">
            {view.profile
              ? `Saved by ${view.profile.updatedBy}, ${when(view.profile.updatedAt)}.`
              : 'No profile saved yet: nothing is excluded by it.'}
          </p>
          <fieldset className="roles" disabled={readOnly}>
            <legend>Its roles under the EU AI Act</legend>
            {EU_AI_ACT_ROLES.map((role) => (
              <RoleBox
                key={role}
                role={role}
                checked={answers.euAiActRoles.includes(role)}
                onChange={(held) => toggleRole(role, held)}
              />
            ))}
            {answers.euAiActRoles.length === 0 ? (
              <p className="hint muted">
                No role ticked: the organization holds none of them, so every duty bound to a role is
                excluded.
              </p>
            ) : null}
          </fieldset>
          {QUESTIONS.map((q) => (
            <YesNo
              key={q.key}
              question={q.question}
              hint={q.hint}
              value={answers[q.key]}
              disabled={readOnly}
              onChange={(value) => change({ ...answers, [q.key]: value })}
            />
          ))}
          {readOnly ? (
            <p className="muted">Changing the profile needs the write permission.</p>
          ) : (
            <div className="buttons">
              <button
                type="button"
                disabled={preview.busy || save.busy}
                onClick={async () => {
                  setPreview({ busy: true });
                  try {
                    setPreview({ view: await previewProfile(session, answers) });
                  } catch (error) {
                    setPreview({ error: error as Error });
                  }
                }}
              >
                Preview
              </button>
              <button type="submit" disabled={save.busy}>
                Save
              </button>
            </div>
          )}
          {save.message}
        </form>
        {preview.error ? <ErrorText error={preview.error} /> : null}
      </div>
      {preview.view ? <Preview current={view} preview={preview.view} /> : null}
    </div>
  );
}

function RoleBox({
  role,
  checked,
  onChange,
}: {
  role: EuAiActRole;
  checked: boolean;
  onChange(held: boolean): void;
}) {
  const id = useId();
  return (
    <div className="choice">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{ROLES[role].name}</label>
      <p id={`${id}-hint`} className="hint muted">
        {ROLES[role].hint}
      </p>
    </div>
  );
}

function YesNo({
  question,
  hint,
  value,
  disabled,
  onChange,
}: {
  question: string;
  hint: string;
  value: boolean;
  disabled: boolean;
  onChange(value: boolean): void;
}) {
  const name = useId();
  return (
    <fieldset className="question" disabled={disabled} aria-describedby={`${name}-hint`}>
      <legend>{question}</legend>
      <p id={`${name}-hint`} className="hint muted">
        {hint}
      </p>
      <div className="options">
        {[true, false].map((option) => (
          <label key={String(option)}>
            <input type="radio" name={name} checked={value === option} onChange={() => onChange(option)} />{' '}
            {option ? 'Yes' : 'No'}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const RequirementLink = ({ requirementId }: { requirementId: string }) => (
  <a href={frameworkHref(EU_AI_ACT, requirementId)}>{requirementId}</a>
);

/** What saving the answers would do: what it excludes and why, what a person's record keeps, what applies again. */
function Preview({
  current,
  preview,
}: {
  current: ApplicabilityProfileView;
  preview: ApplicabilityProfileView;
}) {
  const excluded = preview.exclusions.filter((e) => e.state === 'applied' || e.state === 'proposed');
  const kept = preview.exclusions.filter((e) => e.state === 'confirmed' || e.state === 'overridden');
  const still = new Set(preview.exclusions.map((e) => e.requirementId));
  const again = current.exclusions.filter((e) => e.state === 'applied' && !still.has(e.requirementId));
  return (
    <section className="card preview" aria-labelledby="preview-heading" data-testid="profile-preview">
      <h2 id="preview-heading">Preview: saving would exclude {excluded.length} requirement(s)</h2>
      <p className="muted">Nothing is written until you save.</p>
      {excluded.length ? (
        <ul className="exclusion-list" data-testid="preview-excluded">
          {excluded.map((e) => (
            <li key={e.requirementId} data-requirement={e.requirementId}>
              <RequirementLink requirementId={e.requirementId} /> {e.title}
              {e.state === 'applied' ? <span className="muted"> (already excluded)</span> : null}
              <p className="muted">{reasonOf(e)}</p>
            </li>
          ))}
        </ul>
      ) : null}
      {kept.length ? (
        <>
          <h3>Kept as a person recorded it ({kept.length})</h3>
          <ul className="exclusion-list" data-testid="preview-kept">
            {kept.map((e) => (
              <li key={e.requirementId} data-requirement={e.requirementId}>
                <RequirementLink requirementId={e.requirementId} /> {e.title}:{' '}
                {e.state === 'overridden' ? 'applies' : 'not applicable'}, recorded by{' '}
                {e.reviewer ?? 'a person'}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {again.length ? (
        <>
          <h3>Would apply again ({again.length})</h3>
          <ul className="exclusion-list" data-testid="preview-again">
            {again.map((e) => (
              <li key={e.requirementId} data-requirement={e.requirementId}>
                <RequirementLink requirementId={e.requirementId} /> {e.title}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function Exclusions({ view }: { view: ApplicabilityProfileView }) {
  if (!view.profile) return null;
  return (
    <section className="card wide" aria-labelledby="exclusions-heading">
      <h2 id="exclusions-heading">Exclusions ({view.exclusions.length})</h2>
      <p className="muted">
        The EU AI Act requirements the profile excludes, in the Act’s order. To override one, open its record
        and set its applicability.
      </p>
      {view.exclusions.length === 0 ? (
        <p>The profile excludes nothing: every EU AI Act requirement may bind the organization.</p>
      ) : (
        <Scroll>
          <table className="stack" data-testid="profile-exclusions">
            <thead>
              <tr>
                <th scope="col">Requirement</th>
                <th scope="col">State</th>
                <th scope="col">Reviewer</th>
                <th scope="col">Why it does not apply</th>
              </tr>
            </thead>
            <tbody>
              {view.exclusions.map((e) => (
                <tr key={e.requirementId} data-requirement={e.requirementId}>
                  <th scope="row">
                    <RequirementLink requirementId={e.requirementId} />{' '}
                    <span className="muted">{e.title}</span>
                  </th>
                  <td data-label="State">
                    <Badge kind={`exclusion-${e.state}`}>{e.state}</Badge>
                  </td>
                  <td data-label="Reviewer">{e.reviewer ?? '—'}</td>
                  <td data-label="Why">{reasonOf(e)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      <dl className="legend states">
        {Object.entries(STATES).map(([state, meaning]) => (
          <div key={state}>
            <dt>
              <Badge kind={`exclusion-${state}`}>{state}</Badge>
            </dt>
            <dd>{meaning}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The provisions that bind no organization, as a short note. */
function BindNoOne({ view }: { view: ApplicabilityProfileView }) {
  if (view.bindNoOne.length === 0) return null;
  return (
    <p className="muted bind-no-one" data-testid="bind-no-one">
      Never gaps, whatever the profile: provisions that bind no organization —{' '}
      {view.bindNoOne.map((p, i) => (
        <span key={p.requirementId}>
          {i > 0 ? '; ' : ''}
          <RequirementLink requirementId={p.requirementId} /> {p.title}
        </span>
      ))}
      .
    </p>
  );
}
