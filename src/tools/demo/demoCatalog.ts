import type { Language } from '../../../config';
import { t, type Texts } from './demoPlaces';

/** Demo data: terms, kinds of event and the texts of events in three languages. */

export interface CategoryDef {
  key: string;
  name: Texts;
  children?: CategoryDef[];
}

const cat = (key: string, name: Texts, children?: CategoryDef[]): CategoryDef => ({
  key,
  name,
  ...(children ? { children } : {}),
});

/** A small hierarchy: root categories with leaves; events get a leaf and its root. */
export const CATEGORIES: CategoryDef[] = [
  cat('music', t('Music', 'Musique', 'Musik'), [
    cat('jazz', t('Jazz')),
    cat('classical', t('Classical', 'Classique', 'Klassik')),
    cat('rock-pop', t('Rock & Pop', 'Rock & pop', 'Rock & Pop')),
    cat('electronic', t('Electronic', 'Électro', 'Elektronik')),
  ]),
  cat('arts', t('Arts', 'Arts', 'Kunst'), [
    cat('theatre', t('Theatre', 'Théâtre', 'Theater')),
    cat('exhibitions', t('Exhibitions', 'Expositions', 'Ausstellungen')),
    cat('cinema', t('Cinema', 'Cinéma', 'Kino')),
    cat('dance', t('Dance', 'Danse', 'Tanz')),
  ]),
  cat('food-drink', t('Food & Drink', 'Gastronomie', 'Essen & Trinken'), [
    cat('markets', t('Markets', 'Marchés', 'Märkte')),
    cat('wine', t('Wine tasting', 'Dégustation de vin', 'Weinprobe')),
  ]),
  cat('talks', t('Talks', 'Conférences', 'Vorträge'), [
    cat('science', t('Science', 'Sciences', 'Wissenschaft')),
    cat('technology', t('Technology', 'Technologie', 'Technik')),
  ]),
  cat('family', t('Family', 'Famille', 'Familie')),
  cat('sports', t('Sports', 'Sport', 'Sport')),
];

export const TAGS: { key: string; name: Texts }[] = [
  { key: 'free', name: t('free', 'gratuit', 'kostenlos') },
  { key: 'outdoor', name: t('outdoor', 'plein air', 'draußen') },
  { key: 'family-friendly', name: t('family friendly', 'en famille', 'familienfreundlich') },
  { key: 'accessible', name: t('accessible', 'accessible', 'barrierefrei') },
  { key: 'kids', name: t('kids', 'enfants', 'Kinder') },
  { key: 'nightlife', name: t('nightlife', 'vie nocturne', 'Nachtleben') },
  { key: 'live-music', name: t('live music', 'musique live', 'Livemusik') },
  { key: 'workshop', name: t('workshop', 'atelier', 'Workshop') },
  { key: 'festival', name: t('festival', 'festival', 'Festival') },
  { key: 'vegan', name: t('vegan', 'végan', 'vegan') },
  { key: 'premiere', name: t('premiere', 'première', 'Premiere') },
  { key: 'students', name: t('students', 'étudiants', 'Studierende') },
  { key: 'online', name: t('online', 'en ligne', 'online') },
];

