import { expect } from 'chai';
import { Joi, text } from '../../../src/http/params';
import { validateInput } from '../../../src/http/validate';
import { MissingParamsError, ValidationError } from '../../../src/domain/errors';

describe('http/params and validate', () => {
  it('counts text lengths in characters, not UTF-16 units', () => {
    const schema = Joi.object({ title: text(5) });
    expect(validateInput<{ title: string }>(schema, { title: '𝒜𝒜𝒜𝒜𝒜' }).title).to.equal('𝒜𝒜𝒜𝒜𝒜');
    for (const title of ['𝒜𝒜𝒜𝒜𝒜𝒜', 'abcdef', '😀'.repeat(11)]) {
      try {
        validateInput(schema, { title });
        expect.fail(`${title} passed`);
      } catch (err) {
        expect((err as ValidationError).params).to.deep.equal({
          title: 'title length must be less than or equal to 5 characters long',
        });
      }
    }
  });

  const schema = Joi.object({
    ids: Joi.list().items(Joi.number().integer()),
    on: Joi.flag(),
    when: Joi.dateInput(),
    name: Joi.string(),
  });

  it('reads lists from arrays and comma strings', () => {
    expect(validateInput(schema, { ids: '1,2, 3' })).to.deep.equal({ ids: [1, 2, 3] });
    expect(validateInput(schema, { ids: ['4', '5'] })).to.deep.equal({ ids: [4, 5] });
  });

  it('reads a JSON array written as text (a query string or a form), and tells what is wrong inside one', () => {
    const filters = Joi.object({ ids: Joi.list().items(Joi.number().integer()), names: Joi.list() });
    expect(validateInput(filters, { ids: '[2,3]' })).to.deep.equal({ ids: [2, 3] });
    expect(validateInput(filters, { ids: ' ["6", 7] ' })).to.deep.equal({ ids: [6, 7] });
    expect(validateInput(filters, { names: '["jazz, blues","rock"]' })).to.deep.equal({
      names: ['jazz, blues', 'rock'],
    });
    // Not JSON: the text is a comma-separated list as before.
    expect(validateInput(filters, { names: '[draft],rock' })).to.deep.equal({ names: ['[draft]', 'rock'] });
    for (const bad of ['[1,[2]]', '[{"$gt":1}]', '[1.5]'])
      expect(() => validateInput(filters, { ids: bad }), bad).to.throw(ValidationError);
    expect(validateInput(filters, { names: '[2024]' })).to.deep.equal({ names: [2024] });
  });

  it('reads booleans in every contract form, any case', () => {
    for (const [raw, value] of [
      ['true', true],
      ['FALSE', false],
      ['1', true],
      ['0', false],
      ['yes', true],
      ['No', false],
      ['on', true],
      ['OFF', false],
      [true, true],
    ] as const) {
      expect(validateInput<{ on: boolean }>(schema, { on: raw }).on, String(raw)).to.equal(value);
    }
  });

  it('names every bad parameter, and rejects operator objects where scalars belong', () => {
    try {
      validateInput(schema, { ids: 'a,b', on: 'maybe', when: 'someday', name: { $ne: '' } });
      expect.fail('should have thrown');
    } catch (err) {
      expect(err).to.be.instanceOf(ValidationError);
      expect(Object.keys((err as ValidationError).params).sort()).to.deep.equal(['ids', 'name', 'on', 'when']);
      expect((err as ValidationError).status).to.equal(400);
    }
  });

  it('reads integers sent as text only from digits; numbers with decimals stay numbers', () => {
    const numbers = Joi.object({ page: Joi.number().integer(), radius: Joi.number() });
    expect(validateInput(numbers, { page: ' 12 ', radius: '1e1' })).to.deep.equal({ page: 12, radius: 10 });
    expect(validateInput(numbers, { page: 3 })).to.deep.equal({ page: 3 });
    for (const page of ['1e1', '0x10', '2.0', '1_000', 'Infinity']) {
      expect(() => validateInput(numbers, { page }), page)
        .to.throw(ValidationError)
        .with.property('params')
        .that.deep.equals({ page: 'page must be an integer' });
    }
  });

  it('names a missing required parameter rest_missing_callback_param, with every bad one', () => {
    const create = Joi.object({ name: Joi.string().required(), on: Joi.flag() });
    expect(() => validateInput(create, { on: 'maybe' }))
      .to.throw(MissingParamsError, 'Missing parameter(s): name')
      .with.property('params')
      .that.has.keys('name', 'on');
    expect(() => validateInput(create, { name: 'x', on: 'maybe' }))
      .to.throw(ValidationError)
      .with.property('code', 'rest_invalid_param');
  });

  it('drops unknown parameters', () => {
    expect(
      validateInput(schema, JSON.parse('{"name": "x", "__proto__": {"polluted": true}, "other": 1}')),
    ).to.deep.equal({ name: 'x' });
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });
});
