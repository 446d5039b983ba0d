import { OSCAL_FILES } from '../../../platform/oscal/constants.js';
import { escapeMarkdownInline } from '../../../shared/markdown.js';
import type { ExportAiSystem, ExportControl } from '../export.types.js';
import type {
  OscalComponent,
  OscalImplementationStatus,
  OscalImplementedRequirement,
  OscalParty,
  OscalResource,
  OscalResponsibleRole,
  OscalRole,
  OscalSspDocument,
} from './oscal.types.js';
import { compProp, documentMetadata, type OscalContext, stateProps } from './oscal-context.js';
import { implementationState, STATUS_STATEMENTS } from './oscal-status.js';
import { markupLine, markupMultiline, oscalDateTime, oscalString } from './oscal-text.js';

const ROLES: OscalRole[] = [
  { id: 'reviewer', title: 'Control reviewer', description: 'Person who last reviewed the control.' },
  { id: 'asset-owner', title: 'AI system owner' },
];

const COMPONENT_STATES: Record<string, OscalComponent['status']['state']> = {
  design: 'under-development',
  development: 'under-development',
  validation: 'under-development',
  deployed: 'operational',
  retired: 'disposition',
};

/** Reviewers and AI system owners become person parties, each once, keyed by their name. */
class PeopleDirectory {
  private readonly parties = new Map<string, OscalParty>();
  constructor(private readonly ctx: OscalContext) {}

  role(roleId: string, person: string | null): OscalResponsibleRole[] | undefined {
    const name = person?.replace(/\s+/g, ' ').trim();
    if (!name) return undefined;
    let party = this.parties.get(name);
    if (!party) {
      party = {
        uuid: this.ctx.ids.person(name),
        type: 'person',
        name: oscalString(name, 'unknown'),
        'member-of-organizations': [this.ctx.orgParty.uuid],
      };
      this.parties.set(name, party);
    }
    return [{ 'role-id': roleId, 'party-uuids': [party.uuid] }];
  }

  all(): OscalParty[] {
    return [...this.parties.values()];
  }
}

function aiSystemComponent(
  ctx: OscalContext,
  system: ExportAiSystem,
  people: PeopleDirectory,
): OscalComponent {
  const name = markupLine(system.name, system.systemId);
  const component: OscalComponent = {
    uuid: ctx.ids.aiSystem(system.systemId),
    type: 'software',
    title: name,
    description: markupMultiline(system.description, `AI system ${name}.`),
    props: [
      compProp('ai-system-id', oscalString(system.systemId, 'unknown')),
      compProp('risk-level', oscalString(system.riskLevel, 'unknown')),
      compProp('lifecycle-stage', oscalString(system.lifecycleStage, 'unknown')),
    ],
    status: { state: COMPONENT_STATES[system.lifecycleStage] ?? 'other' },
  };
  if (system.purpose?.trim()) component.purpose = markupLine(system.purpose, '');
  const owner = people.role('asset-owner', system.owner);
  if (owner) component['responsible-roles'] = owner;
  return component;
}

/**
 * The implementation statement of a requirement: the note the organization recorded with its status, else a
 * sentence built from the status, who recorded it, and the justification.
 */
function implementationStatement(
  ctx: OscalContext,
  control: ExportControl,
  state: OscalImplementationStatus['state'],
): string {
  if (control.note?.trim()) return markupMultiline(control.note, '');
  const { noun } = ctx.framework;
  const justification = control.justification?.trim() ? markupMultiline(control.justification, '') : null;
  if (state === 'not-applicable') {
    return justification
      ? `Excluded from the scope of the AI management system. Justification: ${justification}`
      : 'Excluded from the scope of the AI management system; no justification was recorded.';
  }
  const status = STATUS_STATEMENTS[control.status];
  if (control.assessment === 'inferred') {
    return `Not recorded by the organization: the crosswalk infers this ${noun} as ${status}.`;
  }
  if (control.assessment === 'none') {
    return `Not assessed: the organization has recorded no status for this ${noun} and the crosswalk infers none.`;
  }
  const sentences = [`The organization records this ${noun} as ${status}.`];
  const reviewer = markupLine(control.reviewer, '');
  if (reviewer && control.recorded !== false) {
    sentences.push(`Last recorded by ${reviewer} on ${oscalDateTime(control.updatedAt).slice(0, 10)}.`);
  }
  if (justification) sentences.push(`Justification: ${justification}`);
  if (control.evidenceExpired) sentences.push('All of its evidence has expired.');
  return sentences.join(' ');
}

