import type { Schema } from './openapiParams';

/** The fields recurring events add to an event (EXTENSIONS part 11), with examples. */
export const RECURRENCE_FIELDS: Record<string, Schema> = {
  recurrence: {
    type: 'array',
    items: { type: 'string' },
    description: 'A series: its RFC 5545 RRULE/RDATE/EXDATE lines as stored (single reads of series only)',
    example: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10', 'EXDATE;TZID=Europe/Paris:20270112T100000'],
  },
  next_occurrences: {
    type: 'array',
    description: 'A series: its next occurrences, up to 10 (single reads of series only)',
    items: {
      type: 'object',
      properties: {
        start_date: { type: 'string' },
        end_date: { type: 'string' },
        utc_start_date: { type: 'string' },
        utc_end_date: { type: 'string' },
        recurrence_id: { type: 'string', example: '20270105T090000Z' },
      },
    },
  },
  occurrence: {
    type: 'object',
    nullable: true,
    description:
      'Lists, exports and occurrence reads: the occurrence of a series this entry is, `{recurrence_id, series_id, index, rest_url}`; null for single events',
    example: {
      recurrence_id: '20270105T090000Z',
      series_id: 12,
      index: 3,
      rest_url: 'https://example.org/wp-json/tribe/events/v1/events/12/occurrences/20270105T090000Z',
    },
  },
};
