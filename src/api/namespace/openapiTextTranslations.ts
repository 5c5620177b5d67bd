import type { DocTexts } from './openapiText';

/** The OpenAPI document's fixed texts in French and German (English in ./openapiText.ts). */
export const fr: DocTexts = {
  title: 'API REST du calendrier d’événements (calendar/events/v1)',
  labels: {
    event: { a: 'un événement', plural: 'événements' },
    venue: { a: 'un lieu', plural: 'lieux' },
    organizer: { a: 'un organisateur', plural: 'organisateurs' },
    category: { a: 'une catégorie', plural: 'catégories' },
    tag: { a: 'une étiquette', plural: 'étiquettes' },
  },
  summaries: {
    list: 'Lister les {plural}',
    create: 'Créer {a}',
    readById: 'Lire {a} par ID',
    readBySlug: 'Lire {a} par slug',
    updateById: 'Modifier {a} par ID (POST, PUT et PATCH fusionnent tous)',
    updateBySlug: 'Modifier {a} par slug (POST, PUT et PATCH fusionnent tous)',
    trashById: 'Mettre {a} à la corbeille par ID (force=true supprime définitivement)',
    trashBySlug: 'Mettre {a} à la corbeille par slug (force=true supprime définitivement)',
    deleteById: 'Supprimer définitivement {a} par ID',
    deleteBySlug: 'Supprimer définitivement {a} par slug',
    namespaceIndex: 'Index de l’espace de noms : chaque route avec ses méthodes et ses paramètres',
    document: 'Ce document OpenAPI (format=html : la page de référence navigable)',
    documentAsset: 'Un fichier statique de la page de référence',
  },
  tags: {
    namespace: 'L’index de l’espace de noms',
    documentation: 'Cette documentation',
    events: 'Événements',
    venues: 'Lieux où se déroulent les événements',
    organizers: 'Organisateurs des événements',
    categories: 'Catégories d’événements (hiérarchiques)',
    tags: 'Étiquettes d’événements (à plat)',
  },
  forms: {
    date: 'Formes acceptées : `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD`, ISO 8601 (avec `T`, décalage ou `Z` facultatif), un horodatage unix en secondes, `now`, `today`, `tomorrow`, `yesterday`, `+N day(s)|week(s)|month(s)|year(s)` et `-N ...`.',
    flag: 'Accepte true/false, 1/0, yes/no, on/off (casse indifférente).',
    list: 'Un tableau JSON, des valeurs `nom[]=` répétées ou une chaîne séparée par des virgules.',
  },
  access: {
    read: 'Public : aucune clé nécessaire. Avec une clé d’API, l’appelant voit aussi ce que son rôle lui permet de lire.',
    write:
      'Nécessite une clé d’API (`Authorization: Bearer <clé>`) ; le rôle décide de ce qui est permis (401 sans clé, 403 si le rôle est insuffisant).',
  },
  writeForms:
    'Les paramètres peuvent être envoyés en JSON, en formulaire (urlencoded ou multipart) ou dans la chaîne de requête ; le corps l’emporte en cas de conflit.',
  alsoInQuery: '(Chaîne de requête ou corps ; le corps l’emporte.)',
  bodyDescription:
    'Les champs à écrire. Seuls les champs envoyés changent ; `null` (ou `""` pour un texte) efface un champ.',
  statuses: {
    '200': 'Succès',
    '201': 'Créé ; `Location` donne le rest_url du nouvel enregistrement',
    '400': 'Requête invalide',
    '401': 'Clé d’API absente ou inconnue',
    '403': 'Non autorisé',
    '404': 'Introuvable',
    '405': 'Méthode non permise',
    '409': 'Modifié entre-temps par une autre écriture : le relire et renvoyer',
    '410': 'Déjà à la corbeille',
    '413': 'Corps trop volumineux',
    '415': 'Type de corps non pris en charge',
    '431': 'Ligne de requête ou en-têtes trop volumineux (réponse avant le routage, connexion fermée)',
    '503': 'MongoDB ou Elasticsearch est indisponible ; réessayez après `Retry-After` secondes',
    '429': 'Trop d’écritures ou d’authentifications échouées ; réessayer après `Retry-After` secondes',
    default:
      'Échec inattendu : 500 `rest_internal_error`, ou 503 `search-unavailable` / `storage-unavailable` avec `Retry-After`',
  },
  codes: 'Codes d’erreur',
  headers: {
    contentLanguage:
      'La langue de contenu de la requête (CONTRACT 1) ; un enregistrement montré dans sa langue d’origine l’indique dans `i18n_language`',
    prefer:
      '`wait-for-index` : répondre une fois le changement cherchable (5 s au plus ; `Preference-Applied` indique si c’est le cas)',
    preferenceApplied: '`wait-for-index` quand le changement était cherchable avant la réponse',
    location: 'rest_url de l’enregistrement créé',
    total: 'Nombre d’enregistrements correspondants',
    totalPages: 'Nombre de pages',
    link: 'Liens RFC 8288 vers les pages `next` et `prev`, quand elles existent',
    wwwAuthenticate: 'Le défi Bearer',
    retryAfter: 'Secondes à attendre avant de réessayer',
  },
  bearer: 'Une clé d’API créée par le script d’exploitation `apikey`, envoyée en `Authorization: Bearer <clé>`.',
  referencePage: 'Page de référence navigable',
};

