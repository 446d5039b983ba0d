import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { EU_AI_ACT_ROLES } from '../../shared/vocabulary.js';
import { applicabilityProfilePath } from '../api-client/paths.js';
import type { ApplicabilityProfileView, ProfileExclusion } from '../api-client/types.js';
import { defineTool, READ, type ToolContext } from './tool.js';

/** The applicability profile: what the org is under the EU AI Act, and the requirements that therefore do not apply. */

const PROFILE_PREFIX = "Not applicable by the organization's applicability profile: ";

/** Where an exclusion stands, in words an agent can repeat. */
function stateWords(exclusion: ProfileExclusion): string {
  switch (exclusion.state) {
    case 'applied':
      return 'excluded by the profile';
    case 'confirmed':
      return `recorded as not applicable by ${exclusion.reviewer ?? 'a person'}`;
    case 'overridden':
      return `recorded as applicable by ${exclusion.reviewer ?? 'a person'}, overriding the profile`;
    default:
      return 'proposed, not written yet';
  }
}

function profileText(view: ApplicabilityProfileView): string {
  const { profile } = view;
  const never = view.bindNoOne.length
    ? ` Never gaps, as they bind no organization: ${view.bindNoOne.map((p) => `${p.requirementId} (${p.title})`).join('; ')}.`
    : '';
  if (!profile) {
    return (
      'No applicability profile yet: nothing is excluded by it. A person saves one (roles under the EU AI Act, and ' +
      'whether the organization provides general-purpose AI models, uses biometrics, works in law enforcement) ' +
      `with \`comply profile set\` or on the console's Scope page.${never}`
    );
  }
  const yesNo = (value: boolean) => (value ? 'yes' : 'no');
  const head =
    `Applicability profile: EU AI Act roles ${profile.euAiActRoles.join(', ') || 'none'}; ` +
    `general-purpose AI models ${yesNo(profile.generalPurposeModels)}; biometrics ${yesNo(profile.biometrics)}; ` +
    `law enforcement ${yesNo(profile.lawEnforcement)} (saved by ${profile.updatedBy}, ${profile.updatedAt}).`;
  const exclusions = view.exclusions
    .map(
      (e) =>
        `${e.requirementId} ${e.title} — ${stateWords(e)}; why not applicable: ${e.justification.replace(PROFILE_PREFIX, '')}`,
    )
    .join('\n');
  return `${head}\n${view.exclusions.length} EU AI Act requirement(s) excluded${exclusions ? `:\n${exclusions}` : '.'}\n${never.trim()}`.trim();
}

export function registerProfileTools(server: McpServer, context: ToolContext): void {
  defineTool(server, context, {
    name: 'applicability_profile',
    title: 'Applicability profile: what the organization is under the EU AI Act, and what does not apply',
    description:
      'The organization’s applicability profile — its EU AI Act roles (provider, deployer, importer, distributor, authorised representative) and whether it provides general-purpose AI models, uses biometrics or works in law enforcement — and every EU AI Act requirement it therefore excludes, each with the reason and its state: applied (the record holds the profile’s exclusion), confirmed (a person recorded it as not applicable), overridden (a person recorded that it applies: their judgement wins) or proposed (not written yet). Also the provisions that bind no organization (penalties, entry into force), which are never gaps. Read this before treating an EU AI Act gap as the organization’s duty.',
    annotations: READ,
    input: {},
    output: {
      profile: z
        .object({
          euAiActRoles: z.array(z.enum(EU_AI_ACT_ROLES)),
          generalPurposeModels: z.boolean(),
          biometrics: z.boolean(),
          lawEnforcement: z.boolean(),
          updatedBy: z.string(),
          updatedAt: z.string(),
        })
        .nullable()
        .describe('null: no profile saved yet'),
      exclusions: z.array(
        z.object({
          requirementId: z.string(),
          title: z.string(),
          justification: z.string().describe('The reason the profile gives for it not applying'),
          state: z.enum(['applied', 'confirmed', 'overridden', 'proposed']),
          reviewer: z.string().nullable().describe('Who recorded the applicability the record holds'),
        }),
      ),
      bindNoOne: z.array(z.object({ requirementId: z.string(), title: z.string() })),
    },
    run: async (_args, { client, orgId }) => {
      const view = await client.get<ApplicabilityProfileView>(applicabilityProfilePath(orgId));
      return {
        data: { profile: view.profile, exclusions: view.exclusions, bindNoOne: view.bindNoOne },
        text: profileText(view),
      };
    },
  });
}
