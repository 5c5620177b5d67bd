import { createHash } from 'node:crypto';
import type { AnyBulkWriteOperation, Collection, Db, Filter } from 'mongodb';
import { chunks } from '../../lib/chunks';
import { ensureIndexes, insertNew } from '../mongo';
import { MessagePayloads } from './payloads';
import { subscriptionEventKey } from './matches';
import { FINISHED_RETENTION_DAYS } from './retention';

export type MatchType = 'match.added' | 'match.updated' | 'match.removed';
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One attempt, as the delivery log shows it. */
export interface Attempt {
  at: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** A message of the durable delivery queue and its log, as stored (its record is a payload of its own). */
export interface StoredDelivery {
  /** The message ID, sent as `Webhook-Id` on every attempt. */
  _id: string;
  /** `subscription:event`: a record's messages to one subscription go out one at a time, in order. */
  chain: string;
  subscription: number;
  event: number;
  /** The event's sync version the change was seen at: orders a record's messages. */
  seq: number;
  type: MatchType;
  occurredAt: Date;
  status: DeliveryStatus;
  attempts: number;
  firstAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date;
  lastStatusCode: number | null;
  lastError: string | null;
  /** The most recent attempts (at most LOGGED_ATTEMPTS). */
  log: Attempt[];
  owner: string | null;
  leaseUntil: Date;
  finishedAt: Date | null;
}

/** What orders a subscription's messages, newest first (DeliveryStore.page). */
export type DeliveryKey = Pick<StoredDelivery, 'occurredAt' | 'seq' | '_id'>;

const newestFirst = (a: DeliveryKey, b: DeliveryKey): number =>
  b.occurredAt.getTime() - a.occurredAt.getTime() || b.seq - a.seq || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);

/** A message with its record. */
export interface DeliveryDoc extends StoredDelivery {
  record: Record<string, unknown> | null;
}

export type NewDelivery = Pick<DeliveryDoc, 'subscription' | 'event' | 'seq' | 'type' | 'occurredAt' | 'record'>;

/** A message as a claim sees it: its chain (subscription and record), when it is due, and its lease. */
export type ChainLink = Pick<DeliveryDoc, '_id' | 'chain' | 'subscription' | 'event' | 'nextAttemptAt' | 'leaseUntil'>;

const LOGGED_ATTEMPTS = 10;
/** Messages written per request. */
const WRITE_CHUNK = 1_000;
const EPOCH = new Date(0);

/**
 * The same change seen twice (a batch indexed again after a crash) is the same message: its ID
 * is derived from the subscription, the record, its version and the type.
 */
export function deliveryId(d: Pick<NewDelivery, 'subscription' | 'event' | 'seq' | 'type'>): string {
  const digest = createHash('sha256').update(`${d.subscription}:${d.event}:${d.seq}:${d.type}`).digest('base64url');
  return `msg_${digest.slice(0, 27)}`;
}

/** An attempt of a leased message and its outcome: delivered, failed for good, or retried at `nextAttemptAt`. */
export interface AttemptRecord {
  doc: DeliveryDoc;
  attempt: Attempt;
  status: DeliveryStatus;
  nextAttemptAt?: Date;
}

/**
 * The webhook delivery queue: pending messages leased by workers (`webhook_deliveries`), the
 * log of finished ones (`webhook_delivery_log`) and their records (`payloads`). Finished
 * messages leave the queue, and records are written once apart, so that the queue stays as
 * small as the backlog: on jongodb a write costs what its collection holds, not what it
 * touches (docs/performance.md, webhooks). Writes go many messages a request for the same
 * reason (`insertMany`, `updateMany`, `deleteMany`).
 */
export class DeliveryQueue {
  readonly docs: Collection<StoredDelivery>;
  readonly finished: Collection<StoredDelivery>;
  readonly payloads: MessagePayloads;
  private lastLeaseEnd = 0;

  constructor(db: Db) {
    this.docs = db.collection<StoredDelivery>('webhook_deliveries');
    this.finished = db.collection<StoredDelivery>('webhook_delivery_log');
    this.payloads = new MessagePayloads(db);
  }

