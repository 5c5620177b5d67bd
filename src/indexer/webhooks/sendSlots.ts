/** The receiver a URL reaches: its scheme, host and port (an unparsable URL is a target of its own). */
export function targetKey(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Rounds of attempts a dispatcher holds leased: one being sent, the others waiting. More rounds
 * make fewer, larger claims (a claim costs a few round trips whatever its size); a waiting
 * message starts within ROUNDS_HELD - 1 attempts of its receiver's, which its lease must cover.
 */
export const ROUNDS_HELD = 8;

/**
 * The messages a dispatcher holds: leased and waiting (`ready`, oldest first) or being sent
 * (`running`), counted per receiver. At most `total` are sent at once, at most `perTarget` of
 * them to one receiver; claims lease up to ROUNDS_HELD rounds of that, so that the next
 * messages are at hand when an attempt ends.
 */
export class SendSlots<T extends { target: string }> {
  private readonly ready: T[] = [];
  private readonly running = new Map<string, number>();
  private runningCount = 0;

  constructor(
    private readonly total: number,
    private readonly perTarget: number,
  ) {}

  get inFlight(): number {
    return this.runningCount;
  }

  /** Half a round or less is waiting: time to claim (not sooner, so that claims stay few and large). */
  get wantsMore(): boolean {
    return this.ready.length <= this.total / 2 && this.claimable > 0;
  }

  /**
   * What waits would leave half a round or more of the slots idle: a receiver's messages count up
   * to its share of a round, past which they cannot take slots that other receivers' messages
   * could. A dispatcher then claims at its next poll, for the other receivers.
   */
  get leavesSlotsIdle(): boolean {
    if (this.claimable === 0) return false;
    const waiting = new Map<string, number>();
    for (const item of this.ready) waiting.set(item.target, (waiting.get(item.target) ?? 0) + 1);
    let round = 0;
    for (const count of waiting.values()) round += Math.min(count, this.perTarget);
    return round <= this.total / 2;
  }

  /** How many more messages a claim may lease now. */
  get claimable(): number {
    return Math.max(0, ROUNDS_HELD * this.total - this.runningCount - this.ready.length);
  }

  /**
   * A claim's test of each message it considers, in turn: whether its receiver has room for one
   * more (running and waiting together, ROUNDS_HELD rounds of its share at most). Counts what it admits.
   */
  admitter(): (target: string) => boolean {
    const held = this.held();
    return (target) => {
      const count = held.get(target) ?? 0;
      if (count >= ROUNDS_HELD * this.perTarget) return false;
      held.set(target, count + 1);
      return true;
    };
  }

  /**
   * The receivers holding all the messages the admitter lets them: a claim passes over their
   * messages in its query, so that their backlog cannot hide other receivers' due messages.
   */
  fullTargets(): Set<string> {
    return new Set([...this.held()].filter(([, count]) => count >= ROUNDS_HELD * this.perTarget).map(([t]) => t));
  }

  /** Messages held per receiver, running and waiting. */
  private held(): Map<string, number> {
    const held = new Map(this.running);
    for (const item of this.ready) held.set(item.target, (held.get(item.target) ?? 0) + 1);
    return held;
  }

  add(items: T[]): void {
    this.ready.push(...items);
  }

  /** The waiting messages that may start now (oldest first), counted as running. */
  startable(): T[] {
    const started: T[] = [];
    for (let i = 0; i < this.ready.length && this.runningCount < this.total;) {
      const item = this.ready[i]!;
      const count = this.running.get(item.target) ?? 0;
      if (count >= this.perTarget) {
        i++;
        continue;
      }
      this.ready.splice(i, 1);
      this.running.set(item.target, count + 1);
      this.runningCount++;
      started.push(item);
    }
    return started;
  }

  /** An attempt ended. */
  done(item: T): void {
    const left = (this.running.get(item.target) ?? 1) - 1;
    if (left > 0) this.running.set(item.target, left);
    else this.running.delete(item.target);
    this.runningCount--;
  }

  /** Takes every waiting message out (to give their leases back). */
  drain(): T[] {
    return this.ready.splice(0);
  }
}
