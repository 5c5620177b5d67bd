import type { Language } from '../../config';
import { presentImage, presentRecord, type PresentEnv } from './environment';
import type { StoredRecord } from '../storage/storedRecord';
import type { OrganizerDoc } from '../storage/stores';

/** A stored organizer as the API organizer of CONTRACT part 3, in `lang` (else its original language). */
export function presentOrganizer(
  record: StoredRecord<OrganizerDoc>,
  lang: Language,
  env: PresentEnv,
): Record<string, unknown> {
  return presentRecord('organizer', record, lang, env, (doc) => ({
    organizer: doc.organizer,
    description: doc.description ?? null,
    excerpt: doc.excerpt ?? null,
    image: presentImage(doc.image),
    phone: doc.phone ?? null,
    website: doc.website ?? null,
    email: doc.email ?? null,
  }));
}
