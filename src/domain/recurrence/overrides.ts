import { DateTime } from 'luxon';
import { expandSeries, type Occurrence, type SeriesDates } from './expand';
import { ValidationError } from '../errors';
import { MAX_LINE_DATES, parseRecurrenceLines, RecurrenceError } from './lines';

/**
 * One occurrence of a series changed on its own (EXTENSIONS part 11): what it has instead of the
 * series' dates, venues, organizers and cost. Its texts are per language (OccurrenceTexts).
 */
export interface OccurrenceOverride {
  recurrence_id: string;
  start?: Date;
  end?: Date;
  venues?: number[];
  organizers?: number[];
  cost?: string | number | null;
}

/** An occurrence's own title, description and excerpt in one language. */
export interface OccurrenceText {
  title?: string;
  description?: string;
  excerpt?: string;
}

/** The fields of a stored series the occurrences are made of. */
export interface SeriesFields extends SeriesDates {
  recurrence?: string[] | null;
  occurrence_overrides?: OccurrenceOverride[] | null;
  occurrence_texts?: Record<string, OccurrenceText> | null;
}

export const SHARED_OVERRIDE_FIELDS = ['venues', 'organizers', 'cost'] as const;
export const TEXT_OVERRIDE_FIELDS = ['title', 'description', 'excerpt'] as const;

export const isSeries = (doc: SeriesFields): boolean => Boolean(doc.recurrence?.length);

/** The override of occurrence `recurrenceId`, if it has one. */
export function overrideOf(doc: SeriesFields, recurrenceId: string): OccurrenceOverride | undefined {
  return doc.occurrence_overrides?.find((override) => override.recurrence_id === recurrenceId);
}

/**
 * A series' occurrences starting up to `to` (in the rule, before any move), each at its own dates
 * when moved. Overrides of occurrences the rule no longer has are ignored.
 */
export function seriesOccurrences(doc: SeriesFields, to: Date): Occurrence[] {
  if (!isSeries(doc)) return [];
  const occurrences = expandSeries(parseRecurrenceLines(doc.recurrence!), doc, to);
  if (!doc.occurrence_overrides?.length) return occurrences;
  const overrides = new Map(doc.occurrence_overrides.map((override) => [override.recurrence_id, override]));
  return occurrences.map((occurrence) => {
    const override = overrides.get(occurrence.recurrenceId);
    return override?.start && override.end ? { ...occurrence, start: override.start, end: override.end } : occurrence;
  });
}

/**
 * The overrides of occurrences the series' rule still has: a new rule may drop an occurrence,
 * whose changes are then kept unseen (and apply again if a later rule has it back).
 */
export function liveOverrides(doc: SeriesFields): OccurrenceOverride[] {
  const overrides = doc.occurrence_overrides ?? [];
  if (overrides.length === 0) return [];
  const last = Math.max(...overrides.map((override) => startOfRecurrenceId(override.recurrence_id).getTime()));
  const kept = new Set(seriesOccurrences(doc, new Date(last + 1000)).map((o) => o.recurrenceId));
  return overrides.filter((override) => kept.has(override.recurrence_id));
}

/** Whether occurrence `recurrenceId` shows anything but its dates differently from the series. */
export function changesContent(doc: SeriesFields, recurrenceId: string): boolean {
  const override = overrideOf(doc, recurrenceId);
  const text = doc.occurrence_texts?.[recurrenceId];
  return (
    SHARED_OVERRIDE_FIELDS.some((field) => override?.[field] !== undefined) ||
    TEXT_OVERRIDE_FIELDS.some((field) => text?.[field] !== undefined)
  );
}

/** A language document of the series as occurrence `recurrenceId` shows it (its dates aside). */
export function occurrenceVariant<D extends SeriesFields>(doc: D, recurrenceId: string): D {
  const override = overrideOf(doc, recurrenceId);
  const text = doc.occurrence_texts?.[recurrenceId];
  const variant = { ...doc } as Record<string, unknown>;
  for (const field of SHARED_OVERRIDE_FIELDS) if (override?.[field] !== undefined) variant[field] = override[field];
  for (const field of TEXT_OVERRIDE_FIELDS) if (text?.[field] !== undefined) variant[field] = text[field];
  return variant as D;
}

/** Occurrences whose content differs from the series' in any language document. */
export function occurrencesWithContent(docs: SeriesFields[]): Set<string> {
  const ids = new Set<string>();
  for (const doc of docs) {
    for (const override of doc.occurrence_overrides ?? [])
      if (changesContent(doc, override.recurrence_id)) ids.add(override.recurrence_id);
    for (const recurrenceId of Object.keys(doc.occurrence_texts ?? {}))
      if (changesContent(doc, recurrenceId)) ids.add(recurrenceId);
  }
  return ids;
}

/** The occurrence `recurrenceId` of a series among those starting up to `to`, if the series has it. */
export function findOccurrence(doc: SeriesFields, recurrenceId: string, to: Date): Occurrence | undefined {
  return seriesOccurrences(doc, to).find((occurrence) => occurrence.recurrenceId === recurrenceId);
}

/**
 * The recurrence lines with occurrence `recurrenceId` excluded (EXDATE): added to the series'
 * EXDATE line of the same form when it has one. An all-day series excludes the occurrence's day.
 */
export function withExcluded(doc: SeriesFields, recurrenceId: string): string[] {
  const [prefix, value] = doc.all_day
    ? [
        'EXDATE;VALUE=DATE:',
        DateTime.fromJSDate(startOfRecurrenceId(recurrenceId), { zone: doc.timezone }).toFormat('yyyyLLdd'),
      ]
    : ['EXDATE:', recurrenceId];
  const lines = [...(doc.recurrence ?? [])];
  const same = lines.findIndex(
    (line) => line.toUpperCase().startsWith(prefix) && line.split(',').length < MAX_LINE_DATES,
  );
  if (same >= 0) lines[same] = `${lines[same]},${value}`;
  else lines.push(`${prefix}${value}`);
  try {
    parseRecurrenceLines(lines);
  } catch (err) {
    // A series at the most dates its lines may hold: the caller rewrites them first.
    if (!(err instanceof RecurrenceError)) throw err;
    throw new ValidationError({
      recurrence: `recurrence: ${err.message}; cancelling occurrence ${recurrenceId} would add one: write the series' recurrence with fewer dates first`,
    });
  }
  return lines;
}

/** The original start a recurrence ID (`20270105T090000Z`) stands for. */
export function startOfRecurrenceId(recurrenceId: string): Date {
  const [, y, mo, d, h, mi, s] = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(recurrenceId)!;
  return new Date(Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!));
}

/** Stands for the end of a series that goes on past the horizon (it always has upcoming occurrences). */
export const ENDLESS = new Date('9999-12-31T23:59:59Z');
const YEAR_MS = 366 * 86_400_000;

/**
 * The end of a series' last occurrence (moves included), or ENDLESS when it goes on past
 * `horizon`: what venues and organizers count as an upcoming event (`only_with_upcoming`).
 */
export function seriesEnd(doc: SeriesFields, horizon: Date): Date {
  const occurrences = seriesOccurrences(doc, new Date(horizon.getTime() + YEAR_MS));
  if (occurrences.some((occurrence) => occurrence.start > horizon)) return ENDLESS;
  return occurrences.reduce((last, occurrence) => (occurrence.end > last ? occurrence.end : last), doc.end);
}
