import { expect } from 'chai';
import Joi from 'joi';
import { ValidationError } from '../../../src/errors';
import { validate } from '../../../src/http/validate';

type Ctx = Record<string, unknown> & { input?: Record<string, unknown> };

/** Runs the middleware on a bare context, as the router would; returns the filled input. */
async function run(
  middleware: ReturnType<typeof validate>,
  fields: { method?: string; querystring?: string; body?: unknown; params?: Record<string, string> },
): Promise<Ctx['input']> {
  const ctx: Ctx = {
    method: fields.method ?? 'GET',
    querystring: fields.querystring ?? '',
    request: { body: fields.body },
    params: fields.params ?? {},
  };
  await middleware(ctx as never, async () => undefined);
  return ctx.input;
}

describe('http/validate', () => {
  const schema = Joi.object({ page: Joi.number().integer().default(1), tags: Joi.array().items(Joi.string()) });

  it('validates a bodiless read once per query string and shares the result, frozen', async () => {
    const middleware = validate(schema);
    const first = await run(middleware, { querystring: 'page=2&tags[]=jazz' });
    expect(first).to.deep.equal({ page: 2, tags: ['jazz'] });
    expect(await run(middleware, { querystring: 'page=2&tags[]=jazz' })).to.equal(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first!.tags)).to.equal(true);
    expect(await run(middleware, { querystring: 'page=3' })).to.deep.equal({ page: 3 });
  });

  it('validates every time what a body or path parameters can change, and never remembers a refusal', async () => {
    const middleware = validate(schema.keys({ id: Joi.number() }));
    const byId = await run(middleware, { querystring: 'page=2', params: { id: '5' } });
    expect(byId).to.deep.equal({ page: 2, id: 5 });
    expect(await run(middleware, { querystring: 'page=2', params: { id: '5' } })).not.to.equal(byId);
    const written = await run(middleware, { method: 'POST', querystring: 'page=2', body: { page: 4 } });
    expect(written).to.deep.equal({ page: 4 });
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await run(middleware, { querystring: 'page=x' }).catch((err: unknown) => err);
      expect(refused).to.be.instanceOf(ValidationError);
    }
  });
});
