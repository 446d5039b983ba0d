import { defineEntity, p } from '@mikro-orm/core';

export const CONTROL_STATUSES = ['not_started', 'in_progress', 'implemented'] as const;
export type ControlStatus = (typeof CONTROL_STATUSES)[number];

/** An org's state of one control: status, applicability and who decided it. */
const OrgControlSchema = defineEntity({
  name: 'OrgControl',
  tableName: 'org_controls',
  properties: {
    orgId: p.string().primary(),
    controlId: p.string().primary(),
    status: p.enum([...CONTROL_STATUSES]),
    applicable: p.boolean(),
    justification: p.text().nullable(),
    reviewer: p.string().nullable(),
    updatedAt: p.datetime(),
  },
});

export class OrgControl extends OrgControlSchema.class {}
OrgControlSchema.setClass(OrgControl);
