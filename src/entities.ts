import { ApiKey } from './auth/api-key.entity.js';
import { Control } from './controls/control.entity.js';
import { ControlChange } from './controls/control-change.entity.js';
import { OrgControl } from './controls/org-control.entity.js';
import { Org } from './orgs/org.entity.js';

/** Every entity the ORM manages; feature modules add theirs here. */
export const entities = [Org, ApiKey, Control, OrgControl, ControlChange];
