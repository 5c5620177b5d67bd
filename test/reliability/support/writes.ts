import type { Services } from '../../../src/services/container';
import { call, type Answer, type AnswerTo } from './http';

const DAY = 24 * 3600 * 1000;

/** Local `YYYY-MM-DD HH:MM:SS` text `days` from now. */
export function dayText(days: number, time = '19:00:00'): string {
  return `${new Date(Date.now() + days * DAY).toISOString().slice(0, 10)} ${time}`;
}

/** A valid event create body. */
export function eventBody(title: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const days = 1 + (title.length % 20);
  return { title, start_date: dayText(days), end_date: dayText(days, '21:00:00'), ...extra };
}

/** Runs `task` over `items` with at most `concurrency` at once. */
export async function pool<T, R>(
  items: T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]!, index);
      }
    }),
  );
  return results;
}

export interface StreamFigures {
  acknowledged: number;
  failed: AnswerTo[];
  /** Each written event's last acknowledged title. */
  lastTitles: Map<number, string>;
  venues: number[];
}

/**
 * A steady stream of writes over HTTP until stopped: each lane creates events, renames its own
 * events and creates venues, one request at a time, remembering what was acknowledged.
 */
export class WriteStream {
  readonly figures: StreamFigures = { acknowledged: 0, failed: [], lastTitles: new Map(), venues: [] };
  private running = true;
  private readonly lanes: Promise<void>[];

  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
    lanes = 2,
    private readonly pauseMs = 20,
  ) {
    this.lanes = Array.from({ length: lanes }, (_, lane) => this.lane(lane));
  }

  private async lane(lane: number): Promise<void> {
    const own: number[] = [];
    for (let n = 0; this.running; n++) {
      const step = n % 4;
      let res: Answer;
      let request: string;
      if (step === 3 && own.length > 0) {
        const id = own[n % own.length]!;
        const title = `stream ${lane} ${id} rename ${n}`;
        request = `PATCH /calendar/events/v1/events/${id} ${JSON.stringify({ title })}`;
        res = await call(this.baseUrl, 'PATCH', `/calendar/events/v1/events/${id}`, { title }, { key: this.key });
        if (res.status === 200) this.figures.lastTitles.set(id, title);
      } else if (step === 2) {
        const body = { venue: `Stream hall ${lane}-${n}` };
        request = `POST /calendar/events/v1/venues ${JSON.stringify(body)}`;
        res = await call(this.baseUrl, 'POST', '/calendar/events/v1/venues', body, { key: this.key });
        if (res.status === 201) this.figures.venues.push((res.body as { id: number }).id);
      } else {
        const title = `stream ${lane} event ${n}`;
        const body = eventBody(title);
        request = `POST /calendar/events/v1/events ${JSON.stringify(body)}`;
        res = await call(this.baseUrl, 'POST', '/calendar/events/v1/events', body, { key: this.key });
        if (res.status === 201) {
          const id = (res.body as { id: number }).id;
          own.push(id);
          this.figures.lastTitles.set(id, title);
        }
      }
      if (res.status === 200 || res.status === 201) this.figures.acknowledged++;
      else this.figures.failed.push({ ...res, request });
      await new Promise((resolve) => setTimeout(resolve, this.pauseMs));
    }
  }

  async stop(): Promise<StreamFigures> {
    this.running = false;
    await Promise.all(this.lanes);
    return this.figures;
  }
}

/** Events whose stored title is not the last acknowledged one (writes lost or reordered). */
export async function lostWrites(services: Services, lastTitles: Map<number, string>): Promise<number[]> {
  const stored = await services.stores.events.getMany([...lastTitles.keys()]);
  return [...lastTitles].filter(([id, title]) => stored.get(id)?.docs.en?.title !== title).map(([id]) => id);
}
