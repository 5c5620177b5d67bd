import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { neverMatching, unreachableSetPosition } from '../../../src/domain/recurrence/impossible';

const rule = (text: string) => new Map(text.split(';').map((part) => part.split('=') as [string, string]));

/** python-dateutil's starts of each rule to `until`, and the most of them in one period of its FREQ. */
function dateutilSets(texts: string[], until = '20271231T000000'): Map<string, { count: number; largest: number }> {
  const script = [
    'import json, sys',
    'from datetime import datetime',
    'from dateutil.rrule import rrulestr',
    'period = {"YEARLY": lambda d: d.year, "MONTHLY": lambda d: (d.year, d.month),',
    '  "WEEKLY": lambda d: d.isocalendar()[:2], "DAILY": lambda d: d.date(), "HOURLY": lambda d: (d.date(), d.hour)}',
    'out = []',
    'for rule in json.load(sys.stdin):',
    `  starts = list(rrulestr(rule + ";UNTIL=${until}", dtstart=datetime(2027, 1, 4, 9)))`,
    '  key = period[dict(p.split("=") for p in rule.split(";"))["FREQ"]]',
    '  sizes = {}',
    '  for start in starts: sizes[key(start)] = sizes.get(key(start), 0) + 1',
    '  out.append({"count": len(starts), "largest": max(sizes.values(), default=0)})',
    'print(json.dumps(out))',
  ].join('\n');
  const sets = JSON.parse(execFileSync('python3', ['-c', script], { input: JSON.stringify(texts), encoding: 'utf8' }));
  return new Map(texts.map((text, i) => [text, sets[i]]));
}

describe('domain/recurrence: rules that never match', function () {
  this.timeout(20_000);
  const never = [
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=MONTHLY;BYMONTH=4,6,9,11;BYMONTHDAY=31',
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-30',
    'FREQ=YEARLY;BYYEARDAY=366;BYMONTH=2',
    'FREQ=YEARLY;BYYEARDAY=1,-1;BYMONTH=6',
    'FREQ=YEARLY;BYWEEKNO=53;BYMONTH=6',
    'FREQ=YEARLY;BYWEEKNO=1;BYMONTH=7',
    'FREQ=YEARLY;BYWEEKNO=20;BYMONTHDAY=1;BYMONTH=1',
    'FREQ=YEARLY;BYYEARDAY=1;BYWEEKNO=30',
    'FREQ=YEARLY;BYWEEKNO=-1;BYMONTH=6,7',
  ];
  const may = [
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
    'FREQ=MONTHLY;BYMONTHDAY=31',
    'FREQ=MONTHLY;BYMONTH=4,5;BYMONTHDAY=31',
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-29',
    'FREQ=YEARLY;BYYEARDAY=366;BYMONTH=12',
    'FREQ=YEARLY;BYYEARDAY=60;BYMONTH=2',
    'FREQ=YEARLY;BYYEARDAY=-307;BYMONTH=2',
    'FREQ=WEEKLY;BYDAY=TU',
    'FREQ=YEARLY;BYWEEKNO=53;BYDAY=MO',
    'FREQ=YEARLY;BYWEEKNO=1;BYMONTH=12',
    'FREQ=YEARLY;BYWEEKNO=1;BYMONTHDAY=29,30,31,1,2,3,4',
    'FREQ=YEARLY;BYWEEKNO=52;BYMONTH=1',
    'FREQ=YEARLY;BYWEEKNO=-1;BYYEARDAY=-1',
    'FREQ=YEARLY;BYWEEKNO=1;BYYEARDAY=-1',
    'FREQ=YEARLY;BYWEEKNO=9;BYMONTHDAY=-1;BYMONTH=2',
  ];
  // dateutil stops at UNTIL even when nothing matches: four centuries tell the week rules apart.
  let sets: Map<string, { count: number; largest: number }>;
  before(() => {
    sets = dateutilSets([...never, ...may], '24000101T000000');
  });

  for (const text of never)
    it(`${text} never matches (nor does it in dateutil)`, () => {
      expect(neverMatching(rule(text))).to.be.a('string');
      expect(sets.get(text)!.count).to.equal(0);
    });

  for (const text of may)
    it(`${text} may match (and does in dateutil)`, () => {
      expect(neverMatching(rule(text))).to.equal(null);
      expect(sets.get(text)!.count).to.be.greaterThan(0);
    });
});

describe('domain/recurrence: BYSETPOS positions past the largest set', function () {
  this.timeout(20_000);
  const positions = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i).join(',');
  const refused = [
    [`FREQ=DAILY;BYSETPOS=${positions(1, 366)}`, 'BYSETPOS=2 never selects a start: a DAILY period holds at most 1'],
    ['FREQ=DAILY;BYHOUR=9,18;BYSETPOS=-3', 'BYSETPOS=-3 never selects a start: a DAILY period holds at most 2'],
    [
      'FREQ=HOURLY;BYYEARDAY=10,11,12;BYSETPOS=-1,-2',
      'BYSETPOS=-2 never selects a start: a HOURLY period holds at most 1',
    ],
    ['FREQ=WEEKLY;BYDAY=MO,TU;BYSETPOS=8', 'BYSETPOS=8 never selects a start: a WEEKLY period holds at most 7'],
    ['FREQ=MONTHLY;BYDAY=FR;BYSETPOS=32', 'BYSETPOS=32 never selects a start: a MONTHLY period holds at most 31'],
  ] as const;
  const selecting = [
    'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
    'FREQ=MONTHLY;BYMONTHDAY=15;BYSETPOS=1,-1',
    'FREQ=DAILY;BYHOUR=9,12,18;BYMINUTE=0,30;BYSETPOS=6,-6',
    'FREQ=HOURLY;BYMINUTE=0,15,30,45;BYSECOND=0,30;BYSETPOS=8',
    'FREQ=YEARLY;BYYEARDAY=1,100,200;BYSETPOS=3',
    'FREQ=WEEKLY;BYDAY=TU',
  ];
  const withoutPositions = (text: string) => text.replace(/;BYSETPOS=[^;]*/, '');
  let sets: Map<string, { count: number; largest: number }>;
  before(() => {
    sets = dateutilSets([...refused.map(([text]) => withoutPositions(text)), ...selecting]);
  });

  for (const [text, why] of refused)
    it(`${text} is refused: dateutil's largest set is smaller than that position`, () => {
      expect(unreachableSetPosition(rule(text))).to.equal(`${why} with these parts`);
      const position = Math.abs(Number(/BYSETPOS=(-?\d+)/.exec(why)![1]));
      expect(sets.get(withoutPositions(text))!.largest)
        .to.be.greaterThan(0)
        .and.below(position);
    });

  for (const text of selecting)
    it(`${text} may select: dateutil selects starts`, () => {
      expect(unreachableSetPosition(rule(text))).to.equal(null);
      expect(sets.get(text)!.count).to.be.greaterThan(0);
    });
});
