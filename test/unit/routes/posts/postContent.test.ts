import { expect } from 'chai';
import { validationParams } from '../../../support/errors';
import { postContent, type PostContext } from '../../../../src/api/posts/postContent';
import { ANONYMOUS } from '../../../../src/http/authenticate';

describe('routes/posts/postContent: publication dates', () => {
  const context = (timezone: string): PostContext => ({
    principal: ANONYMOUS,
    lang: 'en',
    timezone,
    nameField: 'title',
  });

  it('reads `date` in the site zone and `date_utc` in UTC, `date_utc` winning', () => {
    const paris = context('Europe/Paris');
    expect(postContent({ date: '2024-07-01 12:00:00' }, null, paris).date).to.deep.equal(
      new Date('2024-07-01T10:00:00Z'),
    );
    expect(postContent({ date_utc: '2024-07-01 12:00:00', date: '2020-01-01' }, null, paris).date).to.deep.equal(
      new Date('2024-07-01T12:00:00Z'),
    );
  });

  it('refuses a date that the site zone would show outside the years 1 to 9999, naming the field', () => {
    const message = 'must be between the years 1 and 9999';
    expect(
      validationParams(() => postContent({ date_utc: '9999-12-31 23:00:00' }, null, context('Pacific/Kiritimati'))),
    ).to.deep.equal({ date_utc: `date_utc ${message}` });
    expect(
      validationParams(() => postContent({ date_utc: '0001-01-01 00:00:00' }, null, context('America/St_Johns'))),
    ).to.deep.equal({ date_utc: `date_utc ${message}` });
    expect(
      validationParams(() => postContent({ date: '0001-01-01 00:00:00' }, null, context('Asia/Tokyo'))),
    ).to.deep.equal({
      date: `date ${message}`,
    });
    expect(postContent({ date_utc: '9999-12-31 09:59:59' }, null, context('Pacific/Kiritimati')).date).to.deep.equal(
      new Date('9999-12-31T09:59:59Z'),
    );
  });
});
