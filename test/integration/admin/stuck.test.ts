import { describe, expect, inject, it } from 'vitest';
import { EXECUTION_STATUS } from '../../../shared/domain/executions/execution-record.js';
import {
  createClient,
  createContact,
  ENGINE_ADAPTERS,
  eventRecord,
  executionRecord,
  reservation,
  seedExecutions,
} from '../contracts/engine-support.js';
import { freshClientId } from '../contracts/support.js';
import { runAdmin } from '../support/admin-cli.js';

// The real DynamoDB adapters on the shared runtime's DynamoDB Local (whose periodic sweeps are off).
const stores = ENGINE_ADAPTERS.find(([name]) => name === 'dynamodb')![1];
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

/** A client with two claims (one 10 minutes old, one 10 seconds old) and two queued events of the same ages. */
async function stranded() {
  const ports = stores();
  const clientId = freshClientId();
  await createClient(ports, clientId);
  const contact = await createContact(ports, clientId, { active_workflow_count: 2 });
  const [old, fresh] = await seedExecutions(ports, clientId, [
    executionRecord(clientId, contact.id),
    executionRecord(clientId, contact.id),
  ]);
  const claimedAt = ago(600);
  await ports.delivery.claim(reservation(old!, { at: claimedAt }));
  await ports.delivery.claim(reservation(fresh!, { at: ago(10) }));
  const oldEvent = eventRecord(clientId, { created_at: ago(600), ts: ago(600) });
  await ports.events.insert(oldEvent);
  await ports.events.insert(eventRecord(clientId, { created_at: ago(10), ts: ago(10) }));
  return { clientId, old: old!, claimedAt, oldEvent };
}

const store = () => ({ AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'), TABLE_NAME: inject('tableName') });

// Each case starts the CLI (tsx): seconds apiece on a busy 2-core machine.
describe("npm run admin -- stuck (the shared runtime's DynamoDB Local)", { timeout: 60_000 }, () => {
  it("prints the executions at 2 past the local runtime's 60 s lease and the events queued over 120 s, one JSON line each", async () => {
    // Prepare
    const { clientId, old, claimedAt, oldEvent } = await stranded();

    // Act: other suites leave claims in the shared table; the limit covers them all.
    const run = await runAdmin(['stuck', '--limit', '100000'], store());

    // Assess
    expect(run.code).toBe(0);
    const mine = run.lines.filter((line) => line['client_id'] === clientId);
    expect(mine).toEqual([
      {
        kind: 'execution',
        client_id: clientId,
        execution_id: old.id,
        status: EXECUTION_STATUS.executing,
        reason: null,
        outcome_unknown: false,
        retry_pending: false,
        updated_at: claimedAt,
        scheduled_for: old.scheduled_for,
        past_lease_seconds: expect.any(Number),
      },
      {
        kind: 'event',
        client_id: clientId,
        event_id: oldEvent.id,
        created_at: oldEvent.created_at,
        age_seconds: expect.any(Number),
      },
    ]);
    expect(mine[0]!['past_lease_seconds']).toBeGreaterThanOrEqual(540);
    expect(mine[0]!['past_lease_seconds']).toBeLessThan(600);
    expect(mine[1]!['age_seconds']).toBeGreaterThanOrEqual(600);
    expect(run.stderr).toMatch(/executions at 2 past their 60 s lease, \d+ events queued over 120 s \(DynamoDB at /);
  });

  it('takes the lease and the queued age it is given', async () => {
    // Prepare
    const { clientId } = await stranded();

    // Act
    const run = await runAdmin(
      ['stuck', '--lease-seconds', '900', '--queued-seconds', '5', '--limit', '100000'],
      store(),
    );

    // Assess: the 10-minute claim is inside a 15-minute lease; both events are older than 5 s.
    expect(run.code).toBe(0);
    const mine = run.lines.filter((line) => line['client_id'] === clientId);
    expect(mine.map((line) => line['kind'])).toEqual(['event', 'event']);
    expect(run.stderr).toContain('past their 900 s lease');
  });

  it('refuses a lease that is no whole number of seconds before reading anything', async () => {
    // Act
    const run = await runAdmin(['stuck', '--lease-seconds', '1.5'], store());

    // Assess
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--lease-seconds must be an integer ≥ 1, got "1.5"');
  });
});
