/** Demo data: real places (cities, countries) and how local names are made. */
import type { Language } from '../../../config';

/** Text in every language. */
export type Texts = Record<Language, string>;

export interface City {
  name: Texts;
  country: string;
  zone: string;
  lat: number;
  lng: number;
  /** The language local records are written in first. */
  lang: Language;
}

/** `t('Munich', 'Munich', 'München')`; one argument when the three are the same. */
export const t = (en: string, fr = en, de = en): Texts => ({ en, fr, de });

export const COUNTRIES: Record<string, { name: Texts; zip: string; phone: string; currency: string }> = {
  FR: { name: t('France', 'France', 'Frankreich'), zip: '#####', phone: '+33 1 ## ## ## ##', currency: '# €' },
  BE: { name: t('Belgium', 'Belgique', 'Belgien'), zip: '####', phone: '+32 2 ### ## ##', currency: '# €' },
  CH: { name: t('Switzerland', 'Suisse', 'Schweiz'), zip: '####', phone: '+41 44 ### ## ##', currency: 'CHF #' },
  CA: { name: t('Canada', 'Canada', 'Kanada'), zip: 'A#A #A#', phone: '+1 514 ###-####', currency: '$# CAD' },
  DE: { name: t('Germany', 'Allemagne', 'Deutschland'), zip: '#####', phone: '+49 30 #######', currency: '# €' },
  AT: { name: t('Austria', 'Autriche', 'Österreich'), zip: '####', phone: '+43 1 #######', currency: '# €' },
  GB: {
    name: t('United Kingdom', 'Royaume-Uni', 'Vereinigtes Königreich'),
    zip: 'A## #AA',
    phone: '+44 20 #### ####',
    currency: '£#',
  },
  IE: { name: t('Ireland', 'Irlande', 'Irland'), zip: 'D## A#A#', phone: '+353 1 ### ####', currency: '€#' },
  US: {
    name: t('United States', 'États-Unis', 'Vereinigte Staaten'),
    zip: '#####',
    phone: '+1 212 ###-####',
    currency: '$#',
  },
  AU: { name: t('Australia', 'Australie', 'Australien'), zip: '####', phone: '+61 2 #### ####', currency: 'A$#' },
  NL: { name: t('Netherlands', 'Pays-Bas', 'Niederlande'), zip: '#### AA', phone: '+31 20 ### ####', currency: '€#' },
};

const city = (name: Texts, country: string, zone: string, lat: number, lng: number, lang: Language): City => ({
  name,
  country,
  zone,
  lat,
  lng,
  lang,
});

