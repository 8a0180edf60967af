import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { documentClient } from '../support/partition.js';
import { sesMailsTo } from '../support/ses-mailbox.js';
import { HUMAN_UA, injectSesEvent, sesEvent, snsEnvelope } from '../tracking/support.js';

/**
 * Segments on engagement with one broadcast, over HTTP against the local runtime: a broadcast to 3 contacts, one opened
 * by a person and one by Apple Mail Privacy Protection (a machine, which never counts). "Opened broadcast B" holds
 * exactly the person's contact and "sent B, opened none" the two others — both segments made before the opens, so the
 * change stream moves them, and "not opened" read by its backfill from the sends. Another client's broadcast is a 422
 * `reference` at its path.
 */
interface BroadcastView {
  status: string;
  totals: { sent: number; human_opens: number; machine_opens: number };
}

const opened = (broadcastId: number) => ({
  match: 'all',
  groups: [
    { match: 'all', conditions: [{ on: 'engagement', op: 'human_opened', source: { broadcast_id: broadcastId } }] },
  ],
});
const notOpened = (broadcastId: number) => ({
  match: 'all',
  groups: [
    { match: 'all', conditions: [{ on: 'engagement', op: 'not_opened', source: { broadcast_id: broadcastId } }] },
  ],
});

async function membersOf(key: string, segmentId: number): Promise<number[]> {
  const page = await call('GET', `/client/segments/${segmentId}/contacts?per_page=100`, { key });
  expect(page.status, page.text).toBe(200);
  return (page.body.data.contacts as { id: number }[]).map((c) => c.id).sort((a, b) => a - b);
}

const membersBecome = (key: string, segmentId: number, expected: number[]) =>
  eventually(
    `segment ${segmentId} members ${JSON.stringify(expected)}`,
    async () => {
      const members = await membersOf(key, segmentId);
      return JSON.stringify(members) === JSON.stringify(expected) ? members : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 500 },
  );

async function mailOf(address: string) {
  const [mail, ...more] = await sesMailsTo(address);
  expect(more, address).toHaveLength(0);
  return {
    messageId: mail!.messageId,
    timestamp: new Date(mail!.at * 1000).toISOString(),
    source: mail!.from,
    destination: [address],
    tags: { 'ses:configuration-set': ['email-lifecycle'] },
  };
}

describe('segments on engagement with one broadcast', () => {
  it('"opened B" holds the contact a person opened it for, "not opened B" the two others', async () => {
    // Prepare: 3 contacts, a broadcast sent to them.
    const client = await createTestClient('scale');
    const key = client.api_key;
    const run = randomUUID().slice(0, 8);
    const addresses = ['a', 'b', 'c'].map((n) => `es-${n}-${run}@example.com`);
    const contactIds: number[] = [];
    for (const email of addresses) {
      const made = await call('POST', '/client/contacts', { key, body: { email } });
      expect(made.status, made.text).toBe(201);
      contactIds.push(made.body.data.id as number);
    }
    const created = await call('POST', '/client/broadcasts', {
      key,
      body: {
        name: 'News',
        definition: {
          audience: { all_subscribed: true },
          category: 'marketing',
          variants: [{ template_id: 1, subject: 'News' }],
          schedule: { mode: 'now' },
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    const broadcastId = created.body.data.id as number;
    const openedSegment = await call('POST', '/client/segments', {
      key,
      body: { name: 'Opened B', definition: opened(broadcastId) },
    });
    expect(openedSegment.status, openedSegment.text).toBe(201);
    await call('POST', `/client/broadcasts/${broadcastId}/schedule`, { key, body: { draft_version: 1 } });
    await eventually(
      'broadcast sent to 3',
      async () => {
        const view = (await call('GET', `/client/broadcasts/${broadcastId}`, { key })).body.data as BroadcastView;
        return view.status === 'sent' && view.totals.sent === 3 ? view : undefined;
      },
      { timeoutMs: 120_000 },
    );
    const notOpenedSegment = await call('POST', '/client/segments', {
      key,
      body: { name: 'Not opened B', definition: notOpened(broadcastId) },
    });
    expect(notOpenedSegment.status, notOpenedSegment.text).toBe(201);
    const openedId = openedSegment.body.data.id as number;
    const notOpenedId = notOpenedSegment.body.data.id as number;
    await membersBecome(
      key,
      notOpenedId,
      [...contactIds].sort((a, b) => a - b),
    );
    expect(await membersOf(key, openedId)).toEqual([]);

    // Act: the first contact's e-mail opened in a browser, the second's by Apple Mail Privacy Protection.
    const mails = await Promise.all(addresses.map(mailOf));
    const at = new Date().toISOString();
    await injectSesEvent(snsEnvelope(sesEvent.open(mails[0]!, at, { userAgent: HUMAN_UA })));
    await injectSesEvent(
      snsEnvelope(sesEvent.open(mails[1]!, at, { userAgent: 'Mozilla/5.0', ipAddress: '17.58.101.1' })),
    );
    await eventually(
      '1 human open, 1 machine',
      async () => {
        const view = (await call('GET', `/client/broadcasts/${broadcastId}`, { key })).body.data as BroadcastView;
        return view.totals.human_opens === 1 && view.totals.machine_opens === 1 ? view : undefined;
      },
      { timeoutMs: 60_000 },
    );

    // Assess
    await membersBecome(key, openedId, [contactIds[0]!]);
    await membersBecome(
      key,
      notOpenedId,
      [contactIds[1]!, contactIds[2]!].sort((a, b) => a - b),
    );
    const other = await createTestClient('scale');
    const foreign = await call('POST', '/client/segments', {
      key: other.api_key,
      body: { name: 'Theirs', definition: opened(broadcastId) },
    });
    expect(foreign.status, foreign.text).toBe(422);
    expect(foreign.body.errors).toEqual([
      expect.objectContaining({ condition: 'reference', key: 'definition.groups.0.conditions.0.source.broadcast_id' }),
    ]);

    // The engagement items are personal data: the contact's erasure deletes them.
    const engagementSks = async (contactId: number) => {
      const out = await documentClient().send(
        new QueryCommand({
          TableName: inject('tableName'),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :eng)',
          ExpressionAttributeValues: { ':pk': keys.contact(client.id, contactId).pk, ':eng': 'ENG#' },
          ConsistentRead: true,
        }),
      );
      return (out.Items ?? []).map((i) => String(i['sk']));
    };
    expect(await engagementSks(contactIds[0]!)).toEqual([`ENG#B${broadcastId}`]);
    const erased = await call('DELETE', `/client/contacts/${contactIds[0]}`, { key });
    expect(erased.status, erased.text).toBe(200);
    expect(await engagementSks(contactIds[0]!)).toEqual([]);
  }, 300_000);
});
