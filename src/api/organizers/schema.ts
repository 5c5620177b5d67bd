import { Joi } from '../../http/params';
import { nameText, optionalEmail, optionalText, optionalUrl, postWriteKeys } from '../posts/postContent';

/** Organizer write fields (interface.md 2.3, all optional here; `organizer` is required on create). */
export const organizerWriteSchema = Joi.object({
  organizer: nameText(200, 'Organizer name (required on create; cannot be cleared)'),
  ...postWriteKeys('organizer'),
  phone: optionalText(60, 'Phone number'),
  website: optionalUrl('Organizer website'),
  email: optionalEmail('Contact e-mail address'),
});

export const ORGANIZER_REQUIRED_ON_CREATE = ['organizer'];

/** Shared organizer fields copied as sent ("" clears, like null). */
export const ORGANIZER_PLAIN_FIELDS = ['organizer', 'phone', 'website', 'email'] as const;
