import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'chai';
import { allRoutes } from '../../src/api/routeTable';
import { pathParamsOf } from '../../src/api/namespace/describe';
import { openApiPath } from '../../src/api/namespace/openapiOperations';
import type { RouteSpec } from '../../src/http/types';
import { request, ROOT, type ApiResponse } from '../support/api';
import { assertConforms, conforming, conformingRequest } from '../support/conformance';
import { testWorld } from '../support/harness';
import { readUntil } from '../reliability/support/http';

type Json = Record<string, any>;

const WRITES = ['POST', 'PUT', 'PATCH'];
const WAIT = { key: true as const, headers: { Prefer: 'wait-for-index' } };

async function documentAt(path: string): Promise<Json> {
  const res = await request('GET', path);
  expect(res.status, path).to.equal(200);
  expect(res.headers.get('content-type')).to.match(/^application\/json/);
  return res.body as Json;
}

/** A list once it holds `count` records (lists follow writes within about a second; every answer must conform). */
function listed(path: string, key: string, prefix = '', count = 1): Promise<ApiResponse> {
  return readUntil(
    () => conformingRequest('GET', `${prefix}${ROOT}${path}`),
    (res) => res.status === 200 && res.body[key].length >= count,
    10_000,
    250,
  );
}

function table(): RouteSpec[] {
  return allRoutes(testWorld().services);
}