function implementedRequirement(
  ctx: OscalContext,
  control: ExportControl,
  people: PeopleDirectory,
): OscalImplementedRequirement {
  const state = implementationState(control);
  const justification = control.justification?.trim()
    ? markupMultiline(control.justification, '')
    : state === 'not-applicable'
      ? 'No justification was recorded for this exclusion.'
      : undefined;
  const source = control.assessment ?? 'direct';
  const props = [
    compProp('status', control.status),
    compProp('applicable', String(control.applicable)),
    compProp('evidence-count', String(control.evidenceCount)),
  ];
  if (control.recorded !== false) props.push(compProp('last-updated', oscalDateTime(control.updatedAt)));
  // Where the status comes from: the org's own record (direct), the crosswalk (inferred), or neither.
  props.push(compProp('status-source', source));
  const requirement: OscalImplementedRequirement = {
    uuid: ctx.ids.implementedRequirement(control.controlId),
    'control-id': ctx.tokens.control(control.controlId),
    props,
    'by-components': [
      {
        'component-uuid': ctx.ids.thisSystem,
        uuid: ctx.ids.byComponent(control.controlId),
        description: implementationStatement(ctx, control, state),
        'implementation-status': justification ? { state, remarks: justification } : { state },
      },
    ],
  };
  const evidence = ctx.evidence.get(control) ?? [];
  if (evidence.length > 0) {
    requirement.links = evidence.map((ref) => ({ href: `#${ref.resourceUuid}`, rel: 'reference' }));
  }
  const reviewer = people.role('reviewer', control.reviewer);
  if (reviewer) requirement['responsible-roles'] = reviewer;
  const remarks = sourceRemarks(control);
  if (remarks) requirement.remarks = remarks;
  return requirement;
}

/** Why a status the org did not record is what it is: what the crosswalk infers it from, or nothing. */
function sourceRemarks(control: ExportControl): string | undefined {
  if (control.assessment === 'inferred') {
    const from = (control.inferredFrom ?? []).map((ref) =>
      escapeMarkdownInline(oscalString(`${ref.frameworkId} ${ref.requirementId}`, 'unknown')),
    );
    return from.length > 0
      ? `Not recorded by the organization: the status is inferred through the crosswalk from ${from.join(', ')}.`
      : 'Not recorded by the organization: the status is inferred through the crosswalk.';
  }
  if (control.assessment === 'none') {
    return 'Not assessed: the organization has recorded no status and the crosswalk infers none.';
  }
  return undefined;
}

/**
 * The system security plan: the AIMS scope, its components and the status of every control (requirement)
 * of the framework, each marked with the source of its status.
 */
export function buildSsp(ctx: OscalContext, resources: OscalResource[]): OscalSspDocument {
  const people = new PeopleDirectory(ctx);
  const thisSystem: OscalComponent = {
    uuid: ctx.ids.thisSystem,
    type: 'this-system',
    title: `${ctx.orgMarkup} AI management system`,
    description: `The AI management system of ${ctx.orgMarkup} as a whole.`,
    status: { state: 'operational' },
  };
  const components = [thisSystem, ...ctx.data.aiSystems.map((s) => aiSystemComponent(ctx, s, people))];
  const requirements = ctx.controls.map((control) => implementedRequirement(ctx, control, people));
  const ssp: OscalSspDocument['system-security-plan'] = {
    uuid: ctx.ids.ssp,
    metadata: documentMetadata(ctx, `${ctx.orgMarkup}: ${ctx.frameworkName} AI management system plan`, {
      props: stateProps(ctx),
      roles: ROLES,
      parties: people.all(),
    }),
    'import-profile': { href: OSCAL_FILES.profile },
    'system-characteristics': {
      'system-ids': [{ 'identifier-type': 'https://ietf.org/rfc/rfc4122', id: ctx.ids.thisSystem }],
      'system-name': oscalString(`${ctx.orgName} AI management system`, 'AI management system'),
      description: `The AI management system (AIMS) of ${ctx.orgMarkup}, planned against ${ctx.frameworkLabel}.`,
      'system-information': {
        'information-types': [
          {
            uuid: ctx.ids.informationType,
            title: 'AI management system records',
            description:
              'Policies, impact assessments, evidence and attestations about the AI systems of the organization.',
          },
        ],
      },
      status: { state: 'operational' },
      'authorization-boundary': {
        description: `The AIMS covers the organization's AI governance processes and the ${ctx.data.aiSystems.length} AI system(s) listed as components.`,
      },
    },
    'system-implementation': { components },
    'control-implementation': {
      description: `How each ${ctx.frameworkLabel} ${ctx.framework.noun} is implemented; exclusions carry their justification.`,
      'implemented-requirements': requirements,
    },
  };
  if (resources.length > 0) ssp['back-matter'] = { resources };
  return { 'system-security-plan': ssp };
}
