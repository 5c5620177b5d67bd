import { expect } from 'chai';
import { Metrics } from '../../../src/metrics/registry';

/** The sample lines (not HELP/TYPE) of `name` in a Prometheus text exposition. */
const samplesOf = (text: string, name: string) =>
  text.split('\n').filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`));

describe('metrics/registry: scrape-time gauges', () => {
  it('shows the sync backlog while MongoDB answers, and leaves it absent (not 0) while it does not', async () => {
    let mongoAnswers = true;
    const metrics = new Metrics().observe({
      backlog: async () => {
        if (!mongoAnswers) throw new Error('MongoDB is down');
        return { pending: 7, oldestPendingMs: 2_500 };
      },
      mongo: async () => mongoAnswers,
      elasticsearch: async () => true,
    });
    const up = (await metrics.render()).body;
    expect(samplesOf(up, 'calendar_sync_backlog_entries')).to.deep.equal(['calendar_sync_backlog_entries 7']);
    expect(samplesOf(up, 'calendar_sync_oldest_pending_seconds')).to.deep.equal([
      'calendar_sync_oldest_pending_seconds 2.5',
    ]);
    mongoAnswers = false;
    await new Promise((resolve) => setTimeout(resolve, 300)); // past the scrape snapshot's lifetime
    const down = (await metrics.render()).body;
    expect(samplesOf(down, 'calendar_sync_backlog_entries')).to.deep.equal([]);
    expect(samplesOf(down, 'calendar_sync_oldest_pending_seconds')).to.deep.equal([]);
    expect(samplesOf(down, 'calendar_dependency_up')).to.include('calendar_dependency_up{dependency="mongo"} 0');
  });
});
