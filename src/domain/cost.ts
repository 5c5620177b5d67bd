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
// Digits with `.`/`,` separators, or a leading separator (`$.50`).
const AMOUNT = /\d+(?:[.,]\d+)*|[.,]\d+/g;
// Spaces grouping thousands (`1 000 €`, also the no-break spaces French typography puts there).
const SPACE_GROUPED = /(\d)[ \u00A0\u202F](?=\d{3}(?!\d))/g;
// A currency symbol, with the letters some put before it (`R$`, `US$`, `HK$`, `C$`).
const SYMBOL = /(?:\b[A-Z]{1,2})?\p{Sc}/u;
const CODE = /\b[A-Z]{3}\b/;

/**
 * The cost as stored: a number as sent (a JSON number is a decimal, whatever its digits: `12.345`
 * is no thousands group), the client's text trimmed, or null.
 */
export function normalizeCost(raw: string | number | null | undefined): string | number | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'number') return raw;
  const text = raw.trim();
  return text === '' ? null : text;
}

/** A number as a plain decimal (`1e-7` as `0.0000001`). */
const decimalText = (value: number) => value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });

/**
 * One amount as a plain decimal string, or null when it is no number (`10.5.2`). A separator
 * that appears several times groups thousands, as does a single one followed by exactly three
 * digits after a whole part other than 0 (`1,000`, `1.000`: prices rarely have three decimals;
 * `0,500` is half); otherwise the last separator is the decimal one.
 */
function normalizeAmount(text: string): string | null {
  const separators = text.replace(/\d/g, '');
  if (separators === '') return text;
  const last = separators[separators.length - 1]!;
  const lastCount = separators.split('').filter((c) => c === last).length;
  const afterLast = text.length - text.lastIndexOf(last) - 1;
  const grouped = (part: string) => /^(\d+|\d{1,3}([.,]\d{3})+)$/.test(part);
  if (lastCount > 1 || (separators.length === 1 && afterLast === 3 && !/^0*[.,]/.test(text))) {
    return grouped(text) ? text.replace(/[.,]/g, '') : null;
  }
  const position = text.lastIndexOf(last);
  const whole = text.slice(0, position);
  if (whole !== '' && !grouped(whole)) return null;
  return `${whole.replace(/[.,]/g, '') || '0'}.${text.slice(position + 1)}`;
}

/**
 * Reads a cost ("$10", "10 €", "Free", "10 - 20 USD", "5,50 €", 25) into the display
 * string and `cost_details`. The display keeps the client's wording; a cost of zero shows "Free".
 */
export function parseCost(stored: string | number | null | undefined): PresentedCost {
  if (typeof stored === 'number') {
    const text = decimalText(stored);
    return {
      cost: stored === 0 ? 'Free' : text,
      cost_details: { currency_symbol: '', currency_position: 'prefix', values: [text] },
    };
  }
  const text = (stored ?? '').trim();
  // Amounts and the symbol are found in the same text, so their positions compare.
  const read = text.replace(SPACE_GROUPED, '$1');
  const amounts = [...read.matchAll(AMOUNT)].flatMap((m) => {
    const value = normalizeAmount(m[0]);
    return value === null ? [] : [{ index: m.index ?? 0, value }];
  });
  // A bare three-letter word ("TBA") is only a currency code next to an amount.
  const symbolMatch = SYMBOL.exec(read) ?? (amounts.length > 0 ? CODE.exec(read) : null);
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
