import { expect } from 'chai';
import fc from 'fast-check';
import { plainText, readableText, safeRichText, sanitizeRichText } from '../../../src/domain/html';
import { ValidationError } from '../../../src/domain/errors';

describe('domain/html plainText', () => {
  it('gives the text a reader sees, entities decoded', () => {
    expect(plainText('<p>Jazz &amp; &quot;wine&quot; &#233;t&#xE9; &lt;3</p>')).to.equal('Jazz & "wine" été <3');
  });

  it('keeps words apart across blocks and together across inline markup', () => {
    expect(plainText('<h2>Title</h2><p>one</p><p>t<b>w</b>o<br>three</p><ul><li>a</li><li>b</li></ul>')).to.equal(
      'Title one two three a b',
    );
  });

  it('leaves out scripts, styles and other non-text content', () => {
    expect(plainText('<p>Hi<script>alert(1)</script><style>p{}</style><noscript>x</noscript> there</p>')).to.equal(
      'Hi there',
    );
  });

  it('collapses whitespace and accepts nothing', () => {
    expect(plainText('  a \n\t b  ')).to.equal('a b');
    expect(plainText('<p>  a </p>\n<p> b</p>')).to.equal('a b');
    expect(plainText(null)).to.equal('');
    expect(plainText(undefined)).to.equal('');
    expect(plainText('')).to.equal('');
  });

  it('reads broken markup without failing', () => {
    expect(plainText('<p>open <b>bold')).to.equal('open bold');
    expect(plainText('a < b and c > d')).to.equal('a < b and c > d');
    expect(plainText('<<p>>x')).to.equal('< >x');
  });

  it('gives the same text for stored (sanitised) rich text as for what the client sent', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('<p>', '</p>', '<b>', '</b>', 'word', ' ', '&amp;', '<br>', 'é', '"', "'", '>'), {
          maxLength: 30,
        }),
        (parts) => {
          const html = parts.join('');
          expect(plainText(sanitizeRichText(html))).to.equal(plainText(html));
        },
      ),
    );
  });
});

describe('domain/html safeRichText', () => {
  it('refuses more than 5,000 tags, naming the parameter, before sanitising', () => {
    expect(safeRichText('description', '<p>ok</p>'.repeat(2_500), 1_000_000)).to.have.length(2_500 * 9);
    expect(() => safeRichText('description', '<x>'.repeat(5_001), 1_000_000))
      .to.throw(ValidationError)
      .with.property('params')
      .that.deep.equals({ description: 'description holds 5001 HTML tags: at most 5000' });
    // `<` as text is no tag.
    expect(safeRichText('excerpt', 'a < b, '.repeat(6_000), 1_000_000)).to.include('a &lt; b');
  });
});

describe('domain/html readableText (a calendar DESCRIPTION)', () => {
  it('keeps paragraphs apart by a blank line and line breaks, collapses spaces within lines', () => {
    expect(
      readableText('<h2>Title</h2><p>one  &amp;\n two</p><p>t<b>w</b>o<br>three</p><ul><li>a</li><li>b</li></ul>'),
    ).to.equal('Title\n\none & two\n\ntwo\nthree\n\na\nb');
  });

  it("writes a link's address after its text unless the text shows it; hidden text stays hidden", () => {
    expect(
      readableText(
        '<p>See <a href="https://x.org/e">our page</a>, <a href="https://y.org">https://y.org</a><script>no</script></p>',
      ),
    ).to.equal('See our page (https://x.org/e), https://y.org');
    expect(readableText(null)).to.equal('');
    expect(readableText('plain   text')).to.equal('plain text');
  });
});