/** Kinds of event per leaf category (or root without leaves), with their names. */
export const EVENT_TYPES: Record<string, Texts[]> = {
  jazz: [
    t('Jazz night', 'Soirée jazz', 'Jazzabend'),
    t('Late-night jam session', 'Jam session de minuit', 'Jamsession zu später Stunde'),
    t('Swing dance night', 'Soirée swing', 'Swing-Tanzabend'),
  ],
  classical: [
    t('Chamber music recital', 'Récital de musique de chambre', 'Kammermusikabend'),
    t('Symphony concert', 'Concert symphonique', 'Sinfoniekonzert'),
    t('Organ recital', 'Récital d’orgue', 'Orgelkonzert'),
  ],
  'rock-pop': [
    t('Indie rock showcase', 'Plateau rock indé', 'Indie-Rock-Abend'),
    t('Singer-songwriter evening', 'Soirée auteurs-compositeurs', 'Liedermacherabend'),
  ],
  electronic: [
    t('Techno night', 'Nuit techno', 'Techno-Nacht'),
    t('Ambient listening session', 'Séance d’écoute ambient', 'Ambient-Hörsession'),
  ],
  theatre: [
    t('Improv comedy show', 'Spectacle d’improvisation', 'Improtheater'),
    t('Premiere of a new play', 'Première d’une nouvelle pièce', 'Premiere eines neuen Stücks'),
  ],
  exhibitions: [
    t('Exhibition opening', 'Vernissage', 'Ausstellungseröffnung'),
    t('Guided tour of the collection', 'Visite guidée de la collection', 'Führung durch die Sammlung'),
  ],
  cinema: [
    t('Open-air cinema', 'Cinéma en plein air', 'Open-Air-Kino'),
    t('Silent film with live piano', 'Film muet avec piano live', 'Stummfilm mit Live-Klavier'),
  ],
  dance: [
    t('Contemporary dance', 'Danse contemporaine', 'Zeitgenössischer Tanz'),
    t('Tango evening', 'Soirée tango', 'Tangoabend'),
  ],
  markets: [
    t('Farmers market', 'Marché de producteurs', 'Bauernmarkt'),
    t('Flea market', 'Marché aux puces', 'Flohmarkt'),
    t('Christmas market', 'Marché de Noël', 'Weihnachtsmarkt'),
  ],
  wine: [
    t('Natural wine tasting', 'Dégustation de vins nature', 'Naturweinprobe'),
    t('Cheese and wine evening', 'Soirée vins et fromages', 'Wein- und Käseabend'),
  ],
  science: [
    t('Science café', 'Café des sciences', 'Wissenschaftscafé'),
    t('Astronomy night', 'Nuit d’astronomie', 'Astronomienacht'),
  ],
  technology: [
    t('Open-source meetup', 'Rencontre open source', 'Open-Source-Treffen'),
    t('Introduction to robotics', 'Initiation à la robotique', 'Einführung in die Robotik'),
  ],
  family: [
    t('Storytelling for kids', 'Contes pour enfants', 'Märchenstunde für Kinder'),
    t('Family science workshop', 'Atelier scientifique en famille', 'Familien-Forscherwerkstatt'),
  ],
  sports: [t('City fun run', 'Course populaire', 'Stadtlauf'), t('Yoga in the park', 'Yoga au parc', 'Yoga im Park')],
};

export const EVENT_TITLE: Record<Language, (type: string, venue: string) => string> = {
  en: (type, venue) => `${type} at ${venue}`,
  fr: (type, venue) => `${type} – ${venue}`,
  de: (type, venue) => `${type} – ${venue}`,
};

export const EVENT_DESCRIPTIONS: Texts[] = [
  t(
    '<p>Join us for a {type} at {venue} in {city}. Doors open 30 minutes before the start.</p><p>Presented by {organizer}.</p>',
    '<p>Rejoignez-nous pour : {type}, à {venue} ({city}). Ouverture des portes 30 minutes avant le début.</p><p>Proposé par {organizer}.</p>',
    '<p>Seien Sie dabei: {type} in {venue}, {city}. Einlass 30 Minuten vor Beginn.</p><p>Präsentiert von {organizer}.</p>',
  ),
  t(
    '<p>An evening for curious minds in {city}: <strong>{type}</strong>, followed by drinks.</p><ul><li>Bring a friend</li><li>Seats are limited</li></ul>',
    '<p>Une soirée pour les curieux à {city} : <strong>{type}</strong>, suivie d’un verre.</p><ul><li>Venez accompagné</li><li>Places limitées</li></ul>',
    '<p>Ein Abend für Neugierige in {city}: <strong>{type}</strong>, danach Getränke.</p><ul><li>Bringen Sie Freunde mit</li><li>Begrenzte Plätze</li></ul>',
  ),
  t(
    '<p>{organizer} invites you to {venue}. Everyone is welcome, whatever your experience.</p>',
    '<p>{organizer} vous invite à {venue}. Tout le monde est le bienvenu, débutants compris.</p>',
    '<p>{organizer} lädt ein in {venue}. Alle sind willkommen, ob Anfänger oder Profi.</p>',
  ),
];

export const EVENT_EXCERPTS: Texts = t('{type} in {city}.', '{type} à {city}.', '{type} in {city}.');

/** Where an online event "takes place", in its descriptions. */
export const ONLINE_VENUE: Texts = t('a live stream', 'une diffusion en direct', 'einem Livestream');

export const FREE_COST: Texts = t('Free', 'Gratuit', 'Kostenlos');
