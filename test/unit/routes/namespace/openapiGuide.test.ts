import { expect } from 'chai';
import { GUIDES } from '../../../../src/api/namespace/openapiGuide';

/**
 * The code-formatted terms of a guide (parameters, values, headers, examples), each as often as it
 * appears; placeholders and the example language root may be the guide's own.
 */
function terms(guide: string): string[] {
  return [...guide.matchAll(/`([^`]+)`/g)]
    .map((match) => match[1]!.replace(/<(key|clé|Schlüssel)>/g, '<key>').replace(/^\/(en|fr|de)\/…$/, '/{lang}/…'))
    .sort();
}

describe('routes/namespace/openapiGuide', () => {
  // A sentence left out of a translation drops its terms: fr and de once lacked two rules en has.
  for (const lang of ['fr', 'de'] as const) {
    it(`the ${lang} guide names every parameter, value and example the en guide does, as often`, () => {
      expect(terms(GUIDES[lang])).to.deep.equal(terms(GUIDES.en));
    });
  }
});
