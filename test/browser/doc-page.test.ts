import { existsSync } from 'node:fs';
import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from '../support/api';
import { testWorld } from '../support/harness';
import { searchReady } from '../support/lists';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Opens `path` and collects what would show a broken page: console errors and failed requests. */
async function open(browser: Browser, path: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText ?? ''}`));
  page.on('request', (req) => {
    if (!req.url().startsWith(testWorld().baseUrl) && !req.url().startsWith('data:'))
      problems.push(`external request: ${req.url()}`);
  });
  await page.goto(`${testWorld().baseUrl}${path}`);
  return { page, problems };
}

describe('the API reference page (headless Chromium)', function () {
  this.timeout(120_000);
  let browser: Browser;

  before(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is not installed at ${CHROMIUM}: run \`apt-get install -y chromium\` (CI installs it in .ci/run)`,
      );
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    await searchReady();
  });

  after(async () => {
    await browser?.close();
  });

  it('lists the events operations, served entirely by the service', async () => {
    const { page, problems } = await open(browser, `${ROOT}/doc?format=html`);
    await page.locator('.opblock-tag[data-tag="events"]').waitFor({ timeout: 60_000 });
    const operations = await page
      .locator('#operations-tag-events ~ div .opblock, .opblock-tag-section:has(#operations-tag-events) .opblock')
      .evaluateAll((blocks) =>
        blocks.map(
          (b) =>
            `${b.querySelector('.opblock-summary-method')?.textContent} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
        ),
      );
    for (const expected of [
      'GET /events',
      'POST /events',
      'GET /events/{id}',
      'PATCH /events/{id}',
      'DELETE /events/{id}',
      'GET /events/by-slug/{slug}',
    ]) {
      expect(operations).to.include(expected);
    }
    expect(await page.locator('.opblock-summary-description', { hasText: 'Create an event' }).count()).to.equal(1);
    expect(await page.title()).to.include('calendar/events/v1');
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it('tries an operation against the running service ("Try it out")', async () => {
    const { page, problems } = await open(browser, `${ROOT}/doc?format=html#/events/getEvents`);
    const block = page.locator('#operations-events-getEvents');
    await block.waitFor({ timeout: 60_000 });
    if (!(await block.locator('.try-out__btn').isVisible())) await block.locator('.opblock-summary').click();
    await block.locator('.try-out__btn').click();
    await block.locator('.execute').click();
    const status = block.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 30_000 });
    expect((await status.textContent())?.trim()).to.equal('200');
    const shown = await block.locator('.live-responses-table .response-col_description pre').first().textContent();
    expect(JSON.parse(shown ?? 'null'))
      .to.have.property('events')
      .that.is.an('array');
    expect(await block.locator('.request-url').textContent()).to.include(`${testWorld().baseUrl}${ROOT}/events`);
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it('is in French under /fr, loading assets and the document from the same prefix', async () => {
    const { page, problems } = await open(browser, `/fr${ROOT}/doc?format=html`);
    await page.locator('.opblock-summary-description', { hasText: 'Créer un événement' }).waitFor({ timeout: 60_000 });
    const sources = await page
      .locator('script[src]')
      .evaluateAll((scripts) => scripts.map((s) => s.getAttribute('src')));
    expect(sources).to.deep.equal([`/fr${ROOT}/doc/assets/swagger-ui-bundle.js`, `/fr${ROOT}/doc/assets/doc-init.js`]);
    expect(await page.locator('html').getAttribute('lang')).to.equal('fr');
    expect(problems).to.deep.equal([]);
    await page.close();
  });
});
