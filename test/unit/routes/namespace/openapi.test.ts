import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'chai';
import { Joi, idList, language, MAX_INDEXED_ID, text } from '../../../../src/http/params';
import type { RouteSpec } from '../../../../src/http/types';
import { openApiDocument } from '../../../../src/api/namespace/openapi';
import { openApiPath, operationIdOf, summaryOf } from '../../../../src/api/namespace/openapiOperations';
import { joiToSchema } from '../../../../src/api/namespace/openapiParams';
import { resolveResponse } from '../../../../src/api/namespace/openapiResponses';
import { DOC_TEXTS } from '../../../../src/api/namespace/openapiText';

const en = DOC_TEXTS.en;
const schemaOf = (schema: ReturnType<typeof Joi.string>) => joiToSchema(schema.describe() as never, en);
const handler = async () => undefined;

function route(partial: Partial<RouteSpec>): RouteSpec {
  return {
    methods: ['GET'],
    path: '/things',
    resource: 'things',
    summary: 'Things',
    access: 'read',
    input: Joi.object({ i18n_language: language() }),
    handler,
    ...partial,
  };
}

const TABLE: RouteSpec[] = [
  route({ path: '', resource: 'namespace', response: 'namespace' }),
  route({
    path: '/venues',
    resource: 'venues',
    response: 'venues',
    errors: [404],
    input: Joi.object({ page: Joi.number().integer().min(1).default(1), ids: idList(), i18n_language: language() }),
  }),
  route({
    methods: ['POST'],
    path: '/venues',
    resource: 'venues',
    response: 'venue',
    access: 'write',
    input: Joi.object({ venue: text(200).required(), i18n_language: language() }),
  }),
  route({
    methods: ['POST', 'PUT', 'PATCH'],
    path: '/venues/by-slug/:slug',
    pathKeys: { slug: 'lookup_slug' },
    resource: 'venues',
    response: 'venue',
    access: 'write',
    input: Joi.object({ lookup_slug: Joi.string().required(), slug: Joi.string(), i18n_language: language() }),
  }),
  route({
    methods: ['DELETE'],
    path: '/venues/:id',
    resource: 'venues',
    response: 'venue',
    access: 'write',
    errors: [404, 410],
    input: Joi.object({ id: Joi.number().integer().min(1).required(), force: Joi.flag() }),
  }),
];

describe('openapi: joi schemas → OpenAPI schemas', () => {
  it('maps types, bounds, enums, defaults and nullability', () => {
    expect(schemaOf(Joi.string().valid('asc', 'desc').default('asc').description('Order'))).to.deep.equal({
      type: 'string',
      enum: ['asc', 'desc'],
      default: 'asc',
      description: 'Order',
    });
    expect(joiToSchema(Joi.number().integer().min(1).max(50).default(6).describe() as never, en)).to.deep.equal({
      type: 'integer',
      minimum: 1,
      maximum: 50,
      default: 6,
    });
    expect(joiToSchema(Joi.number().min(-90).allow(null).describe() as never, en)).to.deep.equal({
      type: 'number',
      minimum: -90,
      nullable: true,
    });
    expect(joiToSchema(Joi.number().positive().describe() as never, en)).to.deep.equal({
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
    });
    expect(schemaOf(Joi.string().uri().max(2000))).to.deep.equal({
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      format: 'uri',
    });
    expect(schemaOf(text(10).invalid(''))).to.include({ type: 'string', maxLength: 10, minLength: 1 });
    // joi refuses "" unless allowed: the schema says so.
    expect(schemaOf(Joi.string().allow(''))).to.deep.equal({ type: 'string' });
  });

  it('documents Joi.list, Joi.flag and Joi.dateInput with their accepted forms', () => {
    const list = joiToSchema(idList().describe() as never, en);
    expect(list).to.deep.include({
      type: 'array',
      maxItems: 100,
      items: { type: 'integer', minimum: 1, maximum: MAX_INDEXED_ID },
    });
    expect(list.description).to.include('comma-separated');
    expect(joiToSchema(Joi.flag().default(false).describe() as never, en)).to.deep.equal({
      type: 'boolean',
      default: false,
      description: en.forms.flag,
    });
    const date = joiToSchema(Joi.dateInput().description('Start').describe() as never, DOC_TEXTS.fr);
    expect(date).to.include({ type: 'string', maxLength: 100 });
    expect(date.description).to.equal(`Start. ${DOC_TEXTS.fr.forms.date}`);
    const explained = joiToSchema(
      Joi.dateInput().description('Start (ISO 8601, unix seconds)').describe() as never,
      en,
    );
    expect(explained.description).to.equal('Start (ISO 8601, unix seconds)');
  });

  it('turns alternatives into anyOf and objects into properties with required', () => {
    const venue = Joi.alternatives().try(
      Joi.number().integer(),
      Joi.object({ venue: Joi.string().required(), city: Joi.string() }),
    );
    expect(joiToSchema(venue.describe() as never, en)).to.deep.equal({
      anyOf: [
        { type: 'integer' },
        {
          type: 'object',
          properties: { venue: { type: 'string', minLength: 1 }, city: { type: 'string', minLength: 1 } },
          required: ['venue'],
        },
      ],
    });
  });
});

