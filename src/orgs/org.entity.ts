import { defineEntity, p } from '@mikro-orm/core';

const OrgSchema = defineEntity({
  name: 'Org',
  tableName: 'orgs',
  properties: {
    orgId: p.string().primary(),
    name: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class Org extends OrgSchema.class {}
OrgSchema.setClass(Org);
