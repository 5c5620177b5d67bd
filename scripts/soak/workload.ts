/** The soak's requests: reads by ID and slug, lists with filters and search, and writes. */

export interface Answer {
  status: number;
  /** The parsed JSON body (`{}` when there is none). */
  body: Record<string, any>;
  ms: number;
}

export type Send = (method: string, path: string, body?: unknown) => Promise<Answer>;

interface Known {
  events: { id: number; slug: string }[];
  venues: number[];
  categories: string[];
  categoryIds: Set<number>;
  /** Events this soak created and has not deleted yet. */
  created: number[];
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const WORDS = ['jazz', 'night', 'market', 'concert', 'festival', 'theatre', 'open air', 'vernissage'];

function eventBody(n: number, venue?: number, category?: string): Record<string, unknown> {
  const offset = 1 + (n % 60);
  return {
    title: `Soak ${WORDS[n % WORDS.length]} ${n}`,
    description: `<p>Soak event number ${n}: ${WORDS[(n * 3) % WORDS.length]}.</p>`,
    start_date: `${day(offset)} 19:00:00`,
    end_date: `${day(offset)} 22:00:00`,
    ...(venue ? { venue } : {}),
    ...(category ? { categories: [category] } : {}),
  };
}

/**
 * A fixed set of records to work on, created once (writes need a key), so that the database
 * keeps its size: the write mix deletes about as many events as it creates.
 */
export async function seed(send: Send, canWrite: boolean, marker: string): Promise<Known> {
  const known: Known = { events: [], venues: [], categories: [], categoryIds: new Set(), created: [] };
  if (canWrite) {
    for (let i = 0; i < 5; i++) {
      const venue = await send('POST', '/venues', { venue: `Soak hall ${marker} ${i}`, city: 'Lyon' });
      if (venue.status === 201) known.venues.push(venue.body.id);
    }
    for (let i = 0; i < 5; i++) known.categories.push(`Soak ${marker} ${WORDS[i]}`);
    for (let i = 0; i < 30; i++) {
      const res = await send('POST', '/events', eventBody(i, known.venues[i % 5], known.categories[i % 5]));
      if (res.status === 201) known.events.push({ id: res.body.id, slug: res.body.slug });
      for (const term of res.body?.categories ?? []) known.categoryIds.add(term.id);
    }
  } else {
    const events = await send('GET', '/events?per_page=50');
    for (const event of events.body?.events ?? []) known.events.push({ id: event.id, slug: event.slug });
  }
  if (known.events.length === 0)
    throw new Error('no events to read: give a key (--key or CALENDAR_API_KEY) or seed the database');
  return known;
}

type Op = { name: string; weight: number; run(n: number): Promise<Answer> };

/** The weighted mix: about 45% reads, 35% lists, 20% writes (writes only with a key). */
export function operations(send: Send, known: Known, canWrite: boolean): Op[] {
  const any = <T>(values: T[], n: number): T => values[n % values.length]!;
  const ops: Op[] = [
    { name: 'read event by id', weight: 25, run: (n) => send('GET', `/events/${any(known.events, n).id}`) },
    {
      name: 'read event by slug',
      weight: 10,
      run: (n) => send('GET', `/events/by-slug/${encodeURIComponent(any(known.events, n).slug)}`),
    },
    {
      name: 'read venue by id',
      weight: 10,
      run: (n) => send('GET', `/venues/${any(known.venues.length ? known.venues : [1], n)}`),
    },
    { name: 'list events', weight: 15, run: (n) => send('GET', `/events?per_page=${5 + (n % 6)}&page=${1 + (n % 3)}`) },
    {
      name: 'search events',
      weight: 10,
      run: (n) => send('GET', `/events?search=${encodeURIComponent(any(WORDS, n))}`),
    },
    {
      name: 'filter events',
      weight: 5,
      run: (n) => send('GET', `/events?start_date=${day(n % 30)}&end_date=${day(30 + (n % 30))}&featured=false`),
    },
    { name: 'list venues', weight: 3, run: () => send('GET', '/venues?search=soak') },
    { name: 'list categories', weight: 2, run: () => send('GET', '/categories?hide_empty=0') },
  ];
  if (!canWrite) return ops;
  return [
    ...ops,
    {
      name: 'update event',
      weight: 10,
      run: (n) =>
        send('PATCH', `/events/${any(known.events, n).id}`, {
          description: `<p>Soak update ${n}</p>`,
          featured: n % 2 === 0,
        }),
    },
    {
      name: 'create event',
      weight: 5,
      run: async (n) => {
        const res = await send('POST', '/events', eventBody(1_000 + n, any(known.venues, n), any(known.categories, n)));
        if (res.status === 201) known.created.push(res.body.id);
        return res;
      },
    },
    {
      name: 'delete event',
      weight: 5,
      run: (n) => {
        const id = known.created.shift();
        return id
          ? send('DELETE', `/events/${id}?force=true`)
          : send('PATCH', `/events/${any(known.events, n).id}`, { sticky: false });
      },
    },
  ];
}

/** Picks the operation for request `n` by weight (deterministic, evenly spread). */
export function scheduler(ops: Op[]): (n: number) => Op {
  const wheel = ops.flatMap((op) => Array.from({ length: op.weight }, () => op));
  // A stride coprime with the wheel's size spreads each operation evenly over time.
  let stride = 7;
  while (gcd(stride, wheel.length) !== 1) stride++;
  return (n) => wheel[(n * stride) % wheel.length]!;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Removes what the soak created (best effort). */
export async function cleanUp(send: Send, known: Known): Promise<void> {
  for (const id of [...known.created, ...known.events.map((e) => e.id)])
    await send('DELETE', `/events/${id}?force=true`);
  for (const id of known.venues) await send('DELETE', `/venues/${id}?force=true`);
  for (const id of known.categoryIds) await send('DELETE', `/categories/${id}`);
}
