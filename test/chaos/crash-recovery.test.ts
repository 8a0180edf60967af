import { describe, expect, it } from 'vitest';
import { crashRun } from '../../scripts/chaos/crash-run.js';
import { journeyCrashRun } from '../../scripts/chaos/journey-crash-run.js';

/**
 * The operator's crash runs against `npm start` as a user runs it (its own process group, DATA_DIR, real DynamoDB Local
 * and SES emulator): what must hold whatever dies when — no accepted event lost, no e-mail sent twice, no execution
 * left unfinished. Sized for this suite; `npm run bench:crash` runs the 1,000-event version and reports its timing.
 */
describe('nothing stranded', () => {
  it('after a SIGKILL of the whole runtime mid-burst and a restart on the same data: every event processed once, every execution finished, one e-mail each', async () => {
    // Act
    const report = await crashRun({ events: 300, killAfter: 100, log: (line) => console.log(`[crash] ${line}`) });

    // Assess
    expect(report).toMatchObject({
      accepted: 300,
      distinctEvents: 300,
      unprocessed: 0,
      duplicateEmails: 0,
      emails: 300,
    });
    expect(report.executions).toEqual({ total: 300, byStatus: { '3': 300 } });
  });

  it('under injected faults (SES resets after accepting and 5xx before, DynamoDB throttling, SQS send failures): the same', async () => {
    // Act: timings compressed as the local queue compresses SQS's (docs/development.md "Fault injection")
    const report = await crashRun({
      events: 150,
      faults: 'ses:reset-after-send:0.05,ses:error-5xx-before-send:0.05,dynamo:throttle:0.05,sqs:send-fail:0.02',
      faultsSeed: 18,
      env: { EXECUTION_LEASE_SECONDS: '10', LOCAL_SWEEP_EVERY_SECONDS: '5', OUTBOX_SWEEP_AFTER_SECONDS: '5' },
      log: (line) => console.log(`[faults] ${line}`),
    });

    // Assess
    expect(report).toMatchObject({
      accepted: 150,
      distinctEvents: 150,
      unprocessed: 0,
      duplicateEmails: 0,
      emails: 150,
    });
    expect(report.executions).toEqual({ total: 150, byStatus: { '3': 150 } });
  });

  it('with journeys: 300 carts, half checked out at their timeout ± 2 s, a SIGKILL at 40 %: every run ends one way, one reminder per timeout, none twice', async () => {
    // Act: the shortest timeout a journey takes (1 minute); the kill lands among the carts, the races after the restart
    const report = await journeyCrashRun({
      contacts: 300,
      killAfter: 120,
      log: (line) => console.log(`[journey] ${line}`),
    });

    // Assess
    expect(report).toMatchObject({
      accepted: 300,
      runs: { total: 300 },
      extraRuns: 0,
      checkoutsSent: 150,
      resumedWithoutCheckout: 0,
      runDueLeft: 0,
      remindersMissing: 0,
      remindersUnexpected: 0,
      duplicateEmails: 0,
    });
    expect(report.runs.byStatus).toEqual({ completed: 300 });
    expect(report.waysOut.other).toBe(0);
    expect(report.waysOut.on_event + report.waysOut.on_timeout).toBe(300);
    // Half never check out, so at least they time out; each timed-out run mailed its reminder once.
    expect(report.waysOut.on_timeout).toBeGreaterThanOrEqual(150);
    expect(report.emails).toBe(report.waysOut.on_timeout);
    expect(report.executions).toEqual({
      total: report.waysOut.on_timeout,
      byStatus: { '3': report.waysOut.on_timeout },
    });
  });
});
