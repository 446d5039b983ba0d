import { ApiKey } from '../../features/auth/api-key.entity.js';

/**
 * Entities the ORM manages. Data access is typed SQL in store modules (README, "Conventions"); API keys
 * are the one table still read through an entity, to be moved when the key module next changes.
 */
export const entities = [ApiKey];
