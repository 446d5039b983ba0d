import type { Redis } from 'ioredis';

/**
 * A channel's name under the deployment's prefix (COMPLY_QUEUE_PREFIX, `comply` by default), like every key it
 * writes: deployments sharing one Redis then never hear each other's invalidations.
 */
export const channelName = (prefix: string, name: string): string => `${prefix}:${name}`;

/**
 * Listens on a Redis channel for invalidations other daemon instances publish. A dedicated connection
 * (subscribing blocks it for anything else) that retries for ever; when it comes back after Redis was away,
 * `onReconnect` runs, since messages may have been missed meanwhile. Resolves once subscribed (or once the
 * subscription failed: the caches' own bounds then take over).
 */
export function listenForInvalidations(
  redis: Redis,
  channel: string,
  handlers: { onMessage: (message: string) => void; onReconnect: () => void },
): { subscriber: Redis; subscribed: Promise<void> } {
  const subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
  subscriber.on('error', () => {});
  let connectedBefore = false;
  subscriber.on('ready', () => {
    if (connectedBefore) handlers.onReconnect();
    connectedBefore = true;
  });
  subscriber.on('message', (_channel, message: string) => handlers.onMessage(message));
  const subscribed = subscriber.subscribe(channel).then(
    () => undefined,
    () => undefined,
  );
  return { subscriber, subscribed };
}
