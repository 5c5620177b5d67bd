import { expect } from 'chai';
import { validateInput } from '../../../../src/http/validate';
import { ValidationError } from '../../../../src/domain/errors';
import { termName, termWriteSchema } from '../../../../src/api/terms/schema';

function invalid(kind: 'category' | 'tag', input: Record<string, unknown>): Record<string, string> {
  try {
    validateInput(termWriteSchema(kind), input);
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationError);
    return (err as ValidationError).params;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be invalid`);
}

describe('routes/terms/schema', () => {
  it('accepts every category field and converts form strings', () => {
    const value = validateInput(termWriteSchema('category'), {
      name: '  Jazz ',
      description: '<p>x</p>',
      slug: 'jazz',
      parent: '4',
      extra: 1,
    });
    expect(value).to.deep.equal({ name: 'Jazz', description: '<p>x</p>', slug: 'jazz', parent: 4 });
    expect(validateInput(termWriteSchema('category'), { description: null, slug: null, parent: null })).to.deep.equal({
      description: null,
      slug: null,
      parent: null,
    });
    expect(validateInput(termWriteSchema('category'), { parent: 0, slug: '' })).to.deep.equal({ parent: 0, slug: '' });
  });

  it('gives tags no parent parameter', () => {
    expect(validateInput(termWriteSchema('tag'), { name: 'Free', parent: 3 })).to.deep.equal({ name: 'Free' });
    expect(Object.keys(termWriteSchema('tag').describe().keys)).to.deep.equal(['name', 'description', 'slug']);
  });

  it('names every bad field', () => {
    expect(invalid('category', { name: '', description: 5, slug: 'x'.repeat(201), parent: -1 })).to.have.all.keys(
      'name',
      'description',
      'slug',
      'parent',
    );
    expect(invalid('category', { name: null })).to.have.key('name');
    expect(invalid('category', { parent: 'root' })).to.have.key('parent');
    expect(invalid('tag', { name: 'x'.repeat(201) })).to.have.key('name');
    expect(invalid('tag', { description: { $gt: '' } })).to.have.key('description');
  });

  it('describes every field (for the namespace index and /doc)', () => {
    for (const kind of ['category', 'tag'] as const) {
      const keys = termWriteSchema(kind).describe().keys as Record<string, { flags?: { description?: string } }>;
      for (const [name, field] of Object.entries(keys))
        expect(field.flags?.description, `${kind}.${name}`).to.be.a('string').that.is.not.empty;
    }
  });

  it('termName trims, bounds and refuses empty names', () => {
    expect(termName().validate(' Rock ').value).to.equal('Rock');
    expect(termName().validate('   ').error?.message).to.equal('"value" cannot be empty');
    expect(termName().validate('a\u0000b').error).to.not.equal(undefined);
  });
});
