import { expect } from 'chai';
import ICAL from 'ical.js';
import { fold } from '../../../src/presenters/icalendar';

const CRLF = '\r\n';

/** Summaries whose folds fall on every kind of character: 1, 2, 3 and 4 octets (a surrogate pair). */
const summaries = [
  'a'.repeat(300),
  'é'.repeat(120),
  '中'.repeat(90),
  '🎷'.repeat(70),
  ...Array.from({ length: 12 }, (_, shift) => `${'x'.repeat(shift)}${'aé中🎷'.repeat(30)}`),
];

describe('iCalendar folding (RFC 5545 3.1)', () => {
  for (const summary of summaries) {
    it(`folds ${summary.slice(0, 12)}… (${Buffer.byteLength(summary)} octets) within 75 octets, read back by ical.js`, () => {
      const vevent = fold(`BEGIN:VEVENT${CRLF}UID:u${CRLF}SUMMARY:${summary}${CRLF}END:VEVENT`);
      const lines = vevent.split(CRLF);
      for (const line of lines) {
        expect(Buffer.byteLength(line)).to.be.at.most(75);
        // No character cut in two: each line is whole UTF-8 on its own.
        expect(Buffer.from(line).toString('utf8')).to.equal(line);
      }
      // Full lines: a fold leaves no room for the next character.
      const folded = lines.slice(2, -2);
      for (const [i, line] of folded.entries()) {
        const next = [...(lines[i + 3] ?? '').slice(1)][0] ?? '';
        expect(Buffer.byteLength(line) + Buffer.byteLength(next), line).to.be.greaterThan(75);
      }
      expect(lines.slice(3, -1).every((line) => line.startsWith(' '))).to.equal(true);
      const parsed = new ICAL.Component(ICAL.parse(`BEGIN:VCALENDAR${CRLF}${vevent}${CRLF}END:VCALENDAR${CRLF}`));
      expect(parsed.getFirstSubcomponent('vevent')!.getFirstPropertyValue('summary')).to.equal(summary);
    });
  }

  it('leaves lines of 75 octets or fewer as they are', () => {
    const text = `SUMMARY:${'é'.repeat(33)}${CRLF}DESCRIPTION:${'a'.repeat(63)}`;
    expect(fold(text)).to.equal(text);
  });
});