/** Real cities with their coordinates and time zones. */
export const CITIES: City[] = [
  city(t('Paris'), 'FR', 'Europe/Paris', 48.8566, 2.3522, 'fr'),
  city(t('Lyon'), 'FR', 'Europe/Paris', 45.764, 4.8357, 'fr'),
  city(t('Marseille'), 'FR', 'Europe/Paris', 43.2965, 5.3698, 'fr'),
  city(t('Bordeaux'), 'FR', 'Europe/Paris', 44.8378, -0.5792, 'fr'),
  city(t('Toulouse'), 'FR', 'Europe/Paris', 43.6047, 1.4442, 'fr'),
  city(t('Lille'), 'FR', 'Europe/Paris', 50.6292, 3.0573, 'fr'),
  city(t('Nantes'), 'FR', 'Europe/Paris', 47.2184, -1.5536, 'fr'),
  city(t('Strasbourg', 'Strasbourg', 'Straßburg'), 'FR', 'Europe/Paris', 48.5734, 7.7521, 'fr'),
  city(t('Nice', 'Nice', 'Nizza'), 'FR', 'Europe/Paris', 43.7102, 7.262, 'fr'),
  city(t('Montpellier'), 'FR', 'Europe/Paris', 43.6108, 3.8767, 'fr'),
  city(t('Brussels', 'Bruxelles', 'Brüssel'), 'BE', 'Europe/Brussels', 50.8503, 4.3517, 'fr'),
  city(t('Geneva', 'Genève', 'Genf'), 'CH', 'Europe/Zurich', 46.2044, 6.1432, 'fr'),
  city(t('Montréal'), 'CA', 'America/Toronto', 45.5019, -73.5674, 'fr'),
  city(t('Québec City', 'Québec', 'Québec'), 'CA', 'America/Toronto', 46.8139, -71.208, 'fr'),
  city(t('Berlin'), 'DE', 'Europe/Berlin', 52.52, 13.405, 'de'),
  city(t('Munich', 'Munich', 'München'), 'DE', 'Europe/Berlin', 48.1351, 11.582, 'de'),
  city(t('Hamburg', 'Hambourg', 'Hamburg'), 'DE', 'Europe/Berlin', 53.5511, 9.9937, 'de'),
  city(t('Cologne', 'Cologne', 'Köln'), 'DE', 'Europe/Berlin', 50.9375, 6.9603, 'de'),
  city(t('Frankfurt', 'Francfort', 'Frankfurt am Main'), 'DE', 'Europe/Berlin', 50.1109, 8.6821, 'de'),
  city(t('Stuttgart'), 'DE', 'Europe/Berlin', 48.7758, 9.1829, 'de'),
  city(t('Leipzig'), 'DE', 'Europe/Berlin', 51.3397, 12.3731, 'de'),
  city(t('Dresden', 'Dresde', 'Dresden'), 'DE', 'Europe/Berlin', 51.0504, 13.7373, 'de'),
  city(t('Vienna', 'Vienne', 'Wien'), 'AT', 'Europe/Vienna', 48.2082, 16.3738, 'de'),
  city(t('Zurich', 'Zurich', 'Zürich'), 'CH', 'Europe/Zurich', 47.3769, 8.5417, 'de'),
  city(t('London', 'Londres', 'London'), 'GB', 'Europe/London', 51.5072, -0.1276, 'en'),
  city(t('Manchester'), 'GB', 'Europe/London', 53.4808, -2.2426, 'en'),
  city(t('Edinburgh', 'Édimbourg', 'Edinburgh'), 'GB', 'Europe/London', 55.9533, -3.1883, 'en'),
  city(t('Bristol'), 'GB', 'Europe/London', 51.4545, -2.5879, 'en'),
  city(t('Dublin'), 'IE', 'Europe/Dublin', 53.3498, -6.2603, 'en'),
  city(t('Amsterdam'), 'NL', 'Europe/Amsterdam', 52.3676, 4.9041, 'en'),
  city(t('New York', 'New York', 'New York'), 'US', 'America/New_York', 40.7128, -74.006, 'en'),
  city(t('Boston'), 'US', 'America/New_York', 42.3601, -71.0589, 'en'),
  city(t('Chicago'), 'US', 'America/Chicago', 41.8781, -87.6298, 'en'),
  city(t('Austin'), 'US', 'America/Chicago', 30.2672, -97.7431, 'en'),
  city(t('Denver'), 'US', 'America/Denver', 39.7392, -104.9903, 'en'),
  city(t('San Francisco'), 'US', 'America/Los_Angeles', 37.7749, -122.4194, 'en'),
  city(t('Seattle'), 'US', 'America/Los_Angeles', 47.6062, -122.3321, 'en'),
  city(t('Toronto'), 'CA', 'America/Toronto', 43.6532, -79.3832, 'en'),
  city(t('Vancouver'), 'CA', 'America/Vancouver', 49.2827, -123.1207, 'en'),
  city(t('Sydney'), 'AU', 'Australia/Sydney', -33.8688, 151.2093, 'en'),
  city(t('Melbourne'), 'AU', 'Australia/Melbourne', -37.8136, 144.9631, 'en'),
];

/** Venue names are composed in the city's language: `first` + `second`. */
export const VENUE_NAMES: Record<
  Language,
  { first: string[]; second: string[]; pattern: (a: string, b: string) => string }
