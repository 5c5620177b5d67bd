import type { Language } from '../../config';
import { presentImage, presentRecord, type PresentEnv } from './environment';
import type { StoredRecord } from '../storage/storedRecord';
import type { VenueDoc } from '../storage/stores';

/** A stored venue as the API venue of CONTRACT part 3, in `lang` (else its original language). */
export function presentVenue(record: StoredRecord<VenueDoc>, lang: Language, env: PresentEnv): Record<string, unknown> {
  return presentRecord('venue', record, lang, env, (doc) => ({
    venue: doc.venue,
    description: doc.description ?? null,
    excerpt: doc.excerpt ?? null,
    image: presentImage(doc.image),
    address: doc.address ?? null,
    city: doc.city ?? null,
    country: doc.country ?? null,
    province: doc.province ?? null,
    state: doc.state ?? null,
    zip: doc.zip ?? null,
    phone: doc.phone ?? null,
    website: doc.website ?? null,
    stateprovince: doc.stateprovince ?? null,
    show_map: doc.show_map ?? null,
    show_map_link: doc.show_map_link ?? null,
    geo_lat: doc.geo_lat ?? null,
    geo_lng: doc.geo_lng ?? null,
  }));
}
