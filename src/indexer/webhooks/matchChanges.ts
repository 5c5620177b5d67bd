import type { Services } from '../../services/container';
import { matchSubscriptions } from '../../services/webhooks/subscriptionFilters';
import { aliasName } from '../../search/indexNames';
import { giveUpAfter } from '../../search/client';
import { DependencyUnavailableError } from '../../domain/errors';
import type { ClaimedEntry } from '../../storage/syncQueue';
import type { MatchType, NewDelivery } from '../../storage/webhooks/deliveries';
import { MatchStore, type MatchChange } from '../../storage/webhooks/matches';

/**
 * After a batch is indexed (before its entries are completed): which subscriptions each changed
 * event started, kept or stopped matching, compared with the stored match sets; the messages are
 * queued first, then the match sets updated. A crash in between evaluates the batch again: the
 * same change gives the same message IDs, queued once. Returns how many messages were queued.
 */
export async function queueMatchChanges(services: Services, entries: readonly ClaimedEntry[]): Promise<number> {
  const { webhooks } = services;
  const events = entries.filter((entry) => entry.kind === 'event');
  if (events.length === 0 || !webhooks.box) return 0;
  const subscriptions = await webhooks.subscriptions.active();
  if (subscriptions.length === 0) return 0;
  // The batch was just written: searchable once refreshed (lists see it within the refresh interval anyway).
  const indexes = [...new Set(subscriptions.map((s) => aliasName(services.config, 'event', s.language)))];
  try {
    await services.search.indices.refresh({ index: indexes }, giveUpAfter(services.config.elasticsearch.timeoutMs));
  } catch (err) {
    throw new DependencyUnavailableError('search', err);
  }
  const ids = events.map((entry) => entry.id);
  const matched = await matchSubscriptions(services, subscriptions, ids);
  const previous = await webhooks.matches.of(
    subscriptions.map((s) => s._id),
    ids,
  );
  const occurredAt = new Date();
  const messages: NewDelivery[] = [];
  const changes: MatchChange[] = [];
  for (const subscription of subscriptions) {
    for (const entry of events) {
      const now = matched.get(subscription._id)?.get(entry.id);
      const before = previous.get(MatchStore.key(subscription._id, entry.id));
      let type: MatchType | null = null;
      if (now && !before) type = 'match.added';
      else if (now && before && now.hash !== before.hash) type = 'match.updated';
      else if (!now && before) type = 'match.removed';
      if (!type) continue;
      messages.push({
        subscription: subscription._id,
        event: entry.id,
        seq: entry.version,
        type,
        occurredAt,
        record: now?.record ?? null,
      });
      changes.push({
        subscription: subscription._id,
        event: entry.id,
        hash: now?.hash ?? null,
        stored: Boolean(before),
      });
    }
  }
  await webhooks.deliveries.enqueue(messages);
  await webhooks.matches.apply(changes);
  return messages.length;
}
