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
- Anonymous callers may only read, and only published records. Writes need an API key: \`Authorization: Bearer <key>\` (401 \`rest_unauthorized\` with \`WWW-Authenticate: Bearer\` without one; an unknown, malformed or revoked key is 401 on every route). The key's user is the \`author\` of what it creates.
- Roles: \`administrator\` and \`editor\`: any record in any status, categories and tags, \`author\` set to anyone, \`force=true\`. \`author\`: creates, changes, publishes and trashes their own events, venues and organizers, in any status. \`contributor\`: creates their own records as \`draft\` or \`pending\` only (\`publish\` is stored as \`pending\`; \`future\` and \`private\` are refused), changes and trashes them only while \`draft\`, \`pending\` (or trashed), and never publishes them. Only editors and above set \`author\` to someone else, use \`force=true\`, write categories and tags, or create a category or tag by naming it in an event write (others may name existing ones). A role too weak is 403 \`rest_forbidden\`.
- Links: an event write may link the venues and organizers the caller may read (published ones and the caller's own; editors any), else 403 \`rest_forbidden\`. Venues and organizers created inline follow their own create rules (a contributor's are \`pending\`).
- Statuses: \`publish\`, \`future\`, \`draft\`, \`pending\`, \`private\`, \`trash\`. Anonymous callers read \`publish\` only; authors and contributors also their own records in any status (\`private\` and \`trash\` included); editors and above everything. A single read (by ID or slug) of anything else is 403 \`{kind}-not-accessible\` (\`{kind}-no-longer-available\` when trashed).
- Lists apply the same rule. Without \`status\` they show every status the caller may read except \`trash\`; a \`status\` the caller may never read (anonymous: anything but \`publish\`) is 400 naming \`status\`. An \`event\`, \`post\` or \`post_parent\` filter naming an event the caller may not read is 400, as if there were no such event. \`hide_from_listings\` events are listed to editors and above only, unless \`include\` names them.
- Embedded links: an event shows only the venues and organizers the caller may read (a draft venue is not shown to anonymous callers), on single reads and in lists alike. Lists are answered from the search index alone: it stores each event with all its live links and each answer drops those the caller may not read. \`search\` on venue and organizer names, \`geoloc\` and \`distance\` use published venues and organizers only. Term \`count\`, \`has_events\` and \`only_with_upcoming\` count published events only.
- Passwords: an event's \`password\` is stored only as a salted scrypt hash and never returned. A single read of a protected event needs the right \`password\` parameter (compared in constant time), else 403 \`event-password-protected\`; editors, administrators and the event's own author read it without. Lists take no password: a protected event stays listed with \`description\`, \`excerpt\`, \`cost\`, \`cost_details\`, \`venue\`, \`organizer\` and \`website\` blanked, and its protected text is never indexed, so \`search\` never matches it. For callers who see them blanked, the \`venue\`, \`organizer\` and geo filters of event lists do not match it either, and the \`event\` filter of venue and organizer lists lists nothing for it. Changing or deleting a protected event does not need its password (roles and ownership decide); \`password\` in a write sets a new one, \`""\` removes it.
- Rate limits: writes per API key and per client address, and failed authentications per address, are limited (per minute, with a minute's burst; settings \`RATE_LIMIT*\`). Past a limit the answer is 429 \`rest_rate_limited\` with \`Retry-After\` (seconds). The limits are kept in each API process's memory.

## Writes
- Create answers 201 with the record and a \`Location\` header. POST, PUT and PATCH on an existing record all merge: only the fields sent change; \`null\` (or \`""\` for text) clears a field.
- Slugs are generated from the title or name when not sent (lower case, accents folded, symbols dropped, words joined by hyphens), unique per kind and language (\`-2\`, \`-3\` … on collision).
- DELETE on events, venues and organizers moves the record to the trash (200 with the record; 410 when already trashed); \`force=true\` (editor and above) deletes permanently and answers \`{id, deleted: true}\`. Categories and tags are always deleted permanently.
- An ID of another kind is 400 \`rest-invalid-{kind}-id\`; an ID that does not exist is 404 \`rest-{kind}-not-found\`.

## Lists
- Envelope: the records, \`rest_url\`, \`next_rest_url\` / \`previous_rest_url\` (only when that page exists), \`total\`, \`total_pages\`; headers \`X-Total\`, \`X-Total-Pages\` and an RFC 8288 \`Link\`.
- \`per_page\` defaults to 6 and is capped at 50. A page past the last is 404 \`{kind}-archive-page-not-found\`; results past the 10,000th are 400 \`page-too-deep\`.
- Events: ordered by start date then ID (\`orderby\`, \`order\` to change); default window from now to now + 2 years (a later \`start_date\` alone: two years from it), dates from year 1 to 9999; without \`strict_dates\`, \`start_date\` means the start of that day and the other date filters the end of that day; \`include\` drops every date filter. \`search\` is typo-tolerant full text in the request language. \`geoloc_lat\` + \`geoloc_lng\` find events within \`geoloc_radius\` (default 25) \`geoloc_unit\` (\`mi\` or \`km\`) and add \`distance\`.
- Venues and organizers are ordered by name; categories and tags hide terms without published events unless \`hide_empty=false\`.
- Reads by ID or slug reflect a write at once; lists within about a second. Send \`Prefer: wait-for-index\` on a write to be answered once the change is searchable (\`Preference-Applied\` tells).

## Errors
Every error is \`{"code", "message", "data": {"status", "params"?}}\`; validation errors name each bad parameter in \`data.params\`. 401 carries \`WWW-Authenticate: Bearer\`, 405 an \`Allow\` header, 429 (\`rest_rate_limited\`) and 503 a \`Retry-After\`.`;

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
- Les appelants anonymes ne peuvent que lire, et seulement les enregistrements publiés. Les écritures exigent une clé d’API : \`Authorization: Bearer <clé>\` (401 \`rest_unauthorized\` avec \`WWW-Authenticate: Bearer\` sans clé ; une clé inconnue, mal formée ou révoquée donne 401 sur toute route). L’utilisateur de la clé est l’\`author\` de ce qu’il crée.
- Rôles : \`administrator\` et \`editor\` : tout enregistrement dans tout statut, catégories et étiquettes, \`author\` librement choisi, \`force=true\`. \`author\` : crée, modifie, publie et met à la corbeille ses propres événements, lieux et organisateurs, dans tout statut. \`contributor\` : crée ses enregistrements en \`draft\` ou \`pending\` seulement (\`publish\` est enregistré comme \`pending\` ; \`future\` et \`private\` sont refusés), ne les modifie et ne les met à la corbeille que tant qu’ils sont \`draft\`, \`pending\` (ou à la corbeille), et ne les publie jamais. Seuls editor et plus donnent un autre \`author\`, utilisent \`force=true\`, écrivent catégories et étiquettes ou en créent une en la nommant dans l’écriture d’un événement (les autres peuvent nommer celles qui existent). Un rôle insuffisant donne 403 \`rest_forbidden\`.
- Liens : l’écriture d’un événement peut lier les lieux et organisateurs que l’appelant peut lire (publiés et les siens ; editor : tous), sinon 403 \`rest_forbidden\`. Les lieux et organisateurs créés en ligne suivent leurs propres règles de création (ceux d’un contributor sont \`pending\`).
- Statuts : \`publish\`, \`future\`, \`draft\`, \`pending\`, \`private\`, \`trash\`. Les anonymes lisent \`publish\` seulement ; author et contributor aussi leurs propres enregistrements dans tout statut (\`private\` et \`trash\` compris) ; editor et plus tout. Une lecture (par ID ou slug) d’autre chose donne 403 \`{kind}-not-accessible\` (\`{kind}-no-longer-available\` à la corbeille).
- Les listes suivent la même règle. Sans \`status\`, elles montrent tout statut lisible par l’appelant sauf \`trash\` ; un \`status\` qu’il ne peut jamais lire (anonyme : tout sauf \`publish\`) donne 400 nommant \`status\`. Un filtre \`event\`, \`post\` ou \`post_parent\` nommant un événement que l’appelant ne peut pas lire donne 400, comme s’il n’existait pas. Les événements \`hide_from_listings\` ne sont listés qu’à editor et plus, sauf si \`include\` les nomme.
- Liens intégrés : un événement ne montre que les lieux et organisateurs que l’appelant peut lire (un lieu en brouillon n’est pas montré aux anonymes), en lecture comme en liste. Les listes sont servies par l’index de recherche seul : il garde chaque événement avec tous ses liens vivants et chaque réponse retire ceux que l’appelant ne peut pas lire. \`search\` sur les noms de lieux et d’organisateurs, \`geoloc\` et \`distance\` n’utilisent que les lieux et organisateurs publiés. \`count\` des termes, \`has_events\` et \`only_with_upcoming\` ne comptent que les événements publiés.
- Mots de passe : le \`password\` d’un événement n’est stocké que sous forme de hachage scrypt salé et n’est jamais renvoyé. La lecture d’un événement protégé exige le bon paramètre \`password\` (comparé en temps constant), sinon 403 \`event-password-protected\` ; editor, administrator et l’auteur de l’événement le lisent sans. Les listes ne prennent pas de mot de passe : un événement protégé reste listé avec \`description\`, \`excerpt\`, \`cost\`, \`cost_details\`, \`venue\`, \`organizer\` et \`website\` vidés, et son texte protégé n’est jamais indexé, donc \`search\` ne le trouve jamais. Pour qui les voit vidés, les filtres \`venue\`, \`organizer\` et géographiques des listes d’événements ne le trouvent pas non plus, et le filtre \`event\` des listes de lieux et d’organisateurs ne renvoie rien pour lui. Modifier ou supprimer un événement protégé n’exige pas son mot de passe (rôles et propriété décident) ; \`password\` dans une écriture en fixe un nouveau, \`""\` le retire.
- Limites de débit : les écritures par clé d’API et par adresse cliente, et les authentifications échouées par adresse, sont limitées (par minute, avec une rafale d’une minute ; réglages \`RATE_LIMIT*\`). Au-delà, la réponse est 429 \`rest_rate_limited\` avec \`Retry-After\` (secondes). Les limites sont tenues en mémoire par chaque processus de l’API.

## Écritures
- La création répond 201 avec l’enregistrement et un en-tête \`Location\`. POST, PUT et PATCH sur un enregistrement existant fusionnent tous : seuls les champs envoyés changent ; \`null\` (ou \`""\` pour un texte) efface un champ.
- Les slugs sont générés depuis le titre ou le nom s’ils ne sont pas envoyés (minuscules, sans accents ni symboles, mots reliés par des tirets), uniques par type et par langue (\`-2\`, \`-3\` … en cas de collision).
- DELETE sur les événements, lieux et organisateurs met l’enregistrement à la corbeille (200 avec l’enregistrement ; 410 s’il y est déjà) ; \`force=true\` (editor et plus) supprime définitivement et répond \`{id, deleted: true}\`. Les catégories et étiquettes sont toujours supprimées définitivement.
- Un ID d’un autre type donne 400 \`rest-invalid-{kind}-id\` ; un ID inexistant 404 \`rest-{kind}-not-found\`.

## Listes
- Enveloppe : les enregistrements, \`rest_url\`, \`next_rest_url\` / \`previous_rest_url\` (seulement si la page existe), \`total\`, \`total_pages\` ; en-têtes \`X-Total\`, \`X-Total-Pages\` et un \`Link\` RFC 8288.
- \`per_page\` vaut 6 par défaut, plafonné à 50. Une page au-delà de la dernière donne 404 \`{kind}-archive-page-not-found\` ; au-delà du 10 000e résultat, 400 \`page-too-deep\`.
- Événements : triés par date de début puis ID (\`orderby\`, \`order\` pour changer) ; fenêtre par défaut de maintenant à maintenant + 2 ans ; sans \`strict_dates\`, \`start_date\` désigne le début de ce jour et les autres filtres de date la fin de ce jour ; \`include\` supprime tout filtre de date. \`search\` est une recherche plein texte tolérante aux fautes dans la langue de la requête. \`geoloc_lat\` + \`geoloc_lng\` trouvent les événements à moins de \`geoloc_radius\` (25 par défaut) \`geoloc_unit\` (\`mi\` ou \`km\`) et ajoutent \`distance\`.
- Lieux et organisateurs sont triés par nom ; catégories et étiquettes masquent les termes sans événement publié sauf avec \`hide_empty=false\`.
- Les lectures par ID ou slug reflètent une écriture immédiatement ; les listes en environ une seconde. Envoyez \`Prefer: wait-for-index\` sur une écriture pour être répondu une fois le changement cherchable (\`Preference-Applied\` l’indique).

## Erreurs
Chaque erreur est \`{"code", "message", "data": {"status", "params"?}}\` ; les erreurs de validation nomment chaque paramètre fautif dans \`data.params\`. 401 porte \`WWW-Authenticate: Bearer\`, 405 un en-tête \`Allow\`, 429 (\`rest_rate_limited\`) et 503 un \`Retry-After\`.`;

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
- Anonyme Aufrufer dürfen nur lesen, und nur veröffentlichte Datensätze. Schreibzugriffe brauchen einen API-Schlüssel: \`Authorization: Bearer <Schlüssel>\` (ohne Schlüssel 401 \`rest_unauthorized\` mit \`WWW-Authenticate: Bearer\`; ein unbekannter, fehlerhafter oder widerrufener Schlüssel ergibt auf jeder Route 401). Der Benutzer des Schlüssels ist \`author\` dessen, was er anlegt.
- Rollen: \`administrator\` und \`editor\`: jeder Datensatz in jedem Status, Kategorien und Schlagwörter, beliebiger \`author\`, \`force=true\`. \`author\`: legt eigene Veranstaltungen, Orte und Veranstalter in jedem Status an, ändert, veröffentlicht und löscht sie (Papierkorb). \`contributor\`: legt eigene Datensätze nur als \`draft\` oder \`pending\` an (\`publish\` wird als \`pending\` gespeichert; \`future\` und \`private\` werden abgelehnt), ändert und löscht sie nur, solange sie \`draft\`, \`pending\` (oder im Papierkorb) sind, und veröffentlicht sie nie. Nur ab editor: anderer \`author\`, \`force=true\`, Kategorien und Schlagwörter schreiben oder beim Schreiben einer Veranstaltung per Name neu anlegen (andere dürfen bestehende nennen). Eine zu schwache Rolle ergibt 403 \`rest_forbidden\`.
- Verknüpfungen: eine Veranstaltung darf die Orte und Veranstalter verknüpfen, die der Aufrufer lesen darf (veröffentlichte und eigene; editor alle), sonst 403 \`rest_forbidden\`. Inline angelegte Orte und Veranstalter folgen ihren eigenen Anlegeregeln (die eines contributor sind \`pending\`).
- Status: \`publish\`, \`future\`, \`draft\`, \`pending\`, \`private\`, \`trash\`. Anonyme lesen nur \`publish\`; author und contributor auch ihre eigenen Datensätze in jedem Status (auch \`private\` und \`trash\`); ab editor alles. Ein Lesezugriff (per ID oder Slug) auf anderes ergibt 403 \`{kind}-not-accessible\` (\`{kind}-no-longer-available\` im Papierkorb).
- Listen folgen derselben Regel. Ohne \`status\` zeigen sie jeden lesbaren Status außer \`trash\`; ein \`status\`, den der Aufrufer nie lesen darf (anonym: alles außer \`publish\`), ergibt 400 mit \`status\`. Ein Filter \`event\`, \`post\` oder \`post_parent\` auf eine nicht lesbare Veranstaltung ergibt 400, als gäbe es sie nicht. Veranstaltungen mit \`hide_from_listings\` sehen in Listen nur editor und höher, außer \`include\` nennt sie.
- Eingebettete Verknüpfungen: eine Veranstaltung zeigt nur die Orte und Veranstalter, die der Aufrufer lesen darf (ein Ort im Entwurf wird Anonymen nicht gezeigt), einzeln wie in Listen. Listen kommen allein aus dem Suchindex: er speichert jede Veranstaltung mit allen lebenden Verknüpfungen, jede Antwort entfernt die nicht lesbaren. \`search\` über Orts- und Veranstalternamen, \`geoloc\` und \`distance\` nutzen nur veröffentlichte Orte und Veranstalter. \`count\` der Begriffe, \`has_events\` und \`only_with_upcoming\` zählen nur veröffentlichte Veranstaltungen.
- Passwörter: das \`password\` einer Veranstaltung wird nur als gesalzener scrypt-Hash gespeichert und nie ausgegeben. Das Lesen einer geschützten Veranstaltung braucht den richtigen Parameter \`password\` (in konstanter Zeit verglichen), sonst 403 \`event-password-protected\`; editor, administrator und der eigene author lesen sie ohne. Listen nehmen kein Passwort: eine geschützte Veranstaltung bleibt gelistet, mit geleerten \`description\`, \`excerpt\`, \`cost\`, \`cost_details\`, \`venue\`, \`organizer\` und \`website\`; ihr geschützter Text wird nie indexiert, \`search\` findet ihn also nie. Wer diese Felder geleert sieht, findet sie auch über die Filter \`venue\`, \`organizer\` und die Geo-Filter der Veranstaltungslisten nicht, und der Filter \`event\` der Orts- und Veranstalterlisten liefert für sie nichts. Ändern oder Löschen einer geschützten Veranstaltung braucht ihr Passwort nicht (Rollen und Eigentum entscheiden); \`password\` in einem Schreibzugriff setzt ein neues, \`""\` entfernt es.
- Ratenbegrenzung: Schreibzugriffe je API-Schlüssel und je Client-Adresse sowie fehlgeschlagene Anmeldungen je Adresse sind begrenzt (pro Minute, mit dem Vorrat einer Minute; Einstellungen \`RATE_LIMIT*\`). Darüber lautet die Antwort 429 \`rest_rate_limited\` mit \`Retry-After\` (Sekunden). Die Grenzen gelten je API-Prozess (im Speicher).

## Schreiben
- Anlegen antwortet 201 mit dem Datensatz und einem \`Location\`-Header. POST, PUT und PATCH auf einen bestehenden Datensatz führen alle zusammen: nur gesendete Felder ändern sich; \`null\` (oder \`""\` bei Text) leert ein Feld.
- Slugs werden aus Titel oder Name erzeugt, wenn keiner gesendet wird (Kleinbuchstaben, ohne Akzente und Symbole, Wörter durch Bindestriche verbunden), eindeutig je Art und Sprache (\`-2\`, \`-3\` … bei Kollision).
- DELETE auf Veranstaltungen, Orte und Veranstalter legt den Datensatz in den Papierkorb (200 mit dem Datensatz; 410, wenn er schon dort liegt); \`force=true\` (ab editor) löscht endgültig und antwortet \`{id, deleted: true}\`. Kategorien und Schlagwörter werden immer endgültig gelöscht.
- Eine ID einer anderen Art ergibt 400 \`rest-invalid-{kind}-id\`; eine nicht existierende ID 404 \`rest-{kind}-not-found\`.

## Listen
- Hülle: die Datensätze, \`rest_url\`, \`next_rest_url\` / \`previous_rest_url\` (nur wenn die Seite existiert), \`total\`, \`total_pages\`; Header \`X-Total\`, \`X-Total-Pages\` und ein \`Link\` nach RFC 8288.
- \`per_page\` ist standardmäßig 6 und höchstens 50. Eine Seite hinter der letzten ergibt 404 \`{kind}-archive-page-not-found\`; Ergebnisse nach dem 10.000. ergeben 400 \`page-too-deep\`.
- Veranstaltungen: nach Beginn, dann ID sortiert (\`orderby\`, \`order\` ändern das); Standardfenster von jetzt bis jetzt + 2 Jahre; ohne \`strict_dates\` meint \`start_date\` den Beginn dieses Tages und die übrigen Datumsfilter dessen Ende; \`include\` hebt alle Datumsfilter auf. \`search\` ist eine fehlertolerante Volltextsuche in der Sprache der Anfrage. \`geoloc_lat\` + \`geoloc_lng\` finden Veranstaltungen innerhalb von \`geoloc_radius\` (Standard 25) \`geoloc_unit\` (\`mi\` oder \`km\`) und ergänzen \`distance\`.
- Orte und Veranstalter sind nach Namen sortiert; Kategorien und Schlagwörter ohne veröffentlichte Veranstaltung sind ausgeblendet, außer mit \`hide_empty=false\`.
- Lesezugriffe per ID oder Slug sehen einen Schreibzugriff sofort, Listen nach etwa einer Sekunde. Mit \`Prefer: wait-for-index\` antwortet ein Schreibzugriff erst, wenn die Änderung durchsuchbar ist (\`Preference-Applied\` zeigt es an).

## Fehler
Jeder Fehler ist \`{"code", "message", "data": {"status", "params"?}}\`; Validierungsfehler nennen jeden fehlerhaften Parameter in \`data.params\`. 401 trägt \`WWW-Authenticate: Bearer\`, 405 einen \`Allow\`-Header, 429 (\`rest_rate_limited\`) und 503 ein \`Retry-After\`.`;

export const GUIDES: Record<Language, string> = { en, fr, de };
