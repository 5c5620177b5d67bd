import { LANGUAGES, type Language } from '../../../config';
import type { RecordKind } from '../../domain/kinds';
import { DependencyUnavailableError } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { giveUpAfter } from '../../search/client';
import {
  bucketCount,
  bucketsOf,
  FACET_SIZE,
  type Discovery,
  type FacetName,
  type FlagFacet,
  type LinkFacet,
} from '../../search/eventAggregations';
import { aliasName } from '../../search/indexNames';
import { ownershipOf, showsLink } from '../../storage/recordAccess';
import type { Services } from '../container';
import { listCacheOf } from './listCache';

export interface LinkFacetEntry {
  id: number;
  slug: string;
  name: string;
  count: number;
}

export interface FlagFacetEntry {
  value: boolean;
  count: number;
}

export interface DiscoveryResult {
  facets?: Partial<Record<FacetName, LinkFacetEntry[] | FlagFacetEntry[]>>;
  histogram?: { start: string; count: number }[];
  geo_grid?: { tile: string; lat: number; lng: number; count: number }[];
}

const FACET_KINDS: Record<LinkFacet, RecordKind> = {
  categories: 'category',
  tags: 'tag',
  venue: 'venue',
  organizer: 'organizer',
};

/** What a facet entry shows of a record, and who may see it (terms: everyone). */
interface Label {
  slug: string;
  name: string;
  status?: string;
  author?: number;
}

/** How long a facet waits for the names of its records (they are usually cached). */
const LABEL_WAIT_MS = 1_000;

/** Beyond the records a facet names, at most this many known ones are read again with them. */
const MAX_REFRESHED_LABELS = 500;

/** Names and slugs of records in `lang`, from their search index (the language each list shows). */
async function readLabels(services: Services, kind: RecordKind, ids: number[], lang: Language) {
  const response = await services.search
    .mget<Label>(
      {
        index: aliasName(services.config, kind, lang),
        ids: ids.map(String),
        _source_includes: ['slug', 'name', 'status', 'author'],
      },
      giveUpAfter(LABEL_WAIT_MS),
    )
    .catch((err: unknown) => {
      throw new DependencyUnavailableError('search', err);
    });
  const labels = new Map<number, Label>();
  for (const doc of response.docs)
    if ('found' in doc && doc.found && doc._source) labels.set(Number(doc._id), doc._source);
  return labels;
}

/**
 * The labels of `ids` (undefined for a record not, or not yet, indexed), from one table per kind
 * and language remembered like the list's other lookups.
 */
async function labelsOf(services: Services, kind: RecordKind, ids: number[], lang: Language) {
  const table = await listCacheOf(services).sharedTable(
    `facet-labels:${kind}:${lang}`,
    new Set(ids),
    (wanted: number[]) => readLabels(services, kind, wanted, lang),
    MAX_REFRESHED_LABELS,
  );
  return ids.map((id) => table.get(id));
}

/** Names compared as in each language (one collator each: `localeCompare` makes one per call). */
const NAME_ORDER = new Map(LANGUAGES.map((lang) => [lang, new Intl.Collator(lang).compare]));

const byCountThenName = (lang: Language) => {
  const compareNames = NAME_ORDER.get(lang)!;
  return (a: LinkFacetEntry, b: LinkFacetEntry) => b.count - a.count || compareNames(a.name, b.name) || a.id - b.id;
};

async function linkFacet(
  services: Services,
  response: { aggregations?: Record<string, unknown> },
  facet: LinkFacet,
  lang: Language,
  principal: Principal,
): Promise<LinkFacetEntry[]> {
  const buckets = bucketsOf(response, `facet_${facet}`);
  const kind = FACET_KINDS[facet];
  const ids = buckets.map((bucket) => Number(bucket.key));
  const labels = await labelsOf(services, kind, ids, lang);
  const entries: LinkFacetEntry[] = [];
  buckets.forEach((bucket, i) => {
    const label = labels[i];
    // A venue or organizer the caller may not read is never named, as events do not show it.
    if (!label || (label.status !== undefined && !showsLink(principal, ownershipOf(label)))) return;
    entries.push({ id: ids[i]!, slug: label.slug, name: label.name, count: bucketCount(bucket) });
  });
  return entries.sort(byCountThenName(lang)).slice(0, FACET_SIZE);
}

function flagFacet(response: { aggregations?: Record<string, unknown> }, facet: FlagFacet): FlagFacetEntry[] {
  return bucketsOf(response, `facet_${facet}`)
    .map((bucket) => ({ value: bucket.key === 1 || bucket.key === 'true', count: bucketCount(bucket) }))
    .sort((a, b) => b.count - a.count || Number(a.value) - Number(b.value));
}

/** The `facets`, `histogram` and `geo_grid` of a list answer, from its search response. */
export async function discoveryResult(
  services: Services,
  d: Discovery,
  response: { aggregations?: Record<string, unknown> },
  lang: Language,
  principal: Principal,
): Promise<DiscoveryResult> {
  const result: DiscoveryResult = {};
  if (d.facets.length > 0) {
    const entries = await Promise.all(
      d.facets.map((facet) =>
        facet === 'featured' || facet === 'ticketed'
          ? flagFacet(response, facet)
          : linkFacet(services, response, facet, lang, principal),
      ),
    );
    result.facets = Object.fromEntries(d.facets.map((facet, i) => [facet, entries[i]]));
  }
  if (d.histogram) {
    result.histogram = bucketsOf(response, 'histogram').map((bucket) => ({
      start: String(bucket.key_as_string),
      count: bucketCount(bucket),
    }));
  }
  if (d.geoGrid !== undefined) {
    result.geo_grid = bucketsOf(response, 'geo_grid').map((bucket) => {
      const centroid = (bucket.centroid as { location?: { lat: number; lon: number } }).location;
      return { tile: String(bucket.key), lat: centroid?.lat ?? 0, lng: centroid?.lon ?? 0, count: bucketCount(bucket) };
    });
  }
  return result;
}
