import { expect } from 'chai';
import { neverMatching } from '../../../src/domain/recurrence/impossible';

const rule = (text: string) => new Map(text.split(';').map((part) => part.split('=') as [string, string]));

describe('domain/recurrence: rules that never match', () => {
  for (const text of [
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=MONTHLY;BYMONTH=4,6,9,11;BYMONTHDAY=31',
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-30',
    'FREQ=YEARLY;BYYEARDAY=366;BYMONTH=2',
    'FREQ=YEARLY;BYYEARDAY=1,-1;BYMONTH=6',
  ])
    it(`${text} never matches`, () => expect(neverMatching(rule(text))).to.be.a('string'));

  for (const text of [
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
    'FREQ=MONTHLY;BYMONTHDAY=31',
    'FREQ=MONTHLY;BYMONTH=4,5;BYMONTHDAY=31',
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-29',
    'FREQ=YEARLY;BYYEARDAY=366;BYMONTH=12',
    'FREQ=YEARLY;BYYEARDAY=60;BYMONTH=2',
    'FREQ=YEARLY;BYYEARDAY=-307;BYMONTH=2',
    'FREQ=WEEKLY;BYDAY=TU',
  ])
    it(`${text} may match`, () => expect(neverMatching(rule(text))).to.equal(null));
});
