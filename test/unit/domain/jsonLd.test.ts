import { expect } from 'chai';
import { eventJsonLd, type JsonLdEventSource } from '../../../src/presenters/jsonLd';

const base: JsonLdEventSource = {
  title: 'Jazz & Wine',
  description: '<p>An <strong>evening</strong> of jazz &amp; &quot;wine&quot; &#233;t&#xE9;.</p>',
  image: { url: 'https://img.example/jazz.jpg' },
  url: 'http://calendar.test/event/jazz-wine/',
  all_day: false,
  start_date: '2025-07-14 20:00:00',
  end_date: '2025-07-14 23:00:00',
  utc_start_date: '2025-07-14 18:00:00',
  utc_end_date: '2025-07-14 21:00:00',
  timezone: 'Europe/Paris',
  cost_details: { currency_symbol: '€', currency_position: 'postfix', values: ['10', '20'] },
  venue: {
    venue: 'Le Caveau',
    url: 'http://calendar.test/venue/le-caveau/',
    address: '1 rue de la Paix',
    city: 'Paris',
    stateprovince: 'IDF',
    zip: '75002',
    country: 'France',
    phone: '+33 1 23',
    website: null,
    geo_lat: 48.87,
    geo_lng: 2.33,
  },
  organizer: [
    {
      organizer: 'Jazz Club',
      email: 'hi@jazz.example',
      phone: '555',
      website: 'https://jazz.example',
      url: 'http://calendar.test/organizer/jazz-club/',
    },
  ],
};

describe('domain/jsonLd', () => {
  it('names the event by its title as written: titles are plain text, not HTML', () => {
    expect(eventJsonLd({ ...base, title: 'a<b>c &amp; d' }).name).to.equal('a<b>c &amp; d');
  });

  it('dates an event by its UTC instant, also in the hour clocks repeat, and an all-day event by its days', () => {
    const repeatedHour = eventJsonLd({
      ...base,
      start_date: '2030-10-27 02:30:00',
      end_date: '2030-10-27 02:45:00',
      utc_start_date: '2030-10-27 00:30:00',
      utc_end_date: '2030-10-27 01:45:00',
      timezone: 'Europe/Berlin',
    });
    expect([repeatedHour.startDate, repeatedHour.endDate]).to.deep.equal([
      '2030-10-27T02:30:00+02:00',
      '2030-10-27T02:45:00+01:00',
    ]);
    const allDay = eventJsonLd({
      ...base,
      all_day: true,
      start_date: '2030-05-10 00:00:00',
      end_date: '2030-05-12 23:59:59',
      utc_start_date: '2030-05-09 22:00:00',
      utc_end_date: '2030-05-12 21:59:59',
    });
    expect([allDay.startDate, allDay.endDate]).to.deep.equal(['2030-05-10', '2030-05-12']);
    // ISO 8601 offsets have no seconds: a local mean time is given in UTC, naming the same instant.
    const meanTime = eventJsonLd({
      ...base,
      start_date: '1800-06-01 12:00:00',
      end_date: '1800-06-01 13:00:00',
      utc_start_date: '1800-06-01 16:56:02',
      utc_end_date: '1800-06-01 17:56:02',
      timezone: 'America/New_York',
    });
    expect([meanTime.startDate, meanTime.endDate]).to.deep.equal(['1800-06-01T16:56:02Z', '1800-06-01T17:56:02Z']);
  });

  it('builds a schema.org Event with location, organizer and offers', () => {
    expect(eventJsonLd(base)).to.deep.equal({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Jazz & Wine',
      description: 'An evening of jazz & "wine" été.',
      image: 'https://img.example/jazz.jpg',
      url: 'http://calendar.test/event/jazz-wine/',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      eventStatus: 'https://schema.org/EventScheduled',
      startDate: '2025-07-14T20:00:00+02:00',
      endDate: '2025-07-14T23:00:00+02:00',
      location: {
        '@type': 'Place',
        name: 'Le Caveau',
        url: 'http://calendar.test/venue/le-caveau/',
        telephone: '+33 1 23',
        address: {
          '@type': 'PostalAddress',
          streetAddress: '1 rue de la Paix',
          addressLocality: 'Paris',
          addressRegion: 'IDF',
          postalCode: '75002',
          addressCountry: 'France',
        },
        geo: { '@type': 'GeoCoordinates', latitude: 48.87, longitude: 2.33 },
      },
      organizer: [
        {
          '@type': 'Person',
          name: 'Jazz Club',
          telephone: '555',
          email: 'hi@jazz.example',
          url: 'https://jazz.example',
        },
      ],
      offers: [
        { '@type': 'Offer', price: '10', priceCurrency: 'EUR', url: 'http://calendar.test/event/jazz-wine/' },
        { '@type': 'Offer', price: '20', priceCurrency: 'EUR', url: 'http://calendar.test/event/jazz-wine/' },
      ],
    });
  });

  it('leaves out what is unknown: no venue (so no place and no attendance mode), organizer, image, cost or address', () => {
    const bare = eventJsonLd({
      ...base,
      description: null,
      image: false,
      timezone: 'UTC',
      utc_start_date: base.start_date,
      utc_end_date: base.end_date,
      cost_details: { currency_symbol: '', currency_position: 'prefix', values: [] },
      venue: [],
      organizer: [],
    });
    expect(bare).to.deep.equal({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Jazz & Wine',
      url: 'http://calendar.test/event/jazz-wine/',
      eventStatus: 'https://schema.org/EventScheduled',
      startDate: '2025-07-14T20:00:00Z',
      endDate: '2025-07-14T23:00:00Z',
    });
  });

  it('omits geo and empty addresses, and a currency it cannot name', () => {
    const ld = eventJsonLd({
      ...base,
      venue: { venue: 'Somewhere', url: 'http://calendar.test/venue/somewhere/' },
      cost_details: { currency_symbol: '₿', currency_position: 'prefix', values: ['1'] },
    });
    expect(ld.location).to.deep.equal({
      '@type': 'Place',
      name: 'Somewhere',
      url: 'http://calendar.test/venue/somewhere/',
    });
    expect(ld.offers).to.deep.equal([{ '@type': 'Offer', price: '1', url: 'http://calendar.test/event/jazz-wine/' }]);
  });
});
