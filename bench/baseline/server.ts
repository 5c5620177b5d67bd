import Koa from 'koa';
import { loadConfig, LANGUAGES, type Language } from '../../config';
import { createSearchClient } from '../../src/search/client';
import { aliasName } from '../../src/search/indexNames';
import { suggestRequests } from '../../src/services/queries/suggestions';
import { connectMongo } from '../../src/storage/mongo';
import { geoRequest, searchRequest } from './queries';

const ANONYMOUS = { keyId: null, userId: 0, role: null };

/**
 * The floor the API is measured against: a bare Koa app over the same MongoDB driver settings
 * and the same Elasticsearch client, doing only the engine call each scenario needs and
 * returning what the engine gave as JSON. No validation, presentation or middleware.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const { client, db } = await connectMongo({ ...config.mongo, url: config.mongo.url as string });
  const search = createSearchClient({
    url: config.elasticsearch.url as string,
    timeoutMs: config.elasticsearch.timeoutMs,
  });
  const events = db.collection<{ id: number; lang: string }>('events');
  // Writes go to the events collection itself: on the same engine, a collection's size matters.
  const writes = db.collection<Record<string, unknown>>('events');
  const langOf = (value: unknown): Language => (LANGUAGES.includes(value as Language) ? (value as Language) : 'en');
  const records = (hits: { _source?: unknown; sort?: unknown[] }[], distance: boolean) =>
    hits.map((hit) => {
      const record = (hit._source as { record: Record<string, unknown> }).record;
      return distance ? { ...record, distance: hit.sort?.[0] } : record;
    });

  const app = new Koa();
  app.use(async (ctx) => {
    const q = ctx.query as Record<string, string>;
    const lang = langOf(q.lang);
    const read = /^\/events\/(\d+)$/.exec(ctx.path);
    if (ctx.method === 'GET' && read) {
      const doc = await events.findOne({ id: Number(read[1]), lang });
      if (doc) ctx.body = doc;
      else ctx.status = 404;
    } else if (ctx.method === 'GET' && ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
    } else if (ctx.method === 'GET' && ctx.path === '/search') {
      const response = await search.search(searchRequest(aliasName(config, 'event', lang), q.search ?? ''));
      ctx.body = { events: records(response.hits.hits, false), total: response.hits.total };
    } else if (ctx.method === 'GET' && ctx.path === '/geo') {
      const params = {
        lat: Number(q.lat),
        lng: Number(q.lng),
        radius: Number(q.radius),
        unit: q.unit === 'mi' ? 'mi' : 'km',
        from: q.from,
        to: q.to,
        categories: String(q.categories ?? '')
          .split(',')
          .map(Number),
      } as const;
      const response = await search.search(geoRequest(aliasName(config, 'event', lang), params));
      ctx.body = { events: records(response.hits.hits, true), total: response.hits.total };
    } else if (ctx.method === 'GET' && ctx.path === '/suggest') {
      // The API's own msearch for an anonymous caller: the request is the same, only the
      // validation, merging and middleware are left out.
      const { searches } = suggestRequests(
        { config },
        { search: q.search ?? '', per_page: 8 },
        { lang, principal: ANONYMOUS },
      );
      const response = await search.msearch<{ id: number }>({ searches });
      ctx.body = {
        hits: response.responses.map((r) => ('hits' in r ? r.hits.hits.map((hit) => hit._source?.id) : [])),
      };
    } else if (ctx.method === 'POST' && ctx.path === '/events') {
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
      const doc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      // Never a real event: lang `bench` (no read, list or reindex looks at it); removed after the run.
      const { insertedId } = await writes.insertOne({ ...doc, lang: 'bench', id: -1 });
      ctx.status = 201;
      ctx.body = { id: String(insertedId) };
    } else {
      ctx.status = 404;
    }
  });
  const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
  const stop = () => {
    server.close(() => void Promise.allSettled([client.close(), search.close()]).then(() => process.exit(0)));
    server.closeAllConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: Error) => {
  console.error(`bench baseline: ${err.message}`);
  process.exit(1);
});