  async ensureIndexes(): Promise<void> {
    await Promise.all([
      // Claims: the due messages, oldest first; then the pending ones of their chains, in order.
      ensureIndexes(
        this.docs,
        [
          { key: { status: 1, nextAttemptAt: 1 }, options: { name: 'status_1_nextAttemptAt_1' } },
          { key: { chain: 1, status: 1, seq: 1 }, options: { name: 'chain_1_status_1_seq_1' } },
          { key: { subscription: 1, occurredAt: -1 }, options: { name: 'subscription_1_occurredAt_-1' } },
        ],
        // Chains by subscription and event, and finished messages kept in the queue, before the log.
        ['subscription_1_event_1_status_1_seq_1', 'finishedAt_1'],
      ),
      ensureIndexes(this.finished, [
        { key: { subscription: 1, occurredAt: -1 }, options: { name: 'subscription_1_occurredAt_-1' } },
        {
          key: { finishedAt: 1 },
          options: { name: 'finishedAt_1', expireAfterSeconds: FINISHED_RETENTION_DAYS * 86_400 },
        },
      ]),
      this.payloads.ensureIndexes(),
    ]);
  }

  /** These messages with their records. */
  private async withRecords(docs: StoredDelivery[]): Promise<DeliveryDoc[]> {
    const records = await this.payloads.of(docs.map((doc) => doc._id));
    return docs.map((doc) => ({ ...doc, record: records.get(doc._id) ?? null }));
  }

  /** Queues messages; one already queued or finished (same ID: the same change seen again) is left as it is. */
  async enqueue(messages: NewDelivery[]): Promise<void> {
    const created = new Date();
    const docs = messages.map(({ record, ...message }) => {
      const doc: StoredDelivery = {
        _id: deliveryId(message),
        chain: subscriptionEventKey(message.subscription, message.event),
        ...message,
        status: 'pending',
        attempts: 0,
        firstAttemptAt: null,
        lastAttemptAt: null,
        nextAttemptAt: message.occurredAt,
        lastStatusCode: null,
        lastError: null,
        log: [],
        owner: null,
        leaseUntil: EPOCH,
        finishedAt: null,
      };
      return { doc, payload: { _id: doc._id, subscription: doc.subscription, record, created } };
    });
    // At most a thousand messages a request, each one insert: within the server's timeout (a batch
    // of events times 200 subscriptions is thousands of messages), and one that fails is queued again whole.
    for (const slice of chunks(docs, WRITE_CHUNK)) {
      const ids = slice.map(({ doc }) => doc._id);
      const logged = await this.finished.find({ _id: { $in: ids } }, { projection: { _id: 1 } }).toArray();
      const loggedIds = new Set(logged.map((doc) => doc._id));
      const fresh = slice.filter(({ doc }) => !loggedIds.has(doc._id));
      // The record first, so that a queued message finds it (a removal has none: read as null).
      await this.payloads.save(fresh.flatMap(({ payload }) => (payload.record === null ? [] : [payload])));
      await insertNew(
        this.docs,
        fresh.map(({ doc }) => doc),
      );
    }
  }

