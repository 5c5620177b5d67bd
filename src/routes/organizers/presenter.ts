import type { Language } from '../../../config';
import { commonFields, presentImage, withCommonFields, type PresentEnv } from '../../domain/present';
import type { StoredRecord } from '../../storage/recordStore';
import type { OrganizerDoc } from '../../storage/stores';

/** A stored organizer as the API organizer of CONTRACT part 3, in `lang` (else its original language). */
export function presentOrganizer(
  record: StoredRecord<OrganizerDoc>,
  lang: Language,
  env: PresentEnv,
): Record<string, unknown> {
  const { doc, fields } = commonFields('organizer', record, lang, env);
  return withCommonFields(fields, {
    organizer: doc.organizer,
    description: doc.description ?? null,
    excerpt: doc.excerpt ?? null,
    image: presentImage(doc.image),
    phone: doc.phone ?? null,
    website: doc.website ?? null,
    email: doc.email ?? null,
  });
}
