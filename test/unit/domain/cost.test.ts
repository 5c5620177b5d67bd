import { expect } from 'chai';
import { normalizeCost, parseCost } from '../../../src/domain/cost';

describe('domain/cost', () => {
  const cases: [string, string, string, 'prefix' | 'postfix', string[]][] = [
    ['$10', '$10', '$', 'prefix', ['10']],
    ['10 €', '10 €', '€', 'postfix', ['10']],
    ['Free', 'Free', '', 'prefix', ['0']],
    ['gratuit', 'gratuit', '', 'prefix', ['0']],
    ['10 - 20 USD', '10 - 20 USD', 'USD', 'postfix', ['10', '20']],
    ['$20 – $10', '$20 – $10', '$', 'prefix', ['10', '20']],
    ['5,50 €', '5,50 €', '€', 'postfix', ['5.50']],
    ['£1,000.50', '£1,000.50', '£', 'prefix', ['1000.50']],
    ['1.234,5 €', '1.234,5 €', '€', 'postfix', ['1234.5']],
    ['1,000', '1,000', '', 'prefix', ['1000']],
    ['EUR 15', 'EUR 15', 'EUR', 'prefix', ['15']],
    ['25', '25', '', 'prefix', ['25']],
    ['0', 'Free', '', 'prefix', ['0']],
    ['$.50', '$.50', '$', 'prefix', ['0.50']],
    ['1 000 €', '1 000 €', '€', 'postfix', ['1000']],
    ['1\u202F000,50 €', '1\u202F000,50 €', '€', 'postfix', ['1000.50']],
    ['1.000 €', '1.000 €', '€', 'postfix', ['1000']],
    ['1.234.567,89 €', '1.234.567,89 €', '€', 'postfix', ['1234567.89']],
    ['R$ 50', 'R$ 50', 'R$', 'prefix', ['50']],
    ['US$ 20 - 30', 'US$ 20 - 30', 'US$', 'prefix', ['20', '30']],
    ['12.50', '12.50', '', 'prefix', ['12.50']],
    // A plain decimal alone is one (a JSON number stored as text), even with three decimals.
    ['12.345', '12.345', '', 'prefix', ['12.345']],
    ['1234.567', '1234.567', '', 'prefix', ['1234.567']],
    ['0.00', 'Free', '', 'prefix', ['0.00']],
    ['10.5.2', '10.5.2', '', 'prefix', []],
    ['TBA', 'TBA', '', 'prefix', []],
    ['Donation', 'Donation', '', 'prefix', []],
    ['', '', '', 'prefix', []],
  ];
  for (const [input, cost, symbol, position, values] of cases) {
    it(`parses ${JSON.stringify(input)}`, () => {
      expect(parseCost(input)).to.deep.equal({
        cost,
        cost_details: { currency_symbol: symbol, currency_position: position, values },
      });
    });
  }

  it('reads a missing cost as empty', () => {
    expect(parseCost(null)).to.deep.equal({
      cost: '',
      cost_details: { currency_symbol: '', currency_position: 'prefix', values: [] },
    });
  });

  it('normalizes what is stored: numbers as text, blanks as null', () => {
    expect(normalizeCost(12.5)).to.equal('12.5');
    expect(normalizeCost(12.345)).to.equal('12.345');
    expect(normalizeCost(1e-7)).to.equal('0.0000001');
    expect(normalizeCost(1e12)).to.equal('1000000000000');
    expect(normalizeCost('  $5 ')).to.equal('$5');
    expect(normalizeCost('  ')).to.equal(null);
    expect(normalizeCost(null)).to.equal(null);
  });
});