describe('openapi: operations', () => {
  it('names paths, operation IDs and response shapes', () => {
    expect(openApiPath('/events/by-slug/:slug')).to.equal('/events/by-slug/{slug}');
    expect(openApiPath('')).to.equal('/');
    expect(operationIdOf(TABLE[3]!, 'PATCH')).to.equal('patchVenuesBySlug');
    expect(operationIdOf(TABLE[4]!, 'DELETE')).to.equal('deleteVenuesById');
    expect(resolveResponse('events')).to.deep.include({ shape: 'list' });
    expect(resolveResponse('event-list')).to.deep.include({ shape: 'list' });
    expect(resolveResponse('category')).to.deep.include({ shape: 'record' });
    expect(resolveResponse(undefined)).to.deep.equal({ shape: 'unknown' });
  });

  it('generates summaries from the route shape in each language', () => {
    expect(summaryOf(TABLE[2]!, 'POST', en)).to.equal('Create a venue');
    expect(summaryOf(TABLE[2]!, 'POST', DOC_TEXTS.fr)).to.equal('Créer un lieu');
    expect(summaryOf(TABLE[2]!, 'POST', DOC_TEXTS.de)).to.equal('Einen Veranstaltungsort anlegen');
    expect(summaryOf(TABLE[1]!, 'GET', DOC_TEXTS.de)).to.equal('Veranstaltungsorte auflisten');
    expect(summaryOf(TABLE[4]!, 'DELETE', DOC_TEXTS.fr)).to.match(/^Mettre un lieu à la corbeille par ID/);
    expect(
      summaryOf(route({ path: '/elsewhere', resource: 'misc', summary: 'Something else' }), 'GET', DOC_TEXTS.fr),
    ).to.equal('Something else');
  });
});

describe('openapi: the document of a table', () => {
  const doc = openApiDocument(TABLE, 'http://api.test/fr/calendar/events/v1', 'fr');

  it('is valid OpenAPI 3 with the given server root', async () => {
    await SwaggerParser.validate(structuredClone(doc) as never);
    expect(doc.servers).to.deep.equal([{ url: 'http://api.test/fr/calendar/events/v1' }]);
    expect(doc.info.description).to.include('http://api.test/fr/calendar/events/v1/doc?format=html');
  });

  it('documents path parameters by their real name, queries, bodies, statuses and security', () => {
    const update = doc.paths['/venues/by-slug/{slug}']!;
    expect(Object.keys(update)).to.deep.equal(['post', 'put', 'patch']);
    const params = update.patch!.parameters as Record<string, unknown>[];
    expect(params.map((p) => `${p.in}:${p.name}`)).to.deep.equal([
      'path:slug',
      'query:slug',
      'query:i18n_language',
      'header:Prefer',
    ]);
    expect((update.patch!.requestBody as any).content).to.have.keys(
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    );
    expect(update.patch!.security).to.deep.equal([{ bearerAuth: [] }]);
    const create = doc.paths['/venues']!.post! as any;
    expect(create.responses).to.have.keys('201', '400', '401', '403', '413', '415', '429', '431', '503', 'default');
    expect(create.responses['201'].headers).to.have.property('Preference-Applied');
    expect(create.responses['503'].description).to.include('`storage-unavailable`');
    expect(create.responses['503'].headers).to.have.property('Retry-After');
    // Any body may be refused (413, 415); a request line or headers too large never reach a route (431).
    expect((update.patch as any).responses).to.include.keys('413', '415', '431');
    expect((doc.paths['/venues']!.get as any).responses)
      .to.include.keys('431')
      .and.not.include.keys('413', '415');
    expect(create.responses['431'].description).to.include('`rest_headers_too_large`');
    expect(create.responses['429'].description).to.include('`rest_rate_limited`');
    expect(create.responses['429'].headers).to.have.property('Retry-After');
    expect(create.responses['201'].headers).to.have.property('Location');
    const list = doc.paths['/venues']!.get! as any;
    expect(list.security).to.deep.equal([{}, { bearerAuth: [] }]);
    expect(list.responses['200'].content['application/json'].schema).to.deep.equal({
      $ref: '#/components/schemas/VenueList',
    });
    expect(list.responses['404'].description).to.include('`venue-archive-page-not-found`');
    expect(list.responses['503'].description).to.include('`search-unavailable`, `storage-unavailable`');
    expect(list.parameters.map((p: any) => p.in)).not.to.include('header');
    expect(list.parameters.find((p: any) => p.name === 'ids')).to.include({ style: 'form', explode: false });
    const remove = doc.paths['/venues/{id}']!.delete! as any;
    expect(remove.responses['410'].description).to.include('`venue-is-in-trash`');
    expect(remove.responses['200'].content['application/json'].schema.oneOf).to.deep.equal([
      { $ref: '#/components/schemas/Venue' },
      { $ref: '#/components/schemas/Deleted' },
    ]);
  });
});
