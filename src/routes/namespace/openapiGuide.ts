import type { Language } from '../../../config';

/**
 * `info.description`: the behaviours the published interface leaves open, as this service decided
 * them (CONTRACT.md), so that they are discoverable. `{root}` is replaced by the REST root the
 * document was requested through.
 */
const en = `JSON HTTP interface to an events calendar: events, venues, organizers, event categories and tags.

Browsable reference: [{root}/doc?format=html]({root}/doc?format=html) · this document: \`{root}/doc\` · namespace index: \`{root}\`.

## Addressing and languages
- Every route lives under \`/calendar/events/v1\` and equally under \`/en/…\`, \`/fr/…\`, \`/de/…\`.
- Content language, first match wins: the \`i18n_language\` parameter, the path prefix, the configured default (\`en\`). Every response carries \`Content-Language\`.
- Each record has an original language and may have a document per language. Translatable fields: \`title\`/\`venue\`/\`organizer\`/\`name\`, \`description\`, \`excerpt\`, \`slug\`; every other field is shared by all languages. A write in a language without a document creates that translation from the original. A read returns the requested language, else the original (\`i18n_language\` tells which); \`translations\` lists the languages that have their own content.

## Parameters
- Write parameters may come in the query string, a JSON body or a form body (urlencoded or multipart); the body wins on conflict. Unknown parameters are ignored.
- Arrays: a JSON array, repeated \`a[]=1&a[]=2\`, or \`a=1,2\`. Booleans: true/false, 1/0, yes/no, on/off.
- Dates: \`YYYY-MM-DD HH:MM:SS\`, \`YYYY-MM-DD\`, ISO 8601, a unix timestamp, \`now\`, \`today\`, \`tomorrow\`, \`yesterday\`, \`+N days|weeks|months|years\` (and \`-N …\`).
- JSON bodies up to 1 MiB (413 beyond). HTML in \`description\`/\`excerpt\` is sanitised to a safe allow-list.

## Access
- Anonymous callers may only read published records. Writes need an API key: \`Authorization: Bearer <key>\`.
- Roles: \`administrator\` (everything), \`editor\` (any record, any status, categories and tags), \`author\` (own events, venues, organizers, may publish), \`contributor\` (own records as draft/pending only).
- Statuses: \`publish\`, \`future\`, \`draft\`, \`pending\`, \`private\`, \`trash\`. A protected event needs its \`password\` to be read; in lists its protected fields are blanked.

## Writes
- Create answers 201 with the record and a \`Location\` header. POST, PUT and PATCH on an existing record all merge: only the fields sent change; \`null\` (or \`""\` for text) clears a field.
- Slugs are generated from the title or name when not sent, unique per kind and language (\`-2\`, \`-3\` … on collision).
- DELETE on events, venues and organizers moves the record to the trash (200 with the record; 410 when already trashed); \`force=true\` (editor and above) deletes permanently and answers \`{id, deleted: true}\`. Categories and tags are always deleted permanently.
- An ID of another kind is 400 \`rest-invalid-{kind}-id\`; an ID that does not exist is 404 \`rest-{kind}-not-found\`.

## Lists
- Envelope: the records, \`rest_url\`, \`next_rest_url\` / \`previous_rest_url\` (only when that page exists), \`total\`, \`total_pages\`; headers \`X-Total\`, \`X-Total-Pages\` and an RFC 8288 \`Link\`.
- \`per_page\` defaults to 6 and is capped at 50. A page past the last is 404 \`{kind}-archive-page-not-found\`; results past the 10,000th are 400 \`page-too-deep\`.
- Events: ordered by start date then ID (\`orderby\`, \`order\` to change); default window from now to now + 2 years; without \`strict_dates\`, \`start_date\` means the start of that day and the other date filters the end of that day; \`include\` drops every date filter. \`search\` is typo-tolerant full text in the request language. \`geoloc_lat\` + \`geoloc_lng\` find events within \`geoloc_radius\` (default 25) \`geoloc_unit\` (\`mi\` or \`km\`) and add \`distance\`.
- Venues and organizers are ordered by name; categories and tags hide terms without published events unless \`hide_empty=false\`.
- Reads by ID or slug reflect a write at once; lists within about a second. Send \`Prefer: wait-for-index\` on a write to be answered once the change is searchable (\`Preference-Applied\` tells).

## Errors
Every error is \`{"code", "message", "data": {"status", "params"?}}\`; validation errors name each bad parameter in \`data.params\`. 401 carries \`WWW-Authenticate: Bearer\`, 405 an \`Allow\` header, 503 a \`Retry-After\`.`;

