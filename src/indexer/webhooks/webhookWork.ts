import type { Services } from '../../services/container';
import type { ClaimedEntry } from '../../storage/syncQueue';
import { WebhookDispatcher } from './dispatcher';
import { queueMatchChanges } from './matchChanges';

/** The sync worker's webhook side: match changes after each indexed batch, and deliver the queue. */
export class WebhookWork {
  private readonly dispatcher: WebhookDispatcher;

  constructor(
    private readonly services: Services,
    owner: string,
  ) {
    this.dispatcher = new WebhookDispatcher(services, owner);
  }

  start(): void {
    this.dispatcher.start();
  }

  stop(): Promise<void> {
    return this.dispatcher.stop();
  }

  /** Queues the match changes of indexed entries; throws when they could not be evaluated (retry the batch). */
  async afterIndexed(entries: readonly ClaimedEntry[]): Promise<void> {
    if ((await queueMatchChanges(this.services, entries)) > 0) this.dispatcher.requestWake();
  }
}
