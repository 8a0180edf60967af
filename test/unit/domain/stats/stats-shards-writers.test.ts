import { describe, expect, it } from 'vitest';
import { sesNotification } from '../../../../local/engine/ses-notifications.js';
import { statsReadShardsOf, statsShardOf } from '../../../../shared/domain/stats/stats-counters.js';
import { getStats } from '../../../../shared/domain/stats/get-stats.js';
import type { SubscriptionPlan } from '../../../../shared/domain/plans/catalog.js';
import type { SettingsFields } from '../../../../shared/domain/settings/settings-store.js';
import { CLIENT_ID, engineHarness, NOW } from '../engine/engine-harness.js';

/**
 * Every writer of the day counters puts a client's facts on the shards its limits give, from what the
 * writer read anyway: processing (settings and profile), the send (its reservation's quota limits, stamped on the
 * claim, the e-mail and its provider-id item), the notifications (the provider-id item's stamp). Memory ports, which
 * key rows as DynamoDB does.
 */
async function signupSent(plan: SubscriptionPlan['tier'], settings: SettingsFields = {}) {
  const h = await engineHarness(
    { enabled_workflows: [1], ...settings },
    { plan, ...(plan === 'free' ? {} : { stats_shards_max: 16 }) },
  );
  const contact = await h.contact();
  const event = await h.ingest({ type: 'signup', email: contact.email });
  const processed = (await h.process(event.id))!;
  const executionId = processed.execution_ids![0]!;
  expect(await h.execute(executionId)).toEqual({ kind: 'finished', status: 3 });
  const at = h.clock.now();
  await h.track(sesNotification({ type: 'Delivery' }, h.mailer.emails[0]!, h.mailer.idOf(0), at, at, 'us-east-1'));
  const rows = [...h.stores.stats.workflowRows.values()];
  const events = [...h.stores.stats.eventRows.values()];
  const shardOf = (name: 'executions' | 'sent' | 'delivered') =>
    rows.filter((r) => r.counts[name] > 0).map((r) => r.shard);
  const email = [...h.stores.sentEmails.data.sentEmails.values()][0]!;
  return { h, contact, eventId: event.id, executionId, rows, events, shardOf, email };
}

describe('the day counters’ writers (memory ports)', () => {
  it('put every fact of a client on the default plan on shard 0, read back by one Query', async () => {
    const { h, events, shardOf, email } = await signupSent('free');

    expect(events.map((r) => r.shard)).toEqual([0]);
    expect(shardOf('executions')).toEqual([0]);
    expect(shardOf('sent')).toEqual([0]);
    expect(shardOf('delivered')).toEqual([0]);
    expect(email.stats_shards).toBe(1);

    const client = (await h.stores.clients.get(CLIENT_ID))!;
    const view = await getStats(
      h.stores,
      { clientId: CLIENT_ID, statsShards: statsReadShardsOf(client) },
      { granularity: 'day', from: NOW.slice(0, 10), to: NOW.slice(0, 10) },
    );
    expect(h.stores.stats.reads).toEqual([{ clientId: CLIENT_ID, shards: 1 }]);
    expect(view.totals).toMatchObject({ executions: 1, sent: 1, delivered: 1 });
    expect(view.events).toEqual({ signup: 1 });
  });

  it('spread a sharded client’s facts over 16 shards by event, execution and contact id, all read back', async () => {
    const { h, contact, eventId, executionId, events, shardOf, email } = await signupSent('scale');

    expect(events.map((r) => r.shard)).toEqual([statsShardOf(eventId, 16)]);
    expect(shardOf('executions')).toEqual([statsShardOf(eventId, 16)]);
    expect(shardOf('sent')).toEqual([statsShardOf(executionId, 16)]);
    expect(shardOf('delivered')).toEqual([statsShardOf(contact.id, 16)]);
    expect(email.stats_shards).toBe(16);
    expect([...h.stores.sentEmails.data.providerMessages.values()][0]!.stats_shards).toBe(16);

    const client = (await h.stores.clients.get(CLIENT_ID))!;
    const view = await getStats(
      h.stores,
      { clientId: CLIENT_ID, statsShards: statsReadShardsOf(client) },
      { granularity: 'day', from: NOW.slice(0, 10), to: NOW.slice(0, 10) },
    );
    expect(h.stores.stats.reads).toEqual([{ clientId: CLIENT_ID, shards: 16 }]);
    expect(view.totals).toMatchObject({ executions: 1, sent: 1, delivered: 1 });
  });

  it('follow the current limits: a sharded plan tightened below the threshold by its settings writes on shard 0, and is still read whole', async () => {
    const { h, events, shardOf, email } = await signupSent('scale', {
      custom_email_quota_per_day: 9_000,
      custom_email_quota_per_month: 200_000,
    });

    expect(events.map((r) => r.shard)).toEqual([0]);
    expect(shardOf('sent')).toEqual([0]);
    expect(shardOf('delivered')).toEqual([0]);
    expect(email.stats_shards).toBe(1);
    const client = (await h.stores.clients.get(CLIENT_ID))!;
    expect(statsReadShardsOf(client)).toBe(16);
  });
});