describe('GET /doc: the OpenAPI document', () => {
  let doc: Json;
  before(async () => {
    doc = await documentAt(`${ROOT}/doc`);
  });

  it('is a valid OpenAPI 3 document (swagger-parser) with a version and a description', async () => {
    expect(doc.openapi).to.equal('3.0.3');
    await SwaggerParser.validate(structuredClone(doc) as never);
    expect(doc.info.version).to.match(/^1\.\d+\.\d+$/);
    expect(doc.info.description).to.include('## Lists').and.to.include('per_page');
    expect(doc.externalDocs.url).to.equal(`${testWorld().baseUrl}${ROOT}/doc?format=html`);
  });

  it('has every route of the table with every method, its path parameters, query parameters and body fields', () => {
    let operations = 0;
    for (const route of table()) {
      const item = doc.paths[openApiPath(route.path)];
      expect(item, route.path || '/').to.be.an('object');
      const keys = Object.keys(route.input.describe().keys ?? {});
      const pathKeys = pathParamsOf(route.path).map((name) => route.pathKeys?.[name] ?? name);
      for (const method of route.methods) {
        operations += 1;
        const where = `${method} ${route.path}`;
        const op = item[method.toLowerCase()];
        expect(op, where).to.be.an('object');
        const params = op.parameters as Json[];
        expect(
          params.filter((p) => p.in === 'path').map((p) => p.name),
          where,
        ).to.deep.equal(pathParamsOf(route.path));
        const fields = keys.filter((k) => !pathKeys.includes(k));
        expect(
          params.filter((p) => p.in === 'query').map((p) => p.name),
          where,
        ).to.have.members(fields);
        if (WRITES.includes(method)) {
          const body = op.requestBody.content['application/json'].schema.$ref.split('/').pop();
          expect(Object.keys(doc.components.schemas[body].properties), where).to.have.members(fields);
          expect(op.requestBody.content).to.have.keys(
            'application/json',
            'application/x-www-form-urlencoded',
            'multipart/form-data',
          );
        }
        expect(op.responses, where).to.include.keys(
          method === 'POST' && !route.path.includes(':') && route.access === 'write' ? '201' : '200',
          '400',
          'default',
        );
        for (const status of route.errors ?? []) expect(op.responses, where).to.have.property(String(status));
        expect(op.security, where).to.deep.equal(
          route.access === 'read' ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }],
        );
      }
    }
    const documented = Object.values(doc.paths).reduce((n: number, item) => n + Object.keys(item as Json).length, 0);
    expect(documented).to.equal(operations);
  });

  it('documents parameters from the joi schemas: type, default, enum, required, accepted forms', () => {
    const list = doc.paths['/events'].get.parameters as Json[];
    const param = (name: string) => list.find((p) => p.name === name)!;
    expect(param('per_page').schema).to.include({ type: 'integer', default: 6 });
    expect(param('i18n_language').schema.enum).to.deep.equal(['en', 'fr', 'de']);
    expect(param('start_date').schema.type).to.equal('string');
    expect(param('start_date').description).to.include('ISO 8601');
    expect(param('categories')).to.include({ style: 'form', explode: false });
    expect(param('categories').schema.type).to.equal('array');
    expect(param('strict_dates').schema).to.include({ type: 'boolean', default: false });
    expect(param('geoloc_unit').schema).to.deep.include({ enum: ['mi', 'km'], default: 'mi' });
    const byId = doc.paths['/events/{id}'].get.parameters as Json[];
    expect(byId.find((p) => p.in === 'path')).to.deep.include({
      name: 'id',
      required: true,
      // Any digits: IDs no record can have are 404, not 400.
      schema: { type: 'integer', minimum: 0 },
    });
    const bySlug = doc.paths['/events/by-slug/{slug}'].get.parameters as Json[];
    expect(bySlug.find((p) => p.in === 'path')).to.include({ name: 'slug', required: true });
    const create =
      doc.components.schemas[
        doc.paths['/events'].post.requestBody.content['application/json'].schema.$ref.split('/').pop()
      ];
    expect(create.required).to.have.members(['title', 'start_date', 'end_date']);
    expect(doc.paths['/events'].post.responses['201'].headers).to.have.property('Location');
    expect(doc.paths['/events'].get.responses['200'].headers).to.include.keys('X-Total', 'X-Total-Pages', 'Link');
    expect(doc.paths['/events/{id}'].delete.responses['200'].content['application/json'].schema.oneOf).to.have.length(
      2,
    );
    expect(doc.components.securitySchemes.bearerAuth).to.include({ type: 'http', scheme: 'bearer' });
  });

  it('gives servers[0].url = the REST root the request came through', async () => {
    const { baseUrl } = testWorld();
    for (const prefix of ['', '/fr', '/de', '/en']) {
      const prefixed = await documentAt(`${prefix}${ROOT}/doc`);
      expect(prefixed.servers[0].url, prefix).to.equal(`${baseUrl}${prefix}${ROOT}`);
    }
  });

  it('speaks the request language: path prefix or i18n_language', async () => {
    expect(doc.paths['/events'].post.summary).to.equal('Create an event');
    expect(doc.paths['/categories/{id}'].get.summary).to.equal('Read a category by ID');
    const fr = await documentAt(`/fr${ROOT}/doc`);
    expect(fr.paths['/events'].post.summary).to.equal('Créer un événement');
    expect(fr.paths['/venues'].get.summary).to.equal('Lister les lieux');
    expect(fr.paths['/events/{id}'].delete.summary).to.match(/^Mettre un événement à la corbeille/);
    expect(fr.info.description).to.include('## Listes');
    expect(fr.info.title).to.include('calendrier');
    const de = await documentAt(`${ROOT}/doc?i18n_language=de`);
    expect(de.paths['/tags'].post.summary).to.equal('Ein Schlagwort anlegen');
    expect(de.info.description).to.include('## Fehler');
    await SwaggerParser.validate(structuredClone(fr) as never);
    await SwaggerParser.validate(structuredClone(de) as never);
  });

  it('serves the reference page and its files from the same prefix, without a CDN', async () => {
    const page = await conformingRequest('GET', `/de${ROOT}/doc?format=html`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).to.include("script-src 'self'");
    expect(page.body).to.include(`<script src="/de${ROOT}/doc/assets/swagger-ui-bundle.js"></script>`);
    expect(page.body).to.include(`data-spec-url="/de${ROOT}/doc"`);
    expect(page.body).to.include('<html lang="de">');
    expect(page.body).not.to.match(/https?:\/\//);
    for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'doc-init.js', 'favicon-32x32.png']) {
      const asset = await conformingRequest('GET', `/de${ROOT}/doc/assets/${file}`);
      expect(asset.status, file).to.equal(200);
    }
    const missing = await conforming.get('/doc/assets/..%2Fpackage.json');
    expect([missing.status, missing.body.code]).to.deep.equal([404, 'rest_no_route']);
    expect((await conforming.get('/doc/assets/index.html')).status).to.equal(404);
  });

  it('rejects an unknown format with the documented error envelope', async () => {
    const res = await conforming.get('/doc?format=pdf');
    expect(res.status).to.equal(400);
    expect(res.body.data.params).to.have.key('format');
  });
});

