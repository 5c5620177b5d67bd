import { Joi } from '../../http/params';
import { inputSchema } from '../../http/route';
import {
  nameText,
  optionalFlag,
  optionalText,
  optionalUrl,
  postWriteKeys,
  type PostWriteInput,
} from '../posts/postContent';

/** A venue write, as validated: "" or null clears an optional field. */
export interface VenueWriteInput extends PostWriteInput {
  venue?: string;
  address?: string | null;
  city?: string | null;
  country?: string | null;
  province?: string | null;
  state?: string | null;
  zip?: string | null;
  phone?: string | null;
  stateprovince?: string | null;
  website?: string | null;
  show_map?: boolean | '' | null;
  show_map_link?: boolean | '' | null;
  geo_lat?: number | null;
  geo_lng?: number | null;
}

const coordinate = (limit: number, what: string) =>
  Joi.number()
    .clearable()
    .min(-limit)
    .max(limit)
    .description(`${what} in decimal degrees (-${limit}..${limit}); null or "" clears it`);

/** Venue write fields (interface.md 2.2, all optional here; `venue` is required on create). */
export const venueWriteSchema = inputSchema<VenueWriteInput>()({
  venue: nameText(200, 'Venue name (required on create; cannot be cleared)'),
  ...postWriteKeys('venue'),
  address: optionalText(400, 'Street address'),
  city: optionalText(200, 'City'),
  country: optionalText(200, 'Country'),
  province: optionalText(200, 'Province'),
  state: optionalText(200, 'State'),
  zip: optionalText(40, 'Postal code'),
  phone: optionalText(60, 'Phone number'),
  stateprovince: optionalText(200, 'State or province'),
  website: optionalUrl('Venue website'),
  show_map: optionalFlag('Show a map on events at this venue'),
  show_map_link: optionalFlag('Show a map link on events at this venue'),
  geo_lat: coordinate(90, 'Latitude (send together with geo_lng)'),
  geo_lng: coordinate(180, 'Longitude (send together with geo_lat)'),
});

export const VENUE_REQUIRED_ON_CREATE: (keyof VenueWriteInput & string)[] = ['venue'];

/** Shared venue fields copied as sent ("" clears, like null). */
export const VENUE_PLAIN_FIELDS = [
  'venue',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'stateprovince',
  'website',
  'show_map',
  'show_map_link',
  'geo_lat',
  'geo_lng',
] as const;
