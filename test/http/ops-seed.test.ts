import { expect } from 'chai';
import { LANGUAGES } from '../../config';
import { CITIES } from '../../src/tools/demo/demoPlaces';
import { seedDemo, type SeedResult } from '../../src/tools/demo/demoData';
import { verifySync } from '../../src/tools/verify/verify';
import type { EventDoc } from '../../src/storage/stores';
import { request } from '../support/api';
import { testWorld } from '../support/harness';
import { searchReady, settle } from '../support/lists';
import { runScript } from '../support/scripts';

const NOW = new Date('2026-06-01T00:00:00Z');

describe('ops: demo data (npm run seed, seedDemo)', function () {
  this.timeout(300_000);
  let seeded: SeedResult;

  before(async function () {
    this.timeout(300_000);
    await searchReady();
    seeded = await seedDemo(testWorld().services, { events: 120, seed: 11, now: NOW, index: 'reindex' });
  });

  after(async function () {
    this.timeout(120_000);
    // The last test leaves events unindexed on purpose: queue them, so later tests find the index in sync.
    await verifySync(testWorld().services, { kinds: ['event'], repair: true });
    await settle(60_000);
  });

  it('creates the expected counts and returns every ID', async () => {
    const { stores } = testWorld().services;
    expect(seeded.counts).to.deep.equal({ events: 120, venues: 8, organizers: 5, categories: 18, tags: 13 });
    for (const [kind, ids] of Object.entries(seeded.ids)) {
      expect(ids, kind).to.have.length(seeded.counts[kind as keyof SeedResult['counts']]);
      expect(new Set(ids).size, `${kind} IDs are distinct`).to.equal(ids.length);
    }
    expect((await stores.events.getMany(seeded.ids.events)).size).to.equal(120);
    expect((await stores.venues.getMany(seeded.ids.venues)).size).to.equal(8);
  });

  it('stops between chunks once interrupted (Ctrl-C), keeping what it inserted', async () => {
    const { stores } = testWorld().services;
    const before = await stores.events.highestId();
    const controller = new AbortController();
    const error = await seedDemo(testWorld().services, {
      events: 20,
      chunkSize: 5,
      seed: 12,
      now: NOW,
      index: 'worker',
      signal: controller.signal,
      onProgress: () => controller.abort(),
    }).catch((err: unknown) => err);
    expect((error as Error).name).to.equal('InterruptedError');
    expect((error as Error).message).to.match(/^interrupted after 5 of 20 events/);
    expect((await stores.events.getRange(before + 1, Number.MAX_SAFE_INTEGER)).size).to.equal(5);
  });

  it('writes content in all three languages, translations included', async () => {
    const events = [...(await testWorld().services.stores.events.getMany(seeded.ids.events)).values()];
    for (const lang of LANGUAGES) {
      expect(events.filter((e) => e.originalLang === lang).length, `written first in ${lang}`).to.be.greaterThan(0);
      expect(events.filter((e) => e.docs[lang]).length, `documents in ${lang}`).to.be.greaterThan(10);
    }
    const translated = events.filter((e) => Object.keys(e.docs).length > 1);
    expect(translated.length).to.be.greaterThan(20).and.lessThan(120);
    const sample = translated.find((e) => e.docs.fr && e.docs.de)!;
    expect(sample.docs.fr!.title).to.not.equal(sample.docs.de!.title);
    expect(sample.docs.fr!.start).to.deep.equal(sample.docs.de!.start);
  });

  it('venues sit in real cities with coordinates; events take their time zone; past, upcoming and all-day', async () => {
    const { stores } = testWorld().services;
    const venues = await stores.venues.getMany(seeded.ids.venues);
    const zoneOfVenue = new Map<number, string>();
    for (const venue of venues.values()) {
      const doc = venue.docs[venue.originalLang]!;
      const city = CITIES.find((c) => c.name[venue.originalLang] === doc.city)!;
      expect(city, doc.city ?? '').to.not.equal(undefined);
      expect(Math.abs(doc.geo_lat! - city.lat)).to.be.lessThan(0.05);
      expect(Math.abs(doc.geo_lng! - city.lng)).to.be.lessThan(0.05);
      zoneOfVenue.set(venue.id, city.zone);
    }
    const events = [...(await stores.events.getMany(seeded.ids.events)).values()].map(
      (e) => e.docs[e.originalLang] as EventDoc,
    );
    for (const event of events)
      if (event.venues.length > 0) expect(event.timezone).to.equal(zoneOfVenue.get(event.venues[0]!));
    expect(events.filter((e) => e.start < NOW).length).to.be.greaterThan(15);
    expect(events.filter((e) => e.start > NOW).length).to.be.greaterThan(50);
    expect(events.filter((e) => e.all_day).length).to.be.greaterThan(2);
    expect(
      events.filter((e) => e.end.getTime() - e.start.getTime() > 24 * 3600_000).length,
      'multi-day',
    ).to.be.greaterThan(0);
  });

  it('categories form a hierarchy; events carry a category, its parent, tags, venues and organizers', async () => {
    const { stores } = testWorld().services;
    const categories = [...(await stores.categories.getMany(seeded.ids.categories)).values()].map((c) => c.docs.en!);
    expect(categories.filter((c) => c.parent === 0).map((c) => c.slug)).to.have.members([
      'music',
      'arts',
      'food-drink',
      'talks',
      'family',
      'sports',
    ]);
    expect(categories.find((c) => c.slug === 'jazz')?.parent).to.equal(categories.find((c) => c.slug === 'music')?.id);
    const events = [...(await stores.events.getMany(seeded.ids.events)).values()].map(
      (e) => e.docs[e.originalLang] as EventDoc,
    );
    expect(events.every((e) => e.categories.length >= 1)).to.equal(true);
    expect(events.filter((e) => e.tags.length > 0).length).to.be.greaterThan(30);
    expect(events.filter((e) => e.organizers.length > 0).length).to.be.greaterThan(50);
  });

  it('is searchable in each language once seeded with index: reindex, and the index agrees with the database', async () => {
    for (const lang of LANGUAGES) {
      const res = await request('GET', `/${lang}/calendar/events/v1/events?per_page=5`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.events.length).to.be.greaterThan(0);
    }
    // Other suites share this world's database, so read every page of the French venue list.
    const listed: number[] = [];
    for (let page = 1, pages = 1; page <= pages; page++) {
      const fr = await request('GET', `/fr/calendar/events/v1/venues?per_page=50&page=${page}`);
      expect(fr.status).to.equal(200);
      pages = fr.body.total_pages;
      listed.push(...fr.body.venues.map((v: { id: number }) => v.id));
    }
    expect(listed).to.include.members(seeded.ids.venues);
    await settle();
    expect((await verifySync(testWorld().services)).inSync).to.equal(true);
  });

  it('is deterministic for a given seed; reuses existing categories and tags; index: worker queues them', async () => {
    const { services } = testWorld();
    const again = await seedDemo(services, { events: 120, seed: 11, now: NOW, index: 'worker' });
    expect(again.ids.categories).to.deep.equal(seeded.ids.categories);
    expect(again.ids.tags).to.deep.equal(seeded.ids.tags);
    const content = async (ids: number[]) => {
      const records = await services.stores.events.getMany(ids);
      return ids.map((id) => {
        const record = records.get(id)!;
        const doc = record.docs[record.originalLang]!;
        return [
          record.originalLang,
          Object.keys(record.docs).sort().join(),
          doc.title,
          doc.start.toISOString(),
          doc.timezone,
          doc.status,
          doc.cost,
        ];
      });
    };
    expect(await content(again.ids.events)).to.deep.equal(await content(seeded.ids.events));
    expect(await services.sync.pendingCount('event')).to.be.greaterThan(0);
    await settle(60_000);
    expect((await verifySync(services, { kinds: ['event'] })).inSync).to.equal(true);
  });

  it('npm run seed -- --events N --index none: counts printed, nothing queued, Elasticsearch not needed', async () => {
    const { services } = testWorld();
    const result = await runScript('seed', ['--events', '7', '--seed', '3', '--index', 'none'], {
      ELASTICSEARCH_URL: 'http://127.0.0.1:1',
    });
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.match(/^seeded 7 events, 8 venues, 5 organizers, 18 categories, 13 tags in \d+\.\d s$/m);
    expect(result.stdout).to.include('nothing indexed: run "npm run reindex" to make them searchable');
    expect(result.stderr).to.match(/^seed events: 7 records in \d+\.\d s/m);
    expect(await services.sync.pendingCount('event')).to.equal(0);
    const report = await verifySync(services, { kinds: ['event'], langs: ['en'] });
    expect(report.aliases[0]!.missing).to.equal(7);
  });
});