> = {
  en: {
    first: [
      'Riverside',
      'Old Mill',
      'Corn Exchange',
      'Union',
      'Harbour',
      'Victoria',
      'Northern',
      'Grand',
      'Parkside',
      'Market',
    ],
    second: [
      'Hall',
      'Arts Centre',
      'Theatre',
      'Club',
      'Gallery',
      'Music Hall',
      'Playhouse',
      'Social',
      'Warehouse',
      'Library',
    ],
    pattern: (a, b) => `${a} ${b}`,
  },
  fr: {
    first: [
      'Théâtre',
      'Salle',
      'Espace',
      'Halle',
      'La Cave',
      'Café-concert',
      'Galerie',
      'Maison de la culture',
      'Auditorium',
      'Le Club',
    ],
    second: [
      'du Parc',
      'des Arts',
      'Saint-Michel',
      'de la Gare',
      'du Port',
      'Lumière',
      'des Halles',
      'Voltaire',
      'du Marché',
      'Bellevue',
    ],
    pattern: (a, b) => `${a} ${b}`,
  },
  de: {
    first: [
      'Theater',
      'Kulturzentrum',
      'Konzerthaus',
      'Halle',
      'Kino',
      'Galerie',
      'Kunsthaus',
      'Club',
      'Kellerbühne',
      'Markthalle',
    ],
    second: ['am Park', 'am Markt', 'Mitte', 'am Hafen', 'Nord', 'am See', 'Altstadt', 'am Ring', 'Süd', 'am Fluss'],
    pattern: (a, b) => `${a} ${b}`,
  },
};

export const STREETS: Record<Language, { names: string[]; pattern: (n: number, street: string) => string }> = {
  en: {
    names: ['High Street', 'Station Road', 'Main Street', 'Market Square', 'Church Lane', 'Park Avenue'],
    pattern: (n, s) => `${n} ${s}`,
  },
  fr: {
    names: [
      'rue de la République',
      'boulevard Voltaire',
      'avenue Jean Jaurès',
      'rue Victor Hugo',
      'quai des Arts',
      'place du Marché',
    ],
    pattern: (n, s) => `${n} ${s}`,
  },
  de: {
    names: ['Hauptstraße', 'Bahnhofstraße', 'Schillerstraße', 'Goethestraße', 'Marktplatz', 'Gartenweg'],
    pattern: (n, s) => `${s} ${n}`,
  },
};

export const VENUE_DESCRIPTIONS: Texts[] = [
  t(
    '<p>A much-loved stage in the heart of {city}, with a bar and a small garden.</p>',
    '<p>Une scène très appréciée au cœur de {city}, avec un bar et un petit jardin.</p>',
    '<p>Eine beliebte Bühne im Herzen von {city}, mit Bar und kleinem Garten.</p>',
  ),
  t(
    '<p>A former warehouse in {city} turned into a space for concerts, exhibitions and talks.</p>',
    '<p>Un ancien entrepôt de {city} devenu un lieu de concerts, d’expositions et de conférences.</p>',
    '<p>Ein ehemaliges Lagerhaus in {city}, heute ein Ort für Konzerte, Ausstellungen und Vorträge.</p>',
  ),
  t(
    '<p>Step-free access, hearing loop and seating for 300 people.</p>',
    '<p>Accès de plain-pied, boucle magnétique et 300 places assises.</p>',
    '<p>Barrierefreier Zugang, Induktionsschleife und 300 Sitzplätze.</p>',
  ),
];

export const ORGANIZER_NAMES: Record<Language, string[]> = {
  en: [
    '{city} Jazz Society',
    '{city} Film Club',
    'Friends of the {city} Museum',
    '{city} Makers Collective',
    'Northern Lights Promotions',
    '{city} Science Festival',
  ],
  fr: [
    'Association {city} Jazz',
    'Ciné-club de {city}',
    'Les Amis du musée de {city}',
    'Collectif Fabrique {city}',
    'Productions Lumière',
    'Fête de la science {city}',
  ],
  de: [
    'Jazzverein {city}',
    'Filmclub {city}',
    'Freundeskreis Museum {city}',
    'Kulturverein {city}',
    'Nordlicht Veranstaltungen',
    'Wissenschaftstage {city}',
  ],
};
