import { describe, expect, it } from 'vitest';
import { crashRun } from '../../scripts/chaos/crash-run.js';

/**
 * The operator's crash runs against `npm start` as a user runs it (its own process group, DATA_DIR, real DynamoDB Local
 * and SES emulator): what must hold whatever dies when — no accepted event lost, no e-mail sent twice, no execution
 * left unfinished. Sized for this suite; `npm run bench:crash` runs the 1,000-event version and reports its timing.
 * The same with journeys: journey-crash.test.ts.
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
});
