/**
 * Runs tasks one at a time per key, in the order they were queued; tasks of different keys run
 * side by side. Not re-entrant: a task that queues another one under its own key waits forever.
 */
export class KeyedQueue<K> {
  /** The last task queued under each key that has one, settled either way. */
  private readonly tails = new Map<K, Promise<void>>();

  run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** How many keys have a task queued or running. */
  get size(): number {
    return this.tails.size;
  }
}
