import { expect } from 'chai';
import Joi from 'joi';
import { ValidationError } from '../../../src/domain/errors';
import { inputOf, REMEMBERED_INPUT_CHARS } from '../../../src/http/validate';

type Input = Record<string, unknown>;

/** Validates a bare context's input, as the router does. */
async function run(
  input: ReturnType<typeof inputOf<Input>>,
  fields: { method?: string; querystring?: string; body?: unknown; params?: Record<string, string> },
): Promise<Input> {
  const ctx = {
    method: fields.method ?? 'GET',
    querystring: fields.querystring ?? '',
    request: { body: fields.body },
    params: fields.params ?? {},
  };
  return input(ctx as never);
}

describe('http/validate', () => {
  const schema = Joi.object({ page: Joi.number().integer().default(1), tags: Joi.array().items(Joi.string()) });

  it('validates a bodiless read once per query string and shares the result, frozen', async () => {
    const input = inputOf<Input>(schema);
    const first = await run(input, { querystring: 'page=2&tags[]=jazz' });
    expect(first).to.deep.equal({ page: 2, tags: ['jazz'] });
    expect(await run(input, { querystring: 'page=2&tags[]=jazz' })).to.equal(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.tags)).to.equal(true);
    expect(await run(input, { querystring: 'page=3' })).to.deep.equal({ page: 3 });
  });

  it('validates every time what a body can change, and a long read; a read once per path and query string', async () => {
    let validations = 0;
    const counted = schema.keys({ id: Joi.number() }).custom((value) => (validations++, value));
    const input = inputOf<Input>(counted);
    await run(input, { querystring: 'page=2' });
    await run(input, { querystring: 'page=2' });
    expect(validations, 'a repeated list query').to.equal(1);
    // A write with the same query string is validated with its body, not served the read's input.
    expect(await run(input, { method: 'POST', querystring: 'page=2', body: { page: 4 } })).to.deep.equal({
      page: 4,
    });
    const byId = await run(input, { querystring: 'page=2', params: { id: '5' } });
    expect(byId).to.deep.equal({ page: 2, id: 5 });
    expect(await run(input, { querystring: 'page=2', params: { id: '5' } }), 'the same read by ID').to.equal(byId);
    expect(await run(input, { querystring: 'page=2', params: { id: '6' } })).to.deep.equal({ page: 2, id: 6 });
    expect(await run(input, { querystring: 'page=2', params: { id: '05' } }), 'another path').not.to.equal(byId);
    const long = `page=3&${'x'.repeat(600)}=1`;
    expect(await run(input, { querystring: long })).not.to.equal(await run(input, { querystring: long }));
    const longId = { id: `${'0'.repeat(600)}5` };
    const longRead = () => run(input, { querystring: 'page=2', params: longId });
    expect(await longRead()).not.to.equal(await longRead());
    expect(validations).to.equal(9);
    const refused = await run(input, { querystring: 'page=x' }).catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(ValidationError);
  });

  it('keeps the reads asked for again while others pass by, and forgets the least recently used', async () => {
    const validated: string[] = [];
    const counted = schema.keys({ q: Joi.string() }).custom((value: { q?: string }) => {
      validated.push(value.q ?? '');
      return value;
    });
    const input = inputOf<Input>(counted);
    const read = (q: string) => run(input, { querystring: `q=${q}` });
    // Enough distinct reads of about 400 characters each to pass the budget twice.
    const passing = Math.ceil((2 * REMEMBERED_INPUT_CHARS) / 400);
    await read('hot');
    await read('cold');
    for (let i = 0; i < passing; i++) {
      await read(`${i}-${'x'.repeat(190)}`);
      if (i % 100 === 0) await read('hot');
    }
    await read('hot');
    await read('cold');
    expect(
      validated.filter((q) => q === 'hot'),
      'asked for every 100 reads',
    ).to.have.length(1);
    expect(
      validated.filter((q) => q === 'cold'),
      'asked for at the start and the end',
    ).to.have.length(2);
  });
});
