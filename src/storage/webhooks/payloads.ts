import type { Collection, Db } from 'mongodb';
import { ensureIndexes, insertNew } from '../mongo';
import { FINISHED_RETENTION_DAYS } from './retention';
import { MAX_WEBHOOK_RETRY_HOURS } from '../../../config';

/** The record a webhook message carries, as the anonymous list showed it when the change was seen. */
export interface PayloadDoc {
  /** The message ID. */
  _id: string;
  subscription: number;
  record: Record<string, unknown> | null;
  created: Date;
}

/** A payload outlives its message's longest retries, then the delivery log's retention. */
const PAYLOAD_RETENTION_DAYS = Math.ceil(MAX_WEBHOOK_RETRY_HOURS / 24) + FINISHED_RETENTION_DAYS;

/**
 * Message payloads (`webhook_payloads`), written once when queued and never updated: the queue
 * and its log, written on every claim and attempt, carry none (on jongodb a write costs what
 * its collection holds: docs/performance.md, webhooks).
 */
export class MessagePayloads {
  readonly docs: Collection<PayloadDoc>;

  constructor(db: Db) {
    this.docs = db.collection<PayloadDoc>('webhook_payloads');
  }

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.docs, [
      { key: { subscription: 1 }, options: { name: 'subscription_1' } },
      { key: { created: 1 }, options: { name: 'created_1', expireAfterSeconds: PAYLOAD_RETENTION_DAYS * 86_400 } },
    ]);
  }

  /** Saves payloads; one saved before (the same change seen again) is left as it is. */
  save(payloads: PayloadDoc[]): Promise<void> {
    return insertNew(this.docs, payloads);
  }

  /** The records of these messages, by message ID. */
  async of(ids: string[]): Promise<Map<string, Record<string, unknown> | null>> {
    if (ids.length === 0) return new Map();
    const docs = await this.docs.find({ _id: { $in: [...new Set(ids)] } }).toArray();
    return new Map(docs.map((p) => [p._id, p.record]));
  }

  async deleteSubscription(subscription: number): Promise<void> {
    await this.docs.deleteMany({ subscription });
  }
}
