import { expect } from 'chai';
import { slugify } from '../../../src/domain/slug';

describe('slugify', () => {
  it('folds accents and case and joins words with hyphens', () => {
    expect(slugify('  Ünïcödé Straße à Zürich  ')).to.equal('unicode-strasse-a-zurich');
    expect(slugify('Jazz   --  Night')).to.equal('jazz-night');
  });

  it('drops symbols instead of spelling them as English words', () => {
    expect(slugify('a < b > c')).to.equal('a-b-c');
    expect(slugify('Rock & Roll')).to.equal('rock-roll');
    expect(slugify('50% off, Café €5')).to.equal('50-off-cafe-5');
    expect(slugify('I ♥ Paris | C++ $100')).to.equal('i-paris-c-100');
  });

  it('keeps letters of scripts it cannot transliterate, and writes Greek as ELOT 743 does', () => {
    expect(slugify('東京ドーム')).to.equal('東京ドーム');
    expect(slugify('서울 극장')).to.equal('서울-극장');
    expect(slugify('हिन्दी नाटक')).to.equal('हिन्दी-नाटक');
    expect(slugify('Москва театр')).to.equal('moskva-teatr');
    expect(slugify('Αθήνα Θέατρο')).to.equal('athina-theatro');
    expect(slugify('ﬁne ＡＢＣ x²')).to.equal('fine-abc-x2');
    expect(slugify('東'.repeat(300))).to.equal('東'.repeat(190));
  });

  it('keeps letters beyond the basic plane whole, lower-casing those that have a case', () => {
    expect(slugify('𠮷野家 Café')).to.equal('𠮷野家-cafe');
    expect(slugify('Ünïcode 𐐀𐐁 hall')).to.equal('unicode-𐐨𐐩-hall');
    expect(slugify('𠀀 - 𠀁🎉ok')).to.equal('𠀀-𠀁-ok');
    expect(slugify('𠀀'.repeat(200))).to.equal('𠀀'.repeat(190));
  });

  it('drops apostrophes inside words', () => {
    expect(slugify("Don't stop l’été")).to.equal('dont-stop-lete');
  });

  it('gives an empty slug when nothing is left, and bounds the length without a trailing hyphen', () => {
    expect(slugify('<>&!')).to.equal('');
    const long = slugify('word '.repeat(100));
    expect(long.length).to.be.at.most(190);
    expect(long).to.match(/^[a-z-]+[a-z]$/);
  });
});
