import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { LANGUAGES } from '../../../../config';
import { findGuideDirectory, GUIDE_DIRECTORY, languageFiles } from '../../../../src/api/namespace/guideFiles';
import { GUIDE_SECTIONS, GUIDES, joinSections, loadGuideSections } from '../../../../src/api/namespace/openapiGuide';

/**
 * The code-formatted terms of a guide (parameters, values, headers, examples), each as often as it
 * appears; placeholders and the example language root may be the guide's own.
 */
function terms(guide: string): string[] {
  return [...guide.matchAll(/`([^`]+)`/g)]
    .map((match) => match[1]!.replace(/<(key|clé|Schlüssel)>/g, '<key>').replace(/^\/(en|fr|de)\/…$/, '/{lang}/…'))
    .sort();
}

/** A copy of the real docs/guide to break one file of. */
function copyOfGuides(): string {
  const directory = path.join(mkdtempSync(path.join(tmpdir(), 'guide-')), 'guide');
  cpSync(GUIDE_DIRECTORY, directory, { recursive: true });
  return directory;
}

describe('routes/namespace/openapiGuide', () => {
  const copies: string[] = [];
  const copy = () => {
    const directory = copyOfGuides();
    copies.push(path.dirname(directory));
    return directory;
  };
  after(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  // A sentence left out of a translation drops its terms: fr and de once lacked two rules en has.
  for (const lang of ['fr', 'de'] as const) {
    for (const [index, section] of GUIDE_SECTIONS.en.entries()) {
      it(`the ${lang} ${section.file} names every parameter, value and example the en one does, as often`, () => {
        expect(GUIDE_SECTIONS[lang][index]!.file).to.equal(section.file);
        expect(terms(GUIDE_SECTIONS[lang][index]!.text)).to.deep.equal(terms(section.text));
      });
    }
  }

  it('finds docs/guide from src/ and from the build in dist/src/ alike', () => {
    const root = path.resolve(GUIDE_DIRECTORY, '..', '..');
    expect(findGuideDirectory(path.join(root, 'src', 'api', 'namespace'))).to.equal(GUIDE_DIRECTORY);
    expect(findGuideDirectory(path.join(root, 'dist', 'src', 'api', 'namespace'))).to.equal(GUIDE_DIRECTORY);
    expect(() => findGuideDirectory(tmpdir())).to.throw(/docs\/guide not found/);
  });

  it('every language has the same files, an intro and numbered sections', () => {
    const files = languageFiles(GUIDE_DIRECTORY);
    for (const lang of LANGUAGES) expect(files[lang], lang).to.deep.equal(files.en);
    expect(files.en[0]).to.equal('00-intro.md');
    expect(files.en).to.include('texts.yaml');
    for (const lang of LANGUAGES) {
      const [intro, ...sections] = GUIDE_SECTIONS[lang];
      expect(intro!.text, lang).not.to.match(/^## /m);
      for (const section of sections) expect(section.text, `${lang} ${section.file}`).to.match(/^## [^\n]+\n/);
    }
  });

  it('the guide is its files joined by a blank line, in file-name order, {root} left for the request', () => {
    for (const lang of LANGUAGES) {
      const files = languageFiles(GUIDE_DIRECTORY)[lang].filter((name) => name.endsWith('.md'));
      const texts = files.map((name) => readFileSync(path.join(GUIDE_DIRECTORY, lang, name), 'utf8').trimEnd());
      expect(GUIDES[lang]).to.equal(texts.join('\n\n'));
      expect(GUIDES[lang]).to.include('({root}/doc?format=html)');
    }
  });

  it('reads in order: lists, then the features built on them, and the error reference last', () => {
    for (const lang of LANGUAGES) {
      const files = GUIDE_SECTIONS[lang].map((s) => s.file);
      expect(files.slice(-7), lang).to.deep.equal([
        '50-lists.md',
        '55-recurring.md',
        '60-discovery.md',
        '70-copies.md',
        '75-webhooks.md',
        '80-caching-and-feeds.md',
        '90-errors.md',
      ]);
    }
  });

  it('a section added in each language is all it takes: it is joined in at its number', () => {
    const directory = copy();
    for (const lang of LANGUAGES)
      writeFileSync(path.join(directory, lang, '45-feeds.md'), `## Feeds ${lang}\n- \`ical\`\n`);
    const sections = loadGuideSections(directory);
    for (const lang of LANGUAGES) {
      const files = sections[lang].map((s) => s.file);
      expect(files.indexOf('45-feeds.md'), lang).to.equal(files.indexOf('40-writes.md') + 1);
      expect(joinSections(sections[lang])).to.include(`\n\n## Feeds ${lang}\n- \`ical\`\n\n## `);
    }
  });

  it('a section missing in one language is an error naming the missing file', () => {
    const directory = copy();
    for (const lang of ['en', 'de']) writeFileSync(path.join(directory, lang, '70-feeds.md'), '## Feeds\n');
    expect(() => loadGuideSections(directory)).to.throw(
      `${path.join(directory, 'fr', '70-feeds.md')} is missing: ${path.join(directory, 'en')} has it`,
    );
    const other = copy();
    rmSync(path.join(other, 'en', '30-access.md'));
    expect(() => loadGuideSections(other)).to.throw(`${path.join(other, 'en', '30-access.md')} is missing`);
  });

  it('a misnamed or malformed section is an error naming its file', () => {
    const misnamed = copy();
    for (const lang of LANGUAGES)
      renameSync(path.join(misnamed, lang, '90-errors.md'), path.join(misnamed, lang, '6-errors.md'));
    expect(() => loadGuideSections(misnamed)).to.throw(
      `${path.join(misnamed, 'en', '6-errors.md')}: a guide file is named NN-topic.md`,
    );

    const cases: [string, string, RegExp][] = [
      ['40-writes.md', '## Writes\n- one\n\n## Deletes\n- two\n', /40-writes\.md holds 2 "## " headings/],
      ['40-writes.md', '- no heading\n', /40-writes\.md must begin with its "## " heading/],
      ['40-writes.md', 'Intro\n\n## Writes\n', /40-writes\.md: its "## " heading must be its first line/],
      ['40-writes.md', '\n\n', /40-writes\.md is empty/],
    ];
    for (const [file, text, message] of cases) {
      const directory = copy();
      writeFileSync(path.join(directory, 'fr', file), text);
      expect(() => loadGuideSections(directory), text).to.throw(message);
    }
  });
});
