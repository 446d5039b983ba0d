import { webhookPath } from '../../../src/clients/api-client/paths.js';
import type { WebhookEventType } from '../../../src/shared/vocabulary.js';
import type { CreatedWebhook, DeliveryLog, WebhookList } from '../api';
import { type Session, useLoad, useSession } from '../ui';

/** An org's webhooks (owners and platform administrators) and each one's delivery log. */

export const useWebhooks = () => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<WebhookList>(webhookPath(orgId)), [orgId]);
};

/** Every delivery attempt of one webhook, newest first, a page at a time; `tick` asks again. */
export const useDeliveries = (webhookId: string, offset: number, limit: number, tick: number) => {
  const { api, orgId } = useSession();
  return useLoad(
    () => api.get<DeliveryLog>(webhookPath(orgId, webhookId, '/deliveries'), { limit, offset }),
    [orgId, webhookId, offset, tick],
  );
};

/** Adds a webhook: the answer carries its signing secret, shown only then. */
export const addWebhook = (
  session: Session,
  body: { url: string; events: WebhookEventType[]; description?: string },
) => session.api.post<CreatedWebhook>(webhookPath(session.orgId), body);

export const deleteWebhook = (session: Session, webhookId: string) =>
  session.api.delete(webhookPath(session.orgId, webhookId));
