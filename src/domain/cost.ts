/** `cost_details` of an API event, as The Events Calendar returns it. */
export interface CostDetails {
  currency_symbol: string;
  currency_position: 'prefix' | 'postfix';
  /** Every amount in the cost, ascending, as plain decimal strings ("10", "5.50"). */
  values: string[];
}

export interface PresentedCost {
  cost: string;
  cost_details: CostDetails;
}

const FREE_WORDS = /\b(free|gratuit|gratuite|gratis|kostenlos|frei|umsonst)\b/i;
const AMOUNT = /\d+(?:[.,]\d+)*/g;
const SYMBOL = /\p{Sc}/u;
const CODE = /\b[A-Z]{3}\b/;

/** The cost as stored: the client's text trimmed (numbers as their decimal text), or null. */
export function normalizeCost(raw: string | number | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const text = String(raw).trim();
  return text === '' ? null : text;
}

/**
 * One amount as a plain decimal string. A separator appearing several times, or a single comma
 * followed by exactly three digits, groups thousands; otherwise the last separator is decimal.
 */
function normalizeAmount(text: string): string {
  const separators = text.replace(/\d/g, '');
  if (separators === '') return text;
  const last = separators[separators.length - 1]!;
  const lastCount = separators.split('').filter((c) => c === last).length;
  const afterLast = text.length - text.lastIndexOf(last) - 1;
  const lastIsDecimal = lastCount === 1 && !(last === ',' && afterLast === 3 && separators.length === 1);
  if (!lastIsDecimal) return text.replace(/[.,]/g, '');
  const position = text.lastIndexOf(last);
  return `${text.slice(0, position).replace(/[.,]/g, '')}.${text.slice(position + 1)}`;
}

/**
 * Reads an untyped cost ("$10", "10 €", "Free", "10 - 20 USD", "5,50 €", 25) into the display
 * string and `cost_details`. The display keeps the client's wording; a cost of zero shows "Free".
 */
export function parseCost(stored: string | null | undefined): PresentedCost {
  const text = (stored ?? '').trim();
  const amounts = [...text.matchAll(AMOUNT)].map((m) => ({ index: m.index ?? 0, value: normalizeAmount(m[0]) }));
  // A bare three-letter word ("TBA") is only a currency code next to an amount.
  const symbolMatch = SYMBOL.exec(text) ?? (amounts.length > 0 ? CODE.exec(text) : null);
  const symbol = symbolMatch?.[0] ?? '';
  const position = symbolMatch && amounts.length > 0 && symbolMatch.index > amounts[0]!.index ? 'postfix' : 'prefix';
  let values = [...new Map(amounts.map((a) => [Number(a.value), a.value])).entries()]
    .sort(([a], [b]) => a - b)
    .map(([, v]) => v);
  if (values.length === 0 && FREE_WORDS.test(text)) values = ['0'];
  const isZero = values.length === 1 && Number(values[0]) === 0 && /^[\s\d.,]*$/.test(text);
  return {
    cost: isZero ? 'Free' : text,
    cost_details: { currency_symbol: symbol, currency_position: position, values },
  };
}