const fr = `Interface HTTP JSON d’un calendrier d’événements : événements, lieux, organisateurs, catégories et étiquettes.

Référence navigable : [{root}/doc?format=html]({root}/doc?format=html) · ce document : \`{root}/doc\` · index de l’espace de noms : \`{root}\`.

## Adresses et langues
- Chaque route existe sous \`/calendar/events/v1\` et de même sous \`/en/…\`, \`/fr/…\`, \`/de/…\`.
- Langue du contenu, la première qui s’applique : le paramètre \`i18n_language\`, le préfixe du chemin, la langue par défaut configurée (\`en\`). Chaque réponse porte \`Content-Language\`.
- Chaque enregistrement a une langue d’origine et peut avoir un document par langue. Champs traduisibles : \`title\`/\`venue\`/\`organizer\`/\`name\`, \`description\`, \`excerpt\`, \`slug\` ; tous les autres champs sont communs aux langues. Une écriture dans une langue sans document crée cette traduction à partir de l’original. Une lecture renvoie la langue demandée, sinon l’originale (\`i18n_language\` l’indique) ; \`translations\` liste les langues ayant leur propre contenu.

## Paramètres
- Les paramètres d’écriture peuvent venir de la chaîne de requête, d’un corps JSON ou d’un formulaire (urlencoded ou multipart) ; le corps l’emporte en cas de conflit. Les paramètres inconnus sont ignorés.
- Tableaux : un tableau JSON, \`a[]=1&a[]=2\` répété ou \`a=1,2\`. Booléens : true/false, 1/0, yes/no, on/off.
- Dates : \`YYYY-MM-DD HH:MM:SS\`, \`YYYY-MM-DD\`, ISO 8601, un horodatage unix, \`now\`, \`today\`, \`tomorrow\`, \`yesterday\`, \`+N days|weeks|months|years\` (et \`-N …\`).
- Corps JSON jusqu’à 1 Mio (413 au-delà). Le HTML de \`description\`/\`excerpt\` est assaini selon une liste blanche sûre.

## Accès
- Les appelants anonymes ne peuvent que lire les enregistrements publiés. Les écritures exigent une clé d’API : \`Authorization: Bearer <clé>\`.
- Rôles : \`administrator\` (tout), \`editor\` (tout enregistrement, tout statut, catégories et étiquettes), \`author\` (ses événements, lieux, organisateurs, peut publier), \`contributor\` (ses enregistrements en brouillon/attente seulement).
- Statuts : \`publish\`, \`future\`, \`draft\`, \`pending\`, \`private\`, \`trash\`. Un événement protégé exige son \`password\` pour être lu ; dans les listes ses champs protégés sont vidés.

## Écritures
- La création répond 201 avec l’enregistrement et un en-tête \`Location\`. POST, PUT et PATCH sur un enregistrement existant fusionnent tous : seuls les champs envoyés changent ; \`null\` (ou \`""\` pour un texte) efface un champ.
- Les slugs sont générés depuis le titre ou le nom s’ils ne sont pas envoyés, uniques par type et par langue (\`-2\`, \`-3\` … en cas de collision).
- DELETE sur les événements, lieux et organisateurs met l’enregistrement à la corbeille (200 avec l’enregistrement ; 410 s’il y est déjà) ; \`force=true\` (editor et plus) supprime définitivement et répond \`{id, deleted: true}\`. Les catégories et étiquettes sont toujours supprimées définitivement.
- Un ID d’un autre type donne 400 \`rest-invalid-{kind}-id\` ; un ID inexistant 404 \`rest-{kind}-not-found\`.

## Listes
- Enveloppe : les enregistrements, \`rest_url\`, \`next_rest_url\` / \`previous_rest_url\` (seulement si la page existe), \`total\`, \`total_pages\` ; en-têtes \`X-Total\`, \`X-Total-Pages\` et un \`Link\` RFC 8288.
- \`per_page\` vaut 6 par défaut, plafonné à 50. Une page au-delà de la dernière donne 404 \`{kind}-archive-page-not-found\` ; au-delà du 10 000e résultat, 400 \`page-too-deep\`.
- Événements : triés par date de début puis ID (\`orderby\`, \`order\` pour changer) ; fenêtre par défaut de maintenant à maintenant + 2 ans ; sans \`strict_dates\`, \`start_date\` désigne le début de ce jour et les autres filtres de date la fin de ce jour ; \`include\` supprime tout filtre de date. \`search\` est une recherche plein texte tolérante aux fautes dans la langue de la requête. \`geoloc_lat\` + \`geoloc_lng\` trouvent les événements à moins de \`geoloc_radius\` (25 par défaut) \`geoloc_unit\` (\`mi\` ou \`km\`) et ajoutent \`distance\`.
- Lieux et organisateurs sont triés par nom ; catégories et étiquettes masquent les termes sans événement publié sauf avec \`hide_empty=false\`.
- Les lectures par ID ou slug reflètent une écriture immédiatement ; les listes en environ une seconde. Envoyez \`Prefer: wait-for-index\` sur une écriture pour être répondu une fois le changement cherchable (\`Preference-Applied\` l’indique).

## Erreurs
Chaque erreur est \`{"code", "message", "data": {"status", "params"?}}\` ; les erreurs de validation nomment chaque paramètre fautif dans \`data.params\`. 401 porte \`WWW-Authenticate: Bearer\`, 405 un en-tête \`Allow\`, 503 un \`Retry-After\`.`;

