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
    // Three digits after a whole part of 0 are decimals, not a thousands group.
    ['0,500 €', '0,500 €', '€', 'postfix', ['0.500']],
    ['0.999', '0.999', '', 'prefix', ['0.999']],
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

  it('reads a number as a decimal, whatever its digits', () => {
    const plain = (values: string[]) => ({ currency_symbol: '', currency_position: 'prefix', values });
    expect(parseCost(12.345)).to.deep.equal({ cost: '12.345', cost_details: plain(['12.345']) });
    expect(parseCost(1e-7)).to.deep.equal({ cost: '0.0000001', cost_details: plain(['0.0000001']) });
    expect(parseCost(1e12)).to.deep.equal({ cost: '1000000000000', cost_details: plain(['1000000000000']) });
    expect(parseCost(0)).to.deep.equal({ cost: 'Free', cost_details: plain(['0']) });
    // The same digits as text keep the text's reading: a German thousands group.
    expect(parseCost('2.500').cost_details.values).to.deep.equal(['2500']);
  });

  it('reads a missing cost as empty', () => {
    expect(parseCost(null)).to.deep.equal({
      cost: '',
      cost_details: { currency_symbol: '', currency_position: 'prefix', values: [] },
    });
  });

  it('normalizes what is stored: numbers as numbers, text trimmed, blanks as null', () => {
    expect(normalizeCost(12.5)).to.equal(12.5);
    expect(normalizeCost('  $5 ')).to.equal('$5');
    expect(normalizeCost('  ')).to.equal(null);
    expect(normalizeCost(null)).to.equal(null);
  });
});
