import { randomBytes } from 'node:crypto';
import type { Em } from '../../platform/db/database.js';
import { conflict, invalidField, resourceNotFound } from '../../platform/errors.js';
import { AddressRefusedError, checkReceiver } from './webhook-address.js';
import {
  countWebhooks,
  deleteWebhook,
  insertWebhook,
  selectAttempts,
  selectWebhook,
  selectWebhooks,
  type WebhookRow,
} from './webhooks.store.js';

/** Webhooks an org may have: each event is signed and sent to each, so the bound keeps fan-out small. */
export const MAX_WEBHOOKS_PER_ORG = 20;

export const webhookView = (webhook: WebhookRow) => ({
  webhookId: webhook.webhookId,
  url: webhook.url,
  events: webhook.events,
  description: webhook.description,
  createdBy: webhook.createdBy,
  createdAt: webhook.createdAt,
});

/**
 * A Standard Webhooks secret: `whsec_` and 256 random bits in base64. It is stored as it is, not hashed,
 * because every delivery is signed with it (HMAC-SHA256 needs the key itself); it is returned once, when the
 * webhook is created, never reported in the audit trail (the column is ignored there) and never logged.
 */
const generateSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const generateWebhookId = () => `wh_${randomBytes(9).toString('base64url')}`;

export async function createWebhook(
  em: Em,
  orgId: string,
  input: { url: string; events: string[]; description?: string },
  options: { allowPrivate: boolean; createdBy: string },
) {
  try {
    await checkReceiver(input.url, options.allowPrivate);
  } catch (error) {
    if (error instanceof AddressRefusedError) {
      throw invalidField('body.url', error.message, { reason: error.reason });
    }
    throw error;
  }
  return em.transactional(async (tx) => {
    if ((await countWebhooks(tx, orgId)) >= MAX_WEBHOOKS_PER_ORG) {
      throw conflict(`An organization has at most ${MAX_WEBHOOKS_PER_ORG} webhooks`, {
        limit: MAX_WEBHOOKS_PER_ORG,
      });
    }
    const secret = generateSecret();
    const webhookId = generateWebhookId();
    const now = new Date();
    await insertWebhook(
      tx,
      {
        webhookId,
        orgId,
        url: input.url,
        events: [...new Set(input.events)],
        description: input.description ?? null,
        createdBy: options.createdBy,
        secret,
      },
      now,
    );
    const created = (await selectWebhook(tx, orgId, webhookId)) as WebhookRow;
    return { ...webhookView(created), secret };
  });
}

export async function listWebhooks(em: Em, orgId: string) {
  return (await selectWebhooks(em, orgId)).map(webhookView);
}

async function requireWebhook(em: Em, orgId: string, webhookId: string): Promise<WebhookRow> {
  const webhook = await selectWebhook(em, orgId, webhookId);
  if (!webhook) throw resourceNotFound('Webhook', { webhookId });
  return webhook;
}

export async function getWebhook(em: Em, orgId: string, webhookId: string) {
  return webhookView(await requireWebhook(em, orgId, webhookId));
}

export async function removeWebhook(em: Em, orgId: string, webhookId: string): Promise<void> {
  if (!(await deleteWebhook(em, orgId, webhookId))) throw resourceNotFound('Webhook', { webhookId });
}

/** A page of the webhook's delivery log: every attempt, newest first. */
export async function deliveryLog(
  em: Em,
  orgId: string,
  webhookId: string,
  page: { limit: number; offset: number },
) {
  await requireWebhook(em, orgId, webhookId);
  const { attempts, total } = await selectAttempts(em, webhookId, page);
  return { webhookId, deliveries: attempts, total, limit: page.limit, offset: page.offset };
}