describe('responses conform to the documented schemas', () => {
  const ids: Record<string, number> = {};

  it('namespace index and the document itself', async () => {
    const index = await conforming.get('');
    expect(index.status).to.equal(200);
    expect((await conformingRequest('GET', `/fr${ROOT}`)).status).to.equal(200);
    expect((await conforming.get('/doc')).status).to.equal(200);
    expect((await conforming.get('?namespace=nope/v9')).status).to.equal(404);
  });

  it('creates and reads one record of each kind', async () => {
    const creates: [string, string, Json][] = [
      ['category', '/categories', { name: 'Doc concerts', description: '<p>Live</p>' }],
      ['tag', '/tags', { name: 'doc-outdoor' }],
      ['venue', '/venues', { venue: 'Doc Hall', city: 'Lyon', geo_lat: 45.76, geo_lng: 4.83 }],
      ['organizer', '/organizers', { organizer: 'Doc Org', email: 'doc@example.org' }],
    ];
    for (const [kind, path, body] of creates) {
      const created = await conforming.post(path, body, WAIT);
      expect(created.status, kind).to.equal(201);
      expect(created.headers.get('location')).to.equal(created.body.rest_url);
      ids[kind] = created.body.id;
    }
    const event = await conforming.post(
      '/events',
      {
        title: 'Doc check concert',
        start_date: '2031-06-01 19:00:00',
        end_date: '2031-06-01 22:00:00',
        cost: '10 €',
        venue: ids.venue,
        organizer: [ids.organizer],
        categories: [ids.category],
        tags: ['doc-outdoor'],
      },
      WAIT,
    );
    expect(event.status).to.equal(201);
    ids.event = event.body.id;
    expect(event.body.venue.id).to.equal(ids.venue);
    for (const [kind, plural] of [
      ['event', 'events'],
      ['venue', 'venues'],
      ['organizer', 'organizers'],
      ['category', 'categories'],
      ['tag', 'tags'],
    ]) {
      const read = await conforming.get(`/${plural}/${ids[kind!]}`);
      expect(read.status, kind).to.equal(200);
      expect(read.body.id).to.equal(ids[kind!]);
    }
    const bySlug = await conformingRequest('GET', `/fr${ROOT}/events/by-slug/${event.body.slug}`);
    expect(bySlug.status).to.equal(200);
  });

  it('updates and trashes (PATCH, DELETE, force=true)', async () => {
    const patched = await conforming.patch(`/venues/${ids.venue}`, { city: 'Villeurbanne' });
    expect(patched.status).to.equal(200);
    const put = await conforming.put(
      `/events/${ids.event}`,
      {
        featured: true,
        i18n_language: 'fr',
        title: 'Concert de vérification',
      },
      WAIT,
    );
    expect(put.status).to.equal(200);
    expect(put.headers.get('preference-applied')).to.equal('wait-for-index');
    const organizer = await conforming.post('/organizers', { organizer: 'Doc Temp' });
    const trashed = await conforming.delete(`/organizers/${organizer.body.id}`);
    expect([trashed.status, trashed.body.status]).to.deep.equal([200, 'trash']);
    const gone = await conforming.delete(`/organizers/${organizer.body.id}`);
    expect(gone.status).to.equal(410);
    const forced = await conforming.delete(`/organizers/${organizer.body.id}?force=true`);
    expect(forced.body).to.deep.equal({ id: organizer.body.id, deleted: true });
  });

  it('lists every kind in its envelope with X-Total headers', async () => {
    const lists: [string, string][] = [
      ['events', `/events?include=${ids.event}`],
      ['venues', '/venues'],
      ['organizers', '/organizers'],
      ['categories', '/categories?hide_empty=false'],
      ['tags', '/tags?hide_empty=false'],
    ];
    for (const [key, path] of lists) {
      const res = await listed(path, key);
      expect(res.status, path).to.equal(200);
      expect(res.body[key], path).to.be.an('array').that.is.not.empty;
      expect(res.headers.get('x-total'), path).to.equal(String(res.body.total));
    }
    const fr = await listed(`/events?include=${ids.event}&per_page=1`, 'events', '/fr');
    expect(fr.body.events[0].title).to.equal('Concert de vérification');
  });

  it('covers the variable event shapes: no venue, several venues, image, inline organizer, password', async () => {
    const second = await conforming.post('/venues', { venue: 'Doc Annex' }, WAIT);
    const bare = await conforming.post(
      '/events',
      {
        title: 'Doc bare',
        start_date: '2031-01-01',
        end_date: '2031-01-01',
        all_day: true,
        image: 'https://img.example/a.jpg',
      },
      WAIT,
    );
    expect([bare.status, bare.body.venue, bare.body.image.extension]).to.deep.equal([201, [], 'jpg']);
    const multi = await conforming.post(
      '/events',
      {
        title: 'Doc multi',
        start_date: '2031-01-02 10:00:00',
        end_date: '2031-01-02 11:00:00',
        venue: [ids.venue, second.body.id],
        organizer: [{ organizer: 'Doc Inline' }],
        password: 'secret',
      },
      WAIT,
    );
    expect(multi.body.venue).to.have.length(2);
    const locked = await conforming.get(`/events/${multi.body.id}`, {});
    expect([locked.status, locked.body.code]).to.deep.equal([403, 'event-password-protected']);
    const listedAnonymously = await listed(`/events?include=${bare.body.id},${multi.body.id}`, 'events', '', 2);
    expect(listedAnonymously.body.events).to.have.length(2);
    const forced = await conforming.delete(`/venues/${second.body.id}?force=true`);
    expect(forced.body).to.deep.equal({ id: second.body.id, deleted: true });
    expect((await conforming.get('?context=help')).status).to.equal(200);
  });

  it('answers errors in the documented envelope and statuses', async () => {
    const badJson = await conforming.post('/venues', undefined, {
      key: true,
      raw: '{bad',
      contentType: 'application/json',
    });
    expect([badJson.status, badJson.body.code]).to.deep.equal([400, 'rest_invalid_json']);
    const badType = await conforming.post('/venues', undefined, { key: true, raw: 'x', contentType: 'text/plain' });
    expect([badType.status, badType.body.code]).to.deep.equal([415, 'rest_unsupported_media_type']);
    expect((await conforming.get('/events/999999')).status).to.equal(404);
    expect((await conforming.get(`/events/${ids.venue}`)).status).to.equal(400);
    expect((await conforming.get('/events?per_page=0')).status).to.equal(400);
    expect((await conforming.get('/events?page=999')).status).to.equal(404);
    const anonymous = await conforming.post('/events', { title: 'x' }, {});
    expect(anonymous.status).to.equal(401);
    const nameless = await conforming.post('/categories', { description: 'no name' });
    expect([nameless.status, nameless.body.code]).to.deep.equal([400, 'rest_missing_callback_param']);
    expect(nameless.body.data.params).to.have.keys('name');
    const paths = (await documentAt(`${ROOT}/doc`)).paths;
    expect(paths['/categories'].post.responses['400'].description).to.include('`rest_missing_callback_param`');
    expect(paths['/categories'].get.responses['400'].description).not.to.include('rest_missing_callback_param');
    expect(paths['/categories/{id}'].post.responses['400'].description).not.to.include('rest_missing_callback_param');
    // Terms have no status, password or trash; events do.
    expect(paths['/categories/{id}'].get.responses).not.to.have.any.keys('403');
    expect(paths['/tags/{id}'].delete.responses).not.to.have.any.keys('410');
    expect(paths['/events/{id}'].get.responses).to.include.keys('403');
    expect(paths['/events/{id}'].delete.responses).to.include.keys('410');
  });

  it('fails a response that does not match its documented schema', async () => {
    const res = await request('GET', `${ROOT}/venues/${ids.venue}`);
    const broken = { ...res, body: { ...res.body, city: 42 } };
    let failure: unknown;
    await assertConforms('GET', `${ROOT}/venues/${ids.venue}`, broken).catch((err) => (failure = err));
    expect(String(failure)).to.match(/does not match the documented schema[\s\S]*\/city/);
    const undocumented = { ...res, status: 418 };
    failure = undefined;
    await assertConforms('GET', `${ROOT}/venues/${ids.venue}`, undocumented).catch((err) => (failure = err));
    expect(String(failure)).to.match(/status not documented/);
  });
});
