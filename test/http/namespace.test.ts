import { expect } from 'chai';
import { request, ROOT } from '../support/api';
import { testWorld } from '../support/harness';

interface Arg {
  type?: string | string[];
  required: boolean;
  description?: string;
  items?: { type: string | string[] };
}
interface Endpoint {
  methods: string[];
  args: Record<string, Arg>;
  summary?: string;
}
interface Route {
  namespace: string;
  methods: string[];
  endpoints: Endpoint[];
  _links?: { self: string };
}

const JSON_TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object'];

async function index(
  query = '',
): Promise<{ routes: Record<string, Route>; _links: Record<string, { href: string }[]> }> {
  const res = await request('GET', `${ROOT}${query}`);
  expect(res.status).to.equal(200);
  return res.body;
}

describe('namespace index (GET /calendar/events/v1)', () => {
  it('names each path parameter after the argument that carries it', async () => {
    const { routes } = await index();
    const bySlug = routes[`${ROOT}/events/by-slug/(?P<lookup_slug>[^/]+)`];
    expect(bySlug, Object.keys(routes).join('\n')).to.be.an('object');
    expect(bySlug!.methods).to.include.members(['GET', 'DELETE', 'POST', 'PUT', 'PATCH']);
    for (const endpoint of bySlug!.endpoints) expect(endpoint.args.lookup_slug).to.include({ required: true });
    const byId = routes[`${ROOT}/venues/(?P<id>\\d+)`];
    for (const endpoint of byId!.endpoints) expect(endpoint.args.id).to.include({ type: 'integer', required: true });
    expect(routes).to.have.property(`${ROOT}/doc/assets/(?P<file>[^/]+)`);
    expect(Object.keys(routes).filter((key) => key.includes(':'))).to.deep.equal([]);
  });

  it('types every argument with JSON types, alternatives as a list, and describes each', async () => {
    const { routes } = await index();
    const untyped: string[] = [];
    const undescribed: string[] = [];
    for (const [key, route] of Object.entries(routes)) {
      for (const endpoint of route.endpoints) {
        for (const [name, arg] of Object.entries(endpoint.args)) {
          const where = `${endpoint.methods.join(',')} ${key} ${name}`;
          const types = [arg.type ?? [], arg.items?.type ?? []].flat();
          if (types.length === 0 || types.some((type) => !JSON_TYPES.includes(type)))
            untyped.push(`${where}: ${types}`);
          if (!arg.description) undescribed.push(where);
        }
      }
    }
    expect(untyped).to.deep.equal([]);
    expect(undescribed).to.deep.equal([]);
    const create = routes[`${ROOT}/events`]!.endpoints.find((endpoint) => endpoint.methods.includes('POST'))!;
    expect(create.args.venue!.type).to.have.members(['integer', 'object', 'array']);
  });

  it('links the routes without parameters to themselves and the index to the OpenAPI document', async () => {
    const { apiUrl } = testWorld().config;
    const body = await index();
    expect(body._links).to.deep.equal({ help: [{ href: `${apiUrl}${ROOT}/doc` }] });
    expect(body.routes[`${ROOT}/events`]!._links).to.deep.equal({ self: `${apiUrl}${ROOT}/events` });
    expect(body.routes[`${ROOT}/events/(?P<id>\\d+)`]).not.to.have.property('_links');
    const help = await request('GET', body._links.help![0]!.href.replace(/^https?:\/\/[^/]+/, ''));
    expect(help.status).to.equal(200);
    expect(help.body.openapi).to.match(/^3\./);
  });

  it('adds summaries with context=help, and answers another namespace 404', async () => {
    const { routes } = await index('?context=help');
    const summaries = routes[`${ROOT}/events`]!.endpoints.map((endpoint) => [endpoint.methods, endpoint.summary]);
    expect(summaries).to.deep.include.members([
      [['GET'], 'List events'],
      [['POST'], 'Create an event'],
    ]);
    for (const namespace of ['wp/v2', '']) {
      const other = await request('GET', `${ROOT}?namespace=${namespace}`);
      expect(other.status, namespace).to.equal(404);
      expect(other.body.code).to.equal('rest_invalid_namespace');
    }
  });
});
