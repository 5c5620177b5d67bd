import path from 'node:path';
import Joi from 'joi';
import YAML from 'yaml';
import { LANGUAGES, type Language } from '../../../config';
import { GUIDE_DIRECTORY, languageFiles, perLanguage, readGuideFile, TEXTS_FILE } from './guideFiles';

/** How each language names a record kind: the phrase "a(n) X" and the plural. */
interface Label {
  a: string;
  plural: string;
}

/** Operation shapes whose summaries are generated (see summaryOf in openapiOperations.ts). */
const SUMMARY_KEYS = [
  'list',
  'create',
  'readById',
  'readBySlug',
  'updateById',
  'updateBySlug',
  'trashById',
  'trashBySlug',
  'deleteById',
  'deleteBySlug',
  'namespaceIndex',
  'document',
  'documentAsset',
  'feed',
  'feedById',
] as const;
export type SummaryKey = (typeof SUMMARY_KEYS)[number];

const HEADER_KEYS = [
  'contentLanguage',
  'prefer',
  'preferenceApplied',
  'location',
  'total',
  'totalPages',
  'link',
  'changesSince',
  'wwwAuthenticate',
  'retryAfter',
  'etag',
  'lastModified',
  'cacheControl',
] as const;

/** The fixed texts of the OpenAPI document, per request language (docs/guide/<lang>/texts.yaml). */
export interface DocTexts {
  title: string;
  labels: Record<string, Label>;
  /** `{a}` is the label's "a(n) X" phrase, `{A}` the same capitalised, `{plural}` its plural. */
  summaries: Record<SummaryKey, string>;
  tags: Record<string, string>;
  forms: { date: string; flag: string; list: string };
  access: { read: string; write: string; key: string };
  writeForms: string;
  alsoInQuery: string;
  bodyDescription: string;
  /** By HTTP status, `default`, and `expired` (the 410 of a lapsed cursor or change token). */
  statuses: Record<string, string>;
  codes: string;
  headers: Record<(typeof HEADER_KEYS)[number], string>;
  bearer: string;
  referencePage: string;
}

const text = Joi.string().min(1).required();
const texts = (keys: readonly string[]) => Joi.object(Object.fromEntries(keys.map((key) => [key, text]))).required();
const map = (key: Joi.StringSchema, value: Joi.Schema) => Joi.object().pattern(key, value).min(1).required();

const DOC_TEXTS_SCHEMA = Joi.object<DocTexts>({
  title: text,
  labels: map(Joi.string(), texts(['a', 'plural'])),
  summaries: texts(SUMMARY_KEYS),
  tags: map(Joi.string(), text),
  forms: texts(['date', 'flag', 'list']),
  access: texts(['read', 'write', 'key']),
  writeForms: text,
  alsoInQuery: text,
  bodyDescription: text,
  statuses: map(Joi.string().pattern(/^(\d{3}|default|expired)$/), text),
  codes: text,
  headers: texts(HEADER_KEYS),
  bearer: text,
  referencePage: text,
});

/** The keyed tables whose keys are data (kinds, resources, statuses): every language names the same ones. */
const KEYED_TABLES = ['labels', 'tags', 'statuses'] as const;

/** Parses and checks one language's texts file; errors name the file. */
export function parseDocTexts(file: string, source: string): DocTexts {
  let parsed: unknown;
  try {
    parsed = YAML.parse(source);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
  }
  const { value, error } = DOC_TEXTS_SCHEMA.required().validate(parsed, { abortEarly: false, convert: false });
  if (error) throw new Error(`${file}: ${error.message}`);
  return value;
}

/** Every language's texts from `directory` (docs/guide), checked against the type and against each other. */
export function loadDocTexts(directory: string): Record<Language, DocTexts> {
  languageFiles(directory); // every language has the same files
  const file = (language: Language) => path.join(directory, language, TEXTS_FILE);
  const all = perLanguage((language) => parseDocTexts(file(language), readGuideFile(directory, language, TEXTS_FILE)));
  const [first, ...others] = LANGUAGES;
  for (const language of others) {
    for (const table of KEYED_TABLES) {
      const expected = Object.keys(all[first][table]).sort().join(', ');
      const actual = Object.keys(all[language][table]).sort().join(', ');
      if (actual !== expected)
        throw new Error(`${file(language)}: ${table} has ${actual}, where ${file(first)} has ${expected}`);
    }
  }
  return all;
}

/** Read once when the module loads: a malformed file stops the start with its name. */
export const DOC_TEXTS = loadDocTexts(GUIDE_DIRECTORY);

/** Fills `{a}`, `{A}` and `{plural}` of a summary pattern with a kind's label in that language. */
export function fillLabel(pattern: string, label: Label): string {
  const capitalised = label.a.charAt(0).toUpperCase() + label.a.slice(1);
  const plural = pattern.startsWith('{plural}')
    ? label.plural.charAt(0).toUpperCase() + label.plural.slice(1)
    : label.plural;
  return pattern.replace('{a}', label.a).replace('{A}', capitalised).replace('{plural}', plural);
}
