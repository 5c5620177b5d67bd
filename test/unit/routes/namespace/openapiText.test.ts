import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { LANGUAGES } from '../../../../config';
import { GUIDE_DIRECTORY } from '../../../../src/api/namespace/guideFiles';
import { DOC_TEXTS, loadDocTexts, parseDocTexts } from '../../../../src/api/namespace/openapiText';

const FILE = 'docs/guide/xx/texts.yaml';
const source = (lang: string) => readFileSync(path.join(GUIDE_DIRECTORY, lang, 'texts.yaml'), 'utf8');

describe('routes/namespace/openapiText', () => {
  it('loads each language’s texts.yaml with the same keys as English', () => {
    const keys = (value: unknown): unknown =>
      typeof value === 'object' && value
        ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, keys(inner)]))
        : typeof value;
    for (const lang of LANGUAGES) expect(keys(DOC_TEXTS[lang]), lang).to.deep.equal(keys(DOC_TEXTS.en));
    expect(DOC_TEXTS.fr.summaries.create).to.equal('Créer {a}');
    expect(DOC_TEXTS.de.statuses['404']).to.equal('Nicht gefunden');
  });

  it('a texts file of the wrong shape is an error naming the file and each bad key', () => {
    const en = source('en');
    const cases: [string, RegExp][] = [
      [en.replace(/^ {2}readBySlug: .*\n/m, ''), /"summaries\.readBySlug" is required/],
      [
        en.replace(/^ {2}list: List/m, '  lsit: List'),
        /"summaries\.list" is required\. "summaries\.lsit" is not allowed/,
      ],
      [en.replace(/^codes: .*$/m, 'codes: 42'), /"codes" must be a string/],
      [en.replace(/^title: .*$/m, 'title: ""'), /"title" is not allowed to be empty/],
      [en.replace(/^ {2}"404": /m, '  "4o4": '), /"statuses\.4o4" is not allowed/],
      [en.replace(/^ {4}plural: venues$/m, ''), /"labels\.venue\.plural" is required/],
      ['title: [unclosed', /Flow sequence/],
      ['', /"value" must be of type object/],
    ];
    for (const [text, message] of cases) {
      expect(() => parseDocTexts(FILE, text), String(message)).to.throw(new RegExp(`^${FILE}: ${message.source}`));
    }
  });

  it('a language naming other kinds, tags or statuses than English is an error naming its file', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'texts-'));
    try {
      const directory = path.join(root, 'guide');
      cpSync(GUIDE_DIRECTORY, directory, { recursive: true });
      const file = path.join(directory, 'de', 'texts.yaml');
      writeFileSync(file, source('de').replace(/^ {2}tags: Schlagwörter \(flach\)$/m, '  tgas: Schlagwörter (flach)'));
      expect(() => loadDocTexts(directory)).to.throw(
        `${file}: tags has categories, changes, documentation, events, namespace, organizers, subscriptions, tgas, venues, where`,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