  /**
   * Leases up to `limit` due messages, each the oldest pending one of its subscription and
   * record (a record's messages go out in order), in four round trips whatever `limit`: the due
   * candidates, the pending messages of their chains, one update leasing the heads, and a read of
   * what it leased. A due message behind an older one waits for it. `admit` sees each head in
   * turn (oldest due first) and may pass it over (its target is busy).
   */
  async claim(
    owner: string,
    limit: number,
    leaseMs: number,
    skipSubscriptions: number[],
    admit: (head: ChainLink) => boolean = () => true,
  ): Promise<DeliveryDoc[]> {
    const now = new Date();
    const due: Filter<StoredDelivery> = {
      status: 'pending',
      nextAttemptAt: { $lte: now },
      leaseUntil: { $lte: now },
      ...(skipSubscriptions.length ? { subscription: { $nin: skipSubscriptions } } : {}),
    };
    const candidates = await this.docs
      .find(due, { projection: { _id: 1, chain: 1 } })
      .sort({ nextAttemptAt: 1 })
      .limit(limit * 4)
      .toArray();
    const firstOfChain = new Map<string, Pick<StoredDelivery, '_id' | 'chain'>>();
    for (const candidate of candidates)
      if (!firstOfChain.has(candidate.chain)) firstOfChain.set(candidate.chain, candidate);
    if (firstOfChain.size === 0) return [];
    const heads = await this.headsOf([...firstOfChain.keys()]);
    const leasing: string[] = [];
    const waiting: AnyBulkWriteOperation<StoredDelivery>[] = [];
    for (const [chain, candidate] of firstOfChain) {
      const head = heads.get(chain);
      if (!head || leasing.length >= limit) continue;
      if (head._id !== candidate._id && head.nextAttemptAt > now) {
        // Waits for the head: no point looking at it again before the head's next attempt.
        waiting.push({
          updateOne: { filter: { _id: candidate._id }, update: { $set: { nextAttemptAt: head.nextAttemptAt } } },
        });
        continue;
      }
      if (head.leaseUntil > now || !admit(head)) continue;
      leasing.push(head._id);
    }
    if (waiting.length) await this.docs.bulkWrite(waiting, { ordered: false });
    if (leasing.length === 0) return [];
    const leaseUntil = this.leaseEnd(now, leaseMs);
    await this.docs.updateMany(
      { _id: { $in: leasing }, status: 'pending', leaseUntil: { $lte: now } },
      { $set: { owner, leaseUntil } },
    );
    const leased = await this.docs.find({ _id: { $in: leasing }, owner, leaseUntil }).toArray();
    const order = new Map(leasing.map((id, i) => [id, i]));
    return this.withRecords(leased.sort((a, b) => order.get(a._id)! - order.get(b._id)!));
  }

  /** The oldest pending message of each of these chains, by chain. */
  private async headsOf(chains: string[]): Promise<Map<string, ChainLink>> {
    const pending = await this.docs
      .find(
        { chain: { $in: chains }, status: 'pending' },
        { projection: { _id: 1, chain: 1, subscription: 1, event: 1, nextAttemptAt: 1, leaseUntil: 1 } },
      )
      .sort({ seq: 1, occurredAt: 1 })
      .toArray();
    const heads = new Map<string, ChainLink>();
    for (const doc of pending) if (!heads.has(doc.chain)) heads.set(doc.chain, doc);
    return heads;
  }

  /**
   * When a lease taken now ends: later than any this queue gave before, so that a claim reads
   * back exactly the messages its own update leased (owner and end together).
   */
  private leaseEnd(now: Date, leaseMs: number): Date {
    this.lastLeaseEnd = Math.max(now.getTime() + leaseMs, this.lastLeaseEnd + 1);
    return new Date(this.lastLeaseEnd);
  }

  /**
   * Records attempts of leased messages in a few requests whatever their number: the finished
   * ones are logged (one insert) and leave the queue (one delete), the retried ones are
   * rescheduled (one update each; the lease holder alone writes a message, so its log read at
   * claim is current). A finished message logged before (a crash between the two writes) is
   * not logged again.
   */
  async recordAttempts(owner: string, records: AttemptRecord[]): Promise<void> {
    if (records.length === 0) return;
    const finishedAt = new Date();
    const updated = records.map(({ doc: { record: _, ...doc }, attempt, status, nextAttemptAt }) => {
      const done = status !== 'pending';
      return {
        ...doc,
        status,
        lastAttemptAt: attempt.at,
        firstAttemptAt: doc.firstAttemptAt ?? attempt.at,
        lastStatusCode: attempt.statusCode,
        lastError: attempt.error,
        nextAttemptAt: nextAttemptAt ?? attempt.at,
        owner: null,
        leaseUntil: EPOCH,
        finishedAt: done ? finishedAt : null,
        log: [...doc.log, attempt].slice(-LOGGED_ATTEMPTS),
        attempts: doc.attempts + 1,
      } satisfies StoredDelivery;
    });
    const finished = updated.filter((doc) => doc.status !== 'pending');
    const retried = updated.filter((doc) => doc.status === 'pending');
    if (finished.length) {
      await insertNew(this.finished, finished);
      await this.docs.deleteMany({ _id: { $in: finished.map((doc) => doc._id) }, owner });
    }
    if (retried.length)
      await this.docs.bulkWrite(
        retried.map(({ _id, ...fields }) => ({ updateOne: { filter: { _id, owner }, update: { $set: fields } } })),
        { ordered: false },
      );
  }

