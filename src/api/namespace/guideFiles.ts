import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LANGUAGES, type Language } from '../../../config';

/** The folder, under the project root, of the `/doc` prose: one subfolder per language. */
const GUIDE_FOLDER = path.join('docs', 'guide');

/** The fixed texts of the document (title, summaries, descriptions), one file per language folder. */
export const TEXTS_FILE = 'texts.yaml';

/** A guide section: `00-intro.md`, then one file per `##` section, numbered in steps of 10. */
export const SECTION_FILE = /^\d{2}-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;

/**
 * The nearest `docs/guide` above `from`: the project's own whether the code runs from src/ (tsx)
 * or from dist/src/ (the build; the image copies docs/guide next to dist/).
 */
export function findGuideDirectory(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, GUIDE_FOLDER);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${GUIDE_FOLDER} not found in ${from} or any folder above it`);
  }
}

export const GUIDE_DIRECTORY = findGuideDirectory();

/** One value per served language. */
export function perLanguage<T>(make: (language: Language) => T): Record<Language, T> {
  return Object.fromEntries(LANGUAGES.map((language) => [language, make(language)])) as Record<Language, T>;
}

/**
 * The files of each language's folder, in file-name order. Every language has the same ones, and
 * each is a section or the texts file: a section added in one language only, or misnamed, is an
 * error naming the file, not a document that silently lacks it.
 */
export function languageFiles(directory: string): Record<Language, string[]> {
  const files = perLanguage((language) => {
    const folder = path.join(directory, language);
    if (!existsSync(folder)) throw new Error(`${folder} is missing: the /doc texts need one folder per language`);
    const names = readdirSync(folder)
      .filter((name) => !name.startsWith('.'))
      .sort();
    const misnamed = names.find((name) => name !== TEXTS_FILE && !SECTION_FILE.test(name));
    if (misnamed)
      throw new Error(
        `${path.join(folder, misnamed)}: a guide file is named NN-topic.md (two digits, lower-case words joined by hyphens) or is ${TEXTS_FILE}`,
      );
    return names;
  });
  const [first, ...others] = LANGUAGES;
  for (const language of others) {
    for (const [has, lacks] of [
      [first, language],
      [language, first],
    ] as const) {
      const missing = files[has].find((name) => !files[lacks].includes(name));
      if (missing)
        throw new Error(
          `${path.join(directory, lacks, missing)} is missing: ${path.join(directory, has)} has it, and every language needs the same files`,
        );
    }
  }
  return files;
}

/** A guide file's text, with Windows line ends made plain and no trailing blank lines. */
export function readGuideFile(directory: string, language: Language, name: string): string {
  return readFileSync(path.join(directory, language, name), 'utf8')
    .replace(/\r\n/g, '\n')
    .trimEnd();
}
