import { describe, expect, it } from 'vitest';
import { journeyCrashRun, type JourneyCrashRunReport } from '../../scripts/chaos/journey-crash-run.js';

/**
 * The crash run with journeys against `npm start` (scripts/chaos/journey-crash-run.ts): contacts abandon carts into
 * the cart journey; half check out while their run waits, a tenth at its timeout ± 2 s, the rest never. The journey's
 * 1-minute timeout runs on the local runtime's journey clock (LOCAL_JOURNEY_MINUTE_MS, 15 s), so the suite does not
 * wait real minutes. Sized for this suite; `npm run bench:crash -- --journey` runs 1,000 contacts.
 */
const MINUTE_MS = 15_000;

/** What must hold whatever died or failed when: one run each, one way out agreeing with the events, one reminder per timeout. */
function expectEveryRunEndedOneWay(report: JourneyCrashRunReport, contacts: number) {
  expect(report).toMatchObject({
    accepted: contacts,
    runs: { total: contacts, byStatus: { completed: contacts } },
    extraRuns: 0,
    checkoutsSent: report.race.early.contacts + report.race.edge.contacts,
    mismatched: 0,
    resumedWithoutCheckout: 0,
    eventsUnprocessed: 0,
    runDueLeft: 0,
    remindersMissing: 0,
    remindersUnexpected: 0,
    duplicateEmails: 0,
  });
  expect(report.waysOut).toEqual({
    on_event: report.race.early.on_event + report.race.edge.on_event,
    on_timeout: contacts - report.race.early.on_event - report.race.edge.on_event,
    other: 0,
  });
  // Those who never check out all time out; each timed-out run mailed its reminder exactly once, nobody else.
  expect(report.race.none.on_timeout).toBe(report.race.none.contacts);
  expect(report.emails).toBe(report.waysOut.on_timeout);
  expect(report.executions).toEqual({ total: report.waysOut.on_timeout, byStatus: { '3': report.waysOut.on_timeout } });
  // The journey's counters agree, and its gauge is back to 0.
  expect(report.stats).toEqual({
    waitingNow: 0,
    entered: contacts,
    ways: {
      ...(report.waysOut.on_event ? { on_event: report.waysOut.on_event } : {}),
      on_timeout: report.waysOut.on_timeout,
    },
  });
  // The race was run, not skipped: most checkouts sent while their run waited won it.
  expect(report.race.early.on_event).toBeGreaterThanOrEqual(report.race.early.contacts / 2);
}

describe('journeys: nothing stranded', () => {
  it('150 carts, a SIGKILL once carts, checkouts and timeouts are all in flight: every run ends one way, one reminder per timeout, none twice', async () => {
    // Act
    const report = await journeyCrashRun({
      contacts: 150,
      killAfter: 60,
      minuteMs: MINUTE_MS,
      log: (line) => console.log(`[journey] ${line}`),
    });

    // Assess
    expect(report.kill).toBeDefined();
    expect(report.kill!.ways.on_event).toBeGreaterThan(0);
    expect(report.kill!.ways.on_timeout).toBeGreaterThan(0);
    expectEveryRunEndedOneWay(report, 150);
  });

  it('under injected faults (SES resets after accepting, DynamoDB throttling and resets after a write, SQS send failures): the same', async () => {
    // Act: timings compressed as the local queue compresses SQS's (docs/development.md "Fault injection")
    const report = await journeyCrashRun({
      contacts: 40,
      minuteMs: MINUTE_MS,
      faults: 'ses:reset-after-send:0.05,dynamo:throttle:0.05,dynamo:reset-after-write:0.02,sqs:send-fail:0.02',
      faultsSeed: 18,
      env: { EXECUTION_LEASE_SECONDS: '10', LOCAL_SWEEP_EVERY_SECONDS: '5', OUTBOX_SWEEP_AFTER_SECONDS: '5' },
      log: (line) => console.log(`[journey faults] ${line}`),
    });

    // Assess: the faults did happen, and changed nothing of the outcome
    expect(report.faultsInjected?.['dynamo']?.total).toBeGreaterThan(0);
    expect(report.faultsInjected?.['sqs']?.calls).toBeGreaterThan(0);
    expect(report.faultsInjected?.['ses']?.calls).toBeGreaterThan(0);
    expectEveryRunEndedOneWay(report, 40);
  });
});