  /** Records one attempt (see recordAttempts). */
  attempted(
    doc: DeliveryDoc,
    owner: string,
    attempt: Attempt,
    outcome: { status: DeliveryStatus; nextAttemptAt?: Date },
  ): Promise<void> {
    return this.recordAttempts(owner, [{ doc, attempt, ...outcome }]);
  }

  /** Gives leased messages back untried (their subscriptions are disabled meanwhile). */
  async release(docs: Pick<DeliveryDoc, '_id'>[], owner: string): Promise<void> {
    if (docs.length === 0) return;
    await this.docs.updateMany(
      { _id: { $in: docs.map((doc) => doc._id) }, owner },
      { $set: { owner: null, leaseUntil: EPOCH } },
    );
  }

  /** Drops leased messages whose subscriptions were deleted meanwhile. */
  async discard(docs: Pick<DeliveryDoc, '_id'>[], owner: string): Promise<void> {
    if (docs.length === 0) return;
    await this.docs.deleteMany({ _id: { $in: docs.map((doc) => doc._id) }, owner });
  }

  /**
   * A subscription's messages, newest first: pending and finished ones together, after `skip`
   * or older than `after` (a walk). The order is found on keys alone (the newest `skip + limit`
   * of each collection), then the page's messages are read whole.
   */
  async page(
    subscription: number,
    skip: number,
    limit: number,
    after?: DeliveryKey,
  ): Promise<{ items: DeliveryDoc[]; total: number }> {
    const { occurredAt, seq, _id } = after ?? {};
    const older = after && {
      $or: [
        { occurredAt: { $lt: occurredAt } },
        { occurredAt, seq: { $lt: seq } },
        { occurredAt, seq, _id: { $lt: _id } },
      ],
    };
    const newest = (docs: Collection<StoredDelivery>) =>
      docs
        .find({ subscription, ...older }, { projection: { _id: 1, occurredAt: 1, seq: 1 } })
        .sort({ occurredAt: -1, seq: -1, _id: -1 })
        .limit(skip + limit)
        .toArray();
    const [pending, finished, pendingCount, finishedCount] = await Promise.all([
      newest(this.docs),
      newest(this.finished),
      this.docs.countDocuments({ subscription }),
      this.finished.countDocuments({ subscription }),
    ]);
    const ids = [...pending, ...finished]
      .sort(newestFirst)
      .slice(skip, skip + limit)
      .map((doc) => doc._id);
    const docs = (
      await Promise.all([this.docs, this.finished].map((c) => c.find({ _id: { $in: ids } }).toArray()))
    ).flat();
    // A message finished between the two reads is in both: the log's copy, read last, wins.
    const byId = new Map(docs.map((doc) => [doc._id, doc]));
    const items = ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    return { items: await this.withRecords(items), total: pendingCount + finishedCount };
  }

  /**
   * A subscription's waiting messages, due now with a retry window that starts at their next
   * attempt: it is enabled again, and the window of those that waited while it was disabled has
   * passed.
   */
  async retryAfresh(subscription: number): Promise<void> {
    await this.docs.updateMany(
      { subscription, status: 'pending', owner: null },
      { $set: { firstAttemptAt: null, nextAttemptAt: new Date() } },
    );
  }

  async deleteSubscription(subscription: number): Promise<void> {
    await Promise.all([
      this.docs.deleteMany({ subscription }),
      this.finished.deleteMany({ subscription }),
      this.payloads.deleteSubscription(subscription),
    ]);
  }

  /** Pending messages and the age of the oldest (for /metrics). */
  async depth(): Promise<{ pending: number; oldestPendingMs: number }> {
    const [pending, oldest] = await Promise.all([
      this.docs.countDocuments({ status: 'pending' }),
      this.docs.findOne({ status: 'pending' }, { sort: { occurredAt: 1 }, projection: { occurredAt: 1 } }),
    ]);
    return { pending, oldestPendingMs: oldest ? Math.max(0, Date.now() - oldest.occurredAt.getTime()) : 0 };
  }
}
