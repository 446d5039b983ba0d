import { orgPath } from '../../../src/clients/api-client/paths.js';
import { type ApiClient, consoleClient, type Me, type Org, type OrgList } from '../api';

/** What a signed-in key may see: the key itself and the organizations it can act on. */
export interface Signed {
  api: ApiClient;
  me: Me;
  orgs: { orgId: string; name: string }[];
}

/** Checks a key against the API: a platform key sees every org, an org key its own. */
export async function signIn(key: string): Promise<Signed> {
  const api = consoleClient(key);
  const me = await api.get<Me>('/me');
  const orgs: { orgId: string; name: string }[] = me.platform
    ? (await api.get<OrgList>(orgPath())).orgs
    : [await api.get<Org>(orgPath(me.orgId ?? ''))];
  return { api, me, orgs };
}
