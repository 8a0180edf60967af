import { describe, expect, it } from 'vitest';
import { broadcastCrashRun, type BroadcastCrashRunReport } from '../../scripts/chaos/broadcast-crash-run.js';

/**
 * The crash run of a broadcast against `npm start` (scripts/chaos/broadcast-crash-run.ts): a `now` broadcast to every
 * subscribed contact, the whole runtime killed with SIGKILL mid-broadcast and started again on the same DATA_DIR.
 * Sized for this suite: 100 contacts paced at 4 e-mails a second (SES_MAX_SEND_RATE 5, the broadcasts' share of it),
 * so the send lasts long enough for the kill to land in it; `npm run bench:crash -- --broadcast` runs 20,000.
 */
const CONTACTS = 100;
const SES_MAX_SEND_RATE = 5;
/**
 * The restart's own recovery must bring the broadcast back: the restarted runtime's sweeps run once at its start and
 * then hourly, so the lost-chain sweep (a chain silent for 2 minutes) cannot finish the broadcast in its place.
 */
const RESTART_ENV = { LOCAL_SWEEP_EVERY_SECONDS: '3600' };
/** From the restart to `sent`: generous, as two cores shared with other runs can be several times slower. */
const SETTLE_TIMEOUT_MS = 240_000;

/** What must hold whatever died when: each recipient mailed exactly once, every recipient finished, the head `sent`. */
function expectEveryRecipientMailedOnce(report: BroadcastCrashRunReport) {
  expect(report).toMatchObject({
    imported: CONTACTS,
    head: { status: 'sent', total: CONTACTS },
    recipients: { total: CONTACTS, contacts: CONTACTS, byStatus: { '3': CONTACTS } },
    stranded: 0,
    dueLeft: 0,
    emails: CONTACTS,
    missing: 0,
    duplicates: 0,
  });
  expect(report.recipients.byStatus).toEqual({ '3': CONTACTS });
  expect(report.clean).toBe(true);
}

describe('broadcasts: exactly once', () => {
  it(`${CONTACTS} recipients, a SIGKILL mid-send and a restart on the same data: each mailed once, every recipient finished, the broadcast sent`, async () => {
    // Act
    const report = await broadcastCrashRun({
      contacts: CONTACTS,
      killAtShare: 0.4,
      sesMaxSendRate: SES_MAX_SEND_RATE,
      restartEnv: RESTART_ENV,
      settleTimeoutMs: SETTLE_TIMEOUT_MS,
      log: (line) => console.log(`[broadcast] ${line}`),
    });

    // Assess: the kill landed mid-send (some mailed, not all), and the restart did not flood (the pacer's chain, not
    // every waiting recipient at once)
    expect(report.kill).toBeDefined();
    expect(report.kill!.mailed).toBeGreaterThan(0);
    expect(report.kill!.mailed).toBeLessThan(CONTACTS);
    expect(report.rate.after).toBeLessThanOrEqual(1.1 * report.pace);
    expectEveryRecipientMailedOnce(report);
  });

  it(`${CONTACTS} recipients, a SIGKILL mid-snapshot and a restart on the same data: the same`, async () => {
    // Act
    const report = await broadcastCrashRun({
      contacts: CONTACTS,
      killAtShare: 'snapshot',
      sesMaxSendRate: SES_MAX_SEND_RATE,
      restartEnv: RESTART_ENV,
      settleTimeoutMs: SETTLE_TIMEOUT_MS,
      log: (line) => console.log(`[broadcast snapshot] ${line}`),
    });

    // Assess: the kill landed while the audience was being snapshotted, before anyone was mailed
    expect(report.kill).toMatchObject({ headStatus: 'snapshotting', mailed: 0 });
    expectEveryRecipientMailedOnce(report);
  });
});