export const de: DocTexts = {
  title: 'REST-API des Veranstaltungskalenders (calendar/events/v1)',
  labels: {
    event: { a: 'eine Veranstaltung', plural: 'Veranstaltungen' },
    venue: { a: 'einen Veranstaltungsort', plural: 'Veranstaltungsorte' },
    organizer: { a: 'einen Veranstalter', plural: 'Veranstalter' },
    category: { a: 'eine Kategorie', plural: 'Kategorien' },
    tag: { a: 'ein Schlagwort', plural: 'Schlagwörter' },
  },
  summaries: {
    list: '{plural} auflisten',
    create: '{A} anlegen',
    readById: '{A} per ID lesen',
    readBySlug: '{A} per Slug lesen',
    updateById: '{A} per ID ändern (POST, PUT und PATCH führen alle zusammen)',
    updateBySlug: '{A} per Slug ändern (POST, PUT und PATCH führen alle zusammen)',
    trashById: '{A} per ID in den Papierkorb legen (force=true löscht endgültig)',
    trashBySlug: '{A} per Slug in den Papierkorb legen (force=true löscht endgültig)',
    deleteById: '{A} per ID endgültig löschen',
    deleteBySlug: '{A} per Slug endgültig löschen',
    namespaceIndex: 'Namensraum-Index: jede Route mit ihren Methoden und Parametern',
    document: 'Dieses OpenAPI-Dokument (format=html: die durchsuchbare Referenzseite)',
    documentAsset: 'Eine statische Datei der Referenzseite',
  },
  tags: {
    namespace: 'Der Namensraum-Index',
    documentation: 'Diese Dokumentation',
    events: 'Veranstaltungen',
    venues: 'Veranstaltungsorte',
    organizers: 'Veranstalter',
    categories: 'Veranstaltungskategorien (hierarchisch)',
    tags: 'Schlagwörter (flach)',
  },
  forms: {
    date: 'Zulässige Formen: `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD`, ISO 8601 (mit `T`, optional Versatz oder `Z`), ein Unix-Zeitstempel in Sekunden, `now`, `today`, `tomorrow`, `yesterday`, `+N day(s)|week(s)|month(s)|year(s)` und `-N ...`.',
    flag: 'Akzeptiert true/false, 1/0, yes/no, on/off (Groß-/Kleinschreibung egal).',
    list: 'Ein JSON-Array, wiederholte `name[]=`-Werte oder eine kommagetrennte Zeichenkette.',
  },
  access: {
    read: 'Öffentlich: keine Zugangsdaten nötig. Mit einem API-Schlüssel sieht der Aufrufer zusätzlich, was seine Rolle lesen darf.',
    write:
      'Erfordert einen API-Schlüssel (`Authorization: Bearer <Schlüssel>`); die Rolle entscheidet, was erlaubt ist (401 ohne Schlüssel, 403 bei zu schwacher Rolle).',
  },
  writeForms:
    'Parameter können als JSON, als Formular (urlencoded oder multipart) oder in der Query gesendet werden; bei Konflikten gilt der Body.',
  alsoInQuery: '(Query oder Body; der Body hat Vorrang.)',
  bodyDescription:
    'Die zu schreibenden Felder. Nur gesendete Felder ändern sich; `null` (oder `""` bei Text) leert ein Feld.',
  statuses: {
    '200': 'Erfolg',
    '201': 'Angelegt; `Location` enthält die rest_url des neuen Datensatzes',
    '400': 'Ungültige Anfrage',
    '401': 'Kein oder unbekannter API-Schlüssel',
    '403': 'Nicht erlaubt',
    '404': 'Nicht gefunden',
    '405': 'Methode nicht erlaubt',
    '409': 'Inzwischen von einem anderen Schreibvorgang geändert: neu lesen und erneut senden',
    '410': 'Bereits im Papierkorb',
    '413': 'Body zu groß',
    '415': 'Nicht unterstützter Medientyp des Bodys',
    '431': 'Anfragezeile oder Header zu groß (vor dem Routing beantwortet, Verbindung geschlossen)',
    '503': 'MongoDB oder Elasticsearch ist nicht erreichbar; nach `Retry-After` Sekunden erneut versuchen',
    '429': 'Zu viele Schreibzugriffe oder fehlgeschlagene Anmeldungen; nach `Retry-After` Sekunden erneut versuchen',
    default:
      'Unerwarteter Fehler: 500 `rest_internal_error` oder 503 `search-unavailable` / `storage-unavailable` mit `Retry-After`',
  },
  codes: 'Fehlercodes',
  headers: {
    contentLanguage:
      'Die Inhaltssprache der Anfrage (CONTRACT 1); ein Datensatz in seiner Originalsprache nennt diese in `i18n_language`',
    prefer:
      '`wait-for-index`: erst antworten, wenn die Änderung durchsuchbar ist (höchstens 5 s; `Preference-Applied` zeigt, ob es so war)',
    preferenceApplied: '`wait-for-index`, wenn die Änderung vor der Antwort durchsuchbar war',
    location: 'rest_url des angelegten Datensatzes',
    total: 'Anzahl der Treffer',
    totalPages: 'Anzahl der Seiten',
    link: 'RFC-8288-Links auf die Seiten `next` und `prev`, sofern vorhanden',
    wwwAuthenticate: 'Die Bearer-Aufforderung',
    retryAfter: 'Sekunden bis zum nächsten Versuch',
  },
  bearer:
    'Ein mit dem Betriebsskript `apikey` erzeugter API-Schlüssel, gesendet als `Authorization: Bearer <Schlüssel>`.',
  referencePage: 'Durchsuchbare Referenzseite',
};