const de = `JSON-HTTP-Schnittstelle eines Veranstaltungskalenders: Veranstaltungen, Veranstaltungsorte, Veranstalter, Kategorien und Schlagwörter.

Durchsuchbare Referenz: [{root}/doc?format=html]({root}/doc?format=html) · dieses Dokument: \`{root}/doc\` · Namensraum-Index: \`{root}\`.

## Adressen und Sprachen
- Jede Route liegt unter \`/calendar/events/v1\` und ebenso unter \`/en/…\`, \`/fr/…\`, \`/de/…\`.
- Inhaltssprache, der erste Treffer gilt: der Parameter \`i18n_language\`, das Pfadpräfix, die konfigurierte Standardsprache (\`en\`). Jede Antwort trägt \`Content-Language\`.
- Jeder Datensatz hat eine Originalsprache und kann ein Dokument je Sprache haben. Übersetzbare Felder: \`title\`/\`venue\`/\`organizer\`/\`name\`, \`description\`, \`excerpt\`, \`slug\`; alle anderen Felder gelten für alle Sprachen. Ein Schreibzugriff in einer Sprache ohne Dokument legt diese Übersetzung aus dem Original an. Ein Lesezugriff liefert die angefragte Sprache, sonst das Original (\`i18n_language\` sagt welche); \`translations\` nennt die Sprachen mit eigenem Inhalt.

## Parameter
- Schreibparameter dürfen in der Query, einem JSON-Body oder einem Formular (urlencoded oder multipart) stehen; bei Konflikten gilt der Body. Unbekannte Parameter werden ignoriert.
- Arrays: ein JSON-Array, wiederholtes \`a[]=1&a[]=2\` oder \`a=1,2\`. Wahrheitswerte: true/false, 1/0, yes/no, on/off.
- Datumsangaben: \`YYYY-MM-DD HH:MM:SS\`, \`YYYY-MM-DD\`, ISO 8601, ein Unix-Zeitstempel, \`now\`, \`today\`, \`tomorrow\`, \`yesterday\`, \`+N days|weeks|months|years\` (und \`-N …\`).
- JSON-Bodys bis 1 MiB (darüber 413). HTML in \`description\`/\`excerpt\` wird auf eine sichere Positivliste bereinigt.

## Zugriff
- Anonyme Aufrufer dürfen nur veröffentlichte Datensätze lesen. Schreibzugriffe brauchen einen API-Schlüssel: \`Authorization: Bearer <Schlüssel>\`.
- Rollen: \`administrator\` (alles), \`editor\` (jeder Datensatz, jeder Status, Kategorien und Schlagwörter), \`author\` (eigene Veranstaltungen, Orte, Veranstalter, darf veröffentlichen), \`contributor\` (eigene Datensätze nur als Entwurf/ausstehend).
- Status: \`publish\`, \`future\`, \`draft\`, \`pending\`, \`private\`, \`trash\`. Eine geschützte Veranstaltung braucht zum Lesen ihr \`password\`; in Listen werden ihre geschützten Felder geleert.

## Schreiben
- Anlegen antwortet 201 mit dem Datensatz und einem \`Location\`-Header. POST, PUT und PATCH auf einen bestehenden Datensatz führen alle zusammen: nur gesendete Felder ändern sich; \`null\` (oder \`""\` bei Text) leert ein Feld.
- Slugs werden aus Titel oder Name erzeugt, wenn keiner gesendet wird, eindeutig je Art und Sprache (\`-2\`, \`-3\` … bei Kollision).
- DELETE auf Veranstaltungen, Orte und Veranstalter legt den Datensatz in den Papierkorb (200 mit dem Datensatz; 410, wenn er schon dort liegt); \`force=true\` (ab editor) löscht endgültig und antwortet \`{id, deleted: true}\`. Kategorien und Schlagwörter werden immer endgültig gelöscht.
- Eine ID einer anderen Art ergibt 400 \`rest-invalid-{kind}-id\`; eine nicht existierende ID 404 \`rest-{kind}-not-found\`.

## Listen
- Hülle: die Datensätze, \`rest_url\`, \`next_rest_url\` / \`previous_rest_url\` (nur wenn die Seite existiert), \`total\`, \`total_pages\`; Header \`X-Total\`, \`X-Total-Pages\` und ein \`Link\` nach RFC 8288.
- \`per_page\` ist standardmäßig 6 und höchstens 50. Eine Seite hinter der letzten ergibt 404 \`{kind}-archive-page-not-found\`; Ergebnisse nach dem 10.000. ergeben 400 \`page-too-deep\`.
- Veranstaltungen: nach Beginn, dann ID sortiert (\`orderby\`, \`order\` ändern das); Standardfenster von jetzt bis jetzt + 2 Jahre; ohne \`strict_dates\` meint \`start_date\` den Beginn dieses Tages und die übrigen Datumsfilter dessen Ende; \`include\` hebt alle Datumsfilter auf. \`search\` ist eine fehlertolerante Volltextsuche in der Sprache der Anfrage. \`geoloc_lat\` + \`geoloc_lng\` finden Veranstaltungen innerhalb von \`geoloc_radius\` (Standard 25) \`geoloc_unit\` (\`mi\` oder \`km\`) und ergänzen \`distance\`.
- Orte und Veranstalter sind nach Namen sortiert; Kategorien und Schlagwörter ohne veröffentlichte Veranstaltung sind ausgeblendet, außer mit \`hide_empty=false\`.
- Lesezugriffe per ID oder Slug sehen einen Schreibzugriff sofort, Listen nach etwa einer Sekunde. Mit \`Prefer: wait-for-index\` antwortet ein Schreibzugriff erst, wenn die Änderung durchsuchbar ist (\`Preference-Applied\` zeigt es an).

## Fehler
Jeder Fehler ist \`{"code", "message", "data": {"status", "params"?}}\`; Validierungsfehler nennen jeden fehlerhaften Parameter in \`data.params\`. 401 trägt \`WWW-Authenticate: Bearer\`, 405 einen \`Allow\`-Header, 503 ein \`Retry-After\`.`;

export const GUIDES: Record<Language, string> = { en, fr, de };
