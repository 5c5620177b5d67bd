import { inputSchema } from '../../http/route';
import {
  nameText,
  optionalEmail,
  optionalText,
  optionalUrl,
  postWriteKeys,
  type PostWriteInput,
} from '../posts/postContent';

/** An organizer write, as validated: "" or null clears an optional field. */
export interface OrganizerWriteInput extends PostWriteInput {
  organizer?: string;
  phone?: string | null;
  website?: string | null;
  email?: string | null;
}

/** Organizer write fields (interface.md 2.3, all optional here; `organizer` is required on create). */
export const organizerWriteSchema = inputSchema<OrganizerWriteInput>()({
  organizer: nameText(200, 'Organizer name (required on create; cannot be cleared)'),
  ...postWriteKeys('organizer'),
  phone: optionalText(60, 'Phone number'),
  website: optionalUrl('Organizer website'),
  email: optionalEmail('Contact e-mail address'),
});

export const ORGANIZER_REQUIRED_ON_CREATE: (keyof OrganizerWriteInput & string)[] = ['organizer'];

/** Shared organizer fields copied as sent ("" clears, like null). */
export const ORGANIZER_PLAIN_FIELDS = ['organizer', 'phone', 'website', 'email'] as const;
