import { describe, expect, it } from 'vitest';
import { EXECUTION_STATUS } from '../../../../shared/domain/executions/execution-record.js';
import type { JourneyDefinition } from '../../../../shared/domain/journeys/definition/types.js';
import type { JourneyVersionRecord } from '../../../../shared/domain/journeys/journey-records.js';
import type { ExecutionMessage } from '../../../../shared/platform.js';
import { CLIENT_ID, engineHarness, NOW } from '../engine/engine-harness.js';

const definition: JourneyDefinition = {
  trigger: { event: 'trial_started', reentry: { mode: 'always' } },
  entry: 'hello',
  steps: [
    { id: 'hello', type: 'send', template_id: 1, priority_score: 70, send_time: { mode: 0 }, next: 'pause' },
    { id: 'pause', type: 'wait', minutes: 60, next: null },
  ],
  settings: { category: 'transactional', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
};
const version: JourneyVersionRecord = {
  client_id: CLIENT_ID,
  journey_id: 1000,
  version: 1,
  definition,
  moves: {},
  published_at: NOW,
};

/** The engine over memory ports with one live client journey: event processing, advance-runs and the executor. */
async function journeyEngine() {
  const h = await engineHarness();
  Object.assign(h.stores.journeys, {
    indexOf: () => ({
      version: 1,
      journeys: [
        {
          id: 1000,
          name: 'Trial',
          status: 'live',
          live_version: 1,
          trigger: definition.trigger,
          entry: definition.entry,
          settings: definition.settings,
          awaited_events: [],
          templates_in_use: [1],
        },
      ],
    }),
    versionOf: (_c: number, j: number, v: number) => (j === 1000 && v === 1 ? version : undefined),
  });
  return h;
}

describe('a journey’s send step through the executor', () => {
  it('is sent as an execution, and its end wakes the run, which goes on to its next step and ends', async () => {
    // Prepare
    const h = await journeyEngine();
    const ann = await h.contact();
    const event = await h.ingest({ type: 'trial_started', email: ann.email });
    await h.process(event.id);
    const [entry] = h.journeyMessages();

    // Act: the run's first step, the executor's send, the wake, the wait's end.
    const sent = await h.advance(entry!);
    const execution = h.queue.sent.find((s) => s.queue === 'workflow')!.message as ExecutionMessage;
    const executed = await h.execute(execution.execution_id);
    const wake = h.journeyMessages().at(-1)!;
    const woken = await h.advance(wake);
    h.clock.advance(60 * 60_000);
    // An hour's wait: beyond SQS's 15 minutes, its message comes from a schedule.
    const done = await h.advance(h.scheduler.scheduled.at(-1)!.message as typeof wake);

    // Assess
    expect(sent.kind).toBe('moved');
    expect(executed).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
    expect(h.mailer.emails).toHaveLength(1);
    expect(wake).toEqual({
      client_id: CLIENT_ID,
      run_id: entry!.run_id,
      seq: 2,
      contact_id: ann.id,
      execution_id: execution.execution_id,
      // The run's journey and version at that seq: a cold container reads the version in the run's one BatchGet.
      journey_id: 1000,
      version: 1,
    });
    expect(woken.kind).toBe('moved');
    expect(done.kind).toBe('moved');
    const run = await h.run(entry!.run_id);
    expect(run).toMatchObject({ status: 'completed', seq: 4 });
    expect(run!.path.map((p) => p.step)).toEqual(['hello', 'pause']);
    // The contact's open entry went with the send; its active count is back where it was.
    const contact = (await h.storedContact(ann.id)) as unknown as Record<string, unknown>;
    expect(contact).not.toHaveProperty(`open_${execution.execution_id}`);
    expect(contact).not.toHaveProperty(`run_${entry!.run_id}`);
    expect(contact['total_emails_sent']).toBe(1);
  });

  it('leaves a run woken twice (a duplicate wake) moved once', async () => {
    // Prepare
    const h = await journeyEngine();
    const ann = await h.contact();
    const event = await h.ingest({ type: 'trial_started', email: ann.email });
    await h.process(event.id);
    await h.advance(h.journeyMessages()[0]!);
    const execution = h.queue.sent.find((s) => s.queue === 'workflow')!.message as ExecutionMessage;
    await h.execute(execution.execution_id);
    const wake = h.journeyMessages().at(-1)!;

    // Act
    const first = await h.advance(wake);
    const second = await h.advance(wake);
    // The executor meets the execution again (a duplicate delivery): it wakes the run again, which is stale now.
    await h.execute(execution.execution_id);
    const third = await h.advance(h.journeyMessages().at(-1)!);

    // Assess
    expect(first.kind).toBe('moved');
    expect(second).toEqual({ kind: 'stale' });
    expect(third).toEqual({ kind: 'stale' });
    expect((await h.run(wake.run_id))!.path.map((p) => p.step)).toEqual(['hello']);
  });
});
