import path from 'node:path';
import type { Language } from '../../../config';
import { GUIDE_DIRECTORY, languageFiles, perLanguage, readGuideFile, SECTION_FILE } from './guideFiles';

export interface GuideSection {
  file: string;
  text: string;
}

const HEADING = /^## /gm;

/** Checks a section's shape: at most one `##` heading, on its first line, which every file after the first needs. */
function checkSection(file: string, text: string, first: boolean): void {
  const headings = text.match(HEADING)?.length ?? 0;
  if (!text) throw new Error(`${file} is empty`);
  if (headings > 1) throw new Error(`${file} holds ${headings} "## " headings: give each section its own file`);
  if (headings === 1 && !text.startsWith('## ')) throw new Error(`${file}: its "## " heading must be its first line`);
  if (headings === 0 && !first)
    throw new Error(`${file} must begin with its "## " heading (only the first file may have none)`);
}

/** Each language's guide sections from `directory` (docs/guide), in file-name order, checked. */
export function loadGuideSections(directory: string): Record<Language, GuideSection[]> {
  const files = languageFiles(directory);
  return perLanguage((language) =>
    files[language]
      .filter((name) => SECTION_FILE.test(name))
      .map((file, index) => {
        const text = readGuideFile(directory, language, file);
        checkSection(path.join(directory, language, file), text, index === 0);
        return { file, text };
      }),
  );
}

export const joinSections = (sections: GuideSection[]): string => sections.map((s) => s.text).join('\n\n');

/** Read once when the module loads: a malformed or untranslated file stops the start with its name. */
export const GUIDE_SECTIONS = loadGuideSections(GUIDE_DIRECTORY);

/**
 * `info.description`: the behaviours the published interface leaves open, as this service decided
 * them (CONTRACT.md), so that they are discoverable. `{root}` is replaced by the REST root the
 * document was requested through.
 */
export const GUIDES = perLanguage((language) => joinSections(GUIDE_SECTIONS[language]));
