import { expect } from 'chai';
import { api } from '../support/api';
import { create, daysFromNow, listIds, searchReady, settle, unique, writeIndexed } from '../support/lists';

interface Embedded {
  id: number;
  parent?: number;
}
interface ListedEvent {
  id: number;
  categories: Embedded[];
  tags: Embedded[];
}

/**
 * Deleting a tag and a category (terms are always deleted permanently): lists stop matching and
 * embedding them, and the deleted category's children, moved up to its parent, keep their events
 * under that parent's filter.
 */
describe('lists: deleting a category and a tag', () => {
  const scope = unique('Deleted terms organizer ');
  const ids: Record<string, number> = {};
  let parentSlug: string;
  let doomedTagSlug: string;

  /** This file's events (scoped by its own organizer: a tag filter would add to the tags tested), as list items by ID. */
  const listed = async (query = ''): Promise<Map<number, ListedEvent>> => {
    const res = await api.get(`/events?organizer=${ids.scope}&per_page=50${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return new Map((res.body.events as ListedEvent[]).map((event) => [event.id, event]));
  };
  const scoped = (query: string) => listIds(`/events?organizer=${ids.scope}&${query}`);
  const embedded = (event: ListedEvent | undefined, field: 'categories' | 'tags') =>
    (event?.[field] ?? []).map((term) => term.id).sort((a, b) => a - b);
  const sorted = (...values: number[]) => [...values].sort((a, b) => a - b);

  before(async function () {
    this.timeout(120_000);
    await searchReady();
    ids.scope = (await create('/organizers', { organizer: scope })).id;
    const parent = await create('/categories', { name: unique('Parent') });
    ids.parent = parent.id;
    parentSlug = parent.slug;
    ids.child = (await create('/categories', { name: unique('Child'), parent: ids.parent })).id;
    ids.grandchild = (await create('/categories', { name: unique('Grandchild'), parent: ids.child })).id;
    const doomedTag = await create('/tags', { name: unique('Doomed') });
    ids.tag = doomedTag.id;
    doomedTagSlug = doomedTag.slug;
    ids.keptTag = (await create('/tags', { name: unique('Kept') })).id;
    const event = async (title: string, days: number, categories: number[], tags: number[]) =>
      (
        await create('/events', {
          title,
          start_date: daysFromNow(days),
          end_date: daysFromNow(days, '23:00:00'),
          categories,
          organizer: [ids.scope],
          tags,
        })
      ).id;
    // Filed under the child and tagged with the doomed tag (and a kept one).
    ids.inChild = await event('In the child', 5, [ids.child], [ids.tag, ids.keptTag]);
    // Filed under the child's child: moves up with it.
    ids.inGrandchild = await event('In the grandchild', 6, [ids.grandchild], [ids.tag]);
    ids.inParent = await event('In the parent', 7, [ids.parent], [ids.keptTag]);
    await settle();
  });

  it('matches and embeds the terms before they are deleted', async () => {
    expect(await scoped(`tags=${ids.tag}`)).to.deep.equal([ids.inChild, ids.inGrandchild]);
    expect(await scoped(`tags=${doomedTagSlug}`)).to.deep.equal([ids.inChild, ids.inGrandchild]);
    expect(await scoped(`categories=${ids.child}`)).to.deep.equal([ids.inChild, ids.inGrandchild]);
    expect(await scoped(`categories=${ids.parent}`)).to.deep.equal([ids.inChild, ids.inGrandchild, ids.inParent]);
    const events = await listed();
    expect(embedded(events.get(ids.inChild), 'categories')).to.deep.equal([ids.child]);
    expect(embedded(events.get(ids.inChild), 'tags')).to.deep.equal(sorted(ids.tag, ids.keptTag));
    expect(events.get(ids.inGrandchild)?.categories[0]).to.include({ id: ids.grandchild, parent: ids.child });
  });

  it('stops matching and embedding them once deleted; the children of the category move to its parent', async () => {
    const deletedTag = await writeIndexed('DELETE', `/tags/${ids.tag}`);
    expect(deletedTag.body.id).to.equal(ids.tag);
    const deletedCategory = await writeIndexed('DELETE', `/categories/${ids.child}`);
    expect(deletedCategory.body).to.include({ id: ids.child, parent: ids.parent });
    // The events that embedded them are reindexed in the background.
    await settle();

    // Filters naming a deleted term are refused as naming no term (they match nothing).
    for (const query of [`tags=${ids.tag}`, `tags=${doomedTagSlug}`]) {
      const res = await api.get(`/events?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.data.params, query).to.have.property('tags');
    }
    const byCategory = await api.get(`/events?categories=${ids.child}`);
    expect(byCategory.status).to.equal(400);
    expect(byCategory.body.data.params).to.have.property('categories');

    // Nothing embeds them any more, in lists as in reads by ID.
    const events = await listed();
    expect([...events.keys()].sort((a, b) => a - b)).to.deep.equal(sorted(ids.inChild, ids.inGrandchild, ids.inParent));
    expect(embedded(events.get(ids.inChild), 'categories')).to.deep.equal([]);
    expect(embedded(events.get(ids.inChild), 'tags')).to.deep.equal([ids.keptTag]);
    expect(embedded(events.get(ids.inGrandchild), 'tags')).to.deep.equal([]);
    for (const id of [ids.inChild, ids.inGrandchild]) {
      const read = await api.get(`/events/${id}`);
      expect(embedded(read.body, 'categories'), `event ${id}`).to.deep.equal(embedded(events.get(id), 'categories'));
      expect(embedded(read.body, 'tags'), `event ${id}`).to.deep.equal(embedded(events.get(id), 'tags'));
    }

    // The grandchild now hangs from the parent, as its events' embedded copy says.
    expect(events.get(ids.inGrandchild)?.categories).to.have.length(1);
    expect(events.get(ids.inGrandchild)?.categories[0]).to.include({ id: ids.grandchild, parent: ids.parent });
    // The parent's filter still matches the events of the moved grandchild, no longer those of the
    // deleted child itself (unlinked); the kept tag still matches its events.
    expect(await scoped(`categories=${ids.parent}`)).to.deep.equal([ids.inGrandchild, ids.inParent]);
    expect(await scoped(`categories=${parentSlug}`)).to.deep.equal([ids.inGrandchild, ids.inParent]);
    expect(await scoped(`categories=${ids.grandchild}`)).to.deep.equal([ids.inGrandchild]);
    expect(await scoped(`tags=${ids.keptTag}`)).to.deep.equal([ids.inChild, ids.inParent]);
    // Category lists agree: the grandchild is the parent's child now.
    expect(await listIds(`/categories?parent=${ids.parent}&hide_empty=false`)).to.deep.equal([ids.grandchild]);
  });
});
