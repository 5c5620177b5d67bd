import { expect } from 'chai';
import { Joi } from '../../../src/http/params';
import { inputSchema, route, withKeys } from '../../../src/http/route';

interface Input {
  page: number;
  search?: string;
  order?: 'asc' | 'desc';
  featured?: boolean | '' | null;
  ids?: number[];
  cost?: string | number | null;
}

const keys = {
  page: Joi.number().integer().default(1),
  search: Joi.string(),
  order: Joi.string().valid('asc', 'desc'),
  featured: Joi.flag().allow('', null),
  ids: Joi.list().items(Joi.number()),
  cost: Joi.alternatives().try(Joi.string(), Joi.number()),
};

// The checks are the compiler's: `npx tsc --noEmit -p .` fails if any of these compiles.
export const typeChecks = () => [
  // @ts-expect-error a property of the input type without a schema
  inputSchema<Input>()({
    page: keys.page,
    search: keys.search,
    order: keys.order,
    featured: keys.featured,
    ids: keys.ids,
  }),
  // @ts-expect-error a key the input type lacks, even spread
  inputSchema<Input>()({ ...keys, ...{ extra: Joi.string() } }),
  // @ts-expect-error a schema of another kind than its property (a string for a number)
  inputSchema<Input>()({ ...keys, page: Joi.string() }),
  // @ts-expect-error a flag for a list
  inputSchema<Input>()({ ...keys, ids: Joi.flag() }),
  route({
    methods: ['GET'],
    path: '/things',
    resource: 'things',
    summary: 'Things',
    access: 'read',
    // @ts-expect-error a schema not checked against an input type
    input: Joi.object(keys),
    handler: async () => undefined,
  }),
  route({
    methods: ['GET'],
    path: '/things',
    resource: 'things',
    summary: 'Things',
    access: 'read',
    input: inputSchema<Input>()(keys),
    handler: async (ctx) => {
      // @ts-expect-error the handler's input is the schema's type
      ctx.body = ctx.input.missing;
    },
  }),
];

describe('http/route', () => {
  it('builds the joi schema of the keys given, typed as the input', () => {
    const schema = inputSchema<Input>()(keys);
    const { value, error } = schema.validate({ search: 'jazz', ids: '1,2', order: 'asc' });
    expect(error).to.equal(undefined);
    const input: Input = value;
    expect(input).to.deep.equal({ page: 1, search: 'jazz', ids: [1, 2], order: 'asc' });
  });

  it('adds keys with withKeys, after the base ones', () => {
    const schema = withKeys<Input, { id: number }>(inputSchema<Input>()(keys), { id: Joi.number().required() });
    expect(Object.keys(schema.describe().keys as object)).to.deep.equal([...Object.keys(keys), 'id']);
    expect(schema.validate({}).error?.message).to.equal('"id" is required');
  });
});
