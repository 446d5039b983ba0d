import { ApiKey } from './auth/api-key.entity.js';
import { Org } from './orgs/org.entity.js';

/** Every entity the ORM manages; feature modules add theirs here. */
export const entities = [Org, ApiKey];
