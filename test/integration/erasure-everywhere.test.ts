import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keys } from '../../shared/adapters/dynamo/keys.js';
import { compileIndex } from '../../shared/domain/segments/definition/specs.js';
import { call } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { eventually } from './support/eventually.js';
import { documentClient } from './support/partition.js';
import {
  awaitStatus,
  deliveredAt,
  HUMAN_IP,
  HUMAN_UA,
  injectAndAwait,
  later,
  MINUTE_MS,
  SENT_STATUS,
  sesEvent,
  sesMailOf,
  signUp,
} from './tracking/support.js';

/**
 * docs/privacy.md, tested: a contact whose data is in every place the service keeps a contact's data — the contact
 * with its custom fields and locks, an event (metadata, idempotency key), executions, a sent e-mail with opened and
 * clicked logs (ip, user agent, url), webhook messages and attempts that echo them — is erased, then the whole table is
 * read (a Scan of DynamoDB Local) for the address, the names, the phone, the custom value and the client_contact_id
 * anywhere, and for the ip, user agent and url in this client's items. Nothing is left: what privacy.md says is kept
 * after an erasure (the hashed suppression marker, ids, statuses and times) holds none of them.
 */
let server: Server;
let base: string;
const received: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push(body);
      // An echo, as many receivers answer: the attempt log keeps the first 1 KB of it.
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"echo":${body}}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Every item of the table (DynamoDB Local, test side), paged. */
async function everyItem(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({ TableName: inject('tableName'), ExclusiveStartKey: start }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Whether an item belongs to the client: its keys name it, or it says so (`client_id`). */
const ofClient = (item: Record<string, unknown>, clientId: number): boolean =>
  item['client_id'] === clientId ||
  ['pk', 'gsi1pk', 'gsi2pk'].some(
    (k) => typeof item[k] === 'string' && (item[k] as string).split('#').includes(String(clientId)),
  );

describe('erasure reaches every copy privacy.md lists', () => {
  it('leaves no trace of the contact in the table', async () => {
    // Prepare: the contact, with data in every place
    const created = await createTestClient();
    const client = { id: created.id, api_key: created.api_key };
    const key = client.api_key;
    const tag = randomUUID().slice(0, 8);
    const address = `ximena-${tag}@example.com`;
    const first = `Ximena${tag}`;
    const last = `Quarrington${tag}`;
    const phone = `+1555${tag.replace(/\D/g, '').padEnd(7, '7').slice(0, 7)}`;
    const uid = `crm-${tag}`;
    const custom = `likes-${tag}`;
    const link = `https://acme.test/pricing?who=${tag}`;
    expect((await call('POST', '/client/webhooks', { key, body: { url: `${base}/everything` } })).status).toBe(201);
    // Segments: one every contact is in, one counting the contact's events (as the segments API compiles them).
    await documentClient().send(
      new PutCommand({
        TableName: inject('tableName'),
        Item: {
          ...keys.segmentIndex(client.id),
          version: 1,
          ...compileIndex([
            {
              id: 1,
              version: 1,
              definition: {
                match: 'all',
                groups: [{ match: 'all', conditions: [{ on: 'tag', op: 'has_not', tag: 'x' }] }],
              },
            },
            {
              id: 2,
              version: 1,
              definition: {
                match: 'all',
                groups: [
                  {
                    match: 'all',
                    conditions: [{ on: 'event_count', event: 'feature_used', op: 'at_least', count: 1 }],
                  },
                ],
              },
            },
          ]),
        },
      }),
    );
    const contact = await call('POST', '/client/contacts', {
      key,
      body: {
        email: address,
        first_name: first,
        last_name: last,
        phone,
        company: `Co ${tag}`,
        client_contact_id: uid,
        custom_fields: { note: custom },
      },
    });
    expect(contact.status, contact.text).toBe(201);
    const tracked = await signUp(client, address);
    const email = await awaitStatus(key, tracked.email.id, SENT_STATUS.delivered);
    const t = { ...tracked, email };
    const openedAt = later(deliveredAt(email), MINUTE_MS);
    await injectAndAwait(t, sesEvent.open(sesMailOf(t), openedAt), openedAt);
    const clickedAt = later(openedAt, MINUTE_MS);
    await injectAndAwait(t, sesEvent.click(sesMailOf(t), clickedAt, link), clickedAt);
    const event = await call('POST', '/client/events?sync=true', {
      key,
      body: {
        type: 'feature_used',
        email: address,
        feature: 'reports',
        metadata: { asked_by: first },
        idempotency_key: `used-${address}`,
      },
    });
    expect(event.status, event.text).toBe(201);
    expect(
      (await call('PATCH', `/client/contacts/${t.contactId}/subscription`, { key, body: { is_subscribed: false } }))
        .status,
    ).toBe(200);
    // The webhook receiver got the address, the names, the ip and the url, and echoed them into the attempts log.
    await eventually(
      'the deliveries about the contact',
      async () => {
        const all = received.join('\n');
        return all.includes(address) && all.includes(last) && all.includes(HUMAN_IP) && all.includes(tag)
          ? true
          : undefined;
      },
      { timeoutMs: 20_000 },
    );
    const personal = [address, first, last, phone, uid, custom, `Co ${tag}`, link];
    const traces = (items: Record<string, unknown>[]) =>
      items.flatMap((item) => {
        const text = JSON.stringify(item);
        const found = [
          ...personal.filter((p) => text.includes(p)),
          ...(ofClient(item, client.id) ? [HUMAN_IP, HUMAN_UA].filter((p) => text.includes(p)) : []),
        ];
        return found.length > 0 ? [`${String(item['pk'])} / ${String(item['sk'])}: ${found.join(', ')}`] : [];
      });
    // The test sees them before: each kind of item that holds them is found.
    const before = traces(
      await eventually(
        'the attempts logged',
        async () => {
          const items = await everyItem();
          return items.some(
            (i) =>
              String(i['pk']).startsWith('WHATT#') && ofClient(i, client.id) && JSON.stringify(i).includes(address),
          )
            ? items
            : undefined;
        },
        { timeoutMs: 20_000 },
      ),
    );
    const kinds = new Set(before.map((line) => line.split('#')[0]));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['CONTACT', 'EVENT', 'SENT', 'UID', 'WHATT', 'WHMSG']));
    // What segments keep of the contact: its counters, its state, its member entries.
    const contactPk = keys.contact(client.id, t.contactId).pk;
    const segmentItems = (items: Record<string, unknown>[]) =>
      items
        .filter(
          (i) =>
            (i['pk'] === contactPk && ['EVCOUNT', 'SEGSTATE'].includes(String(i['sk']))) ||
            (i['entity'] === 'segment_member' && i['client_id'] === client.id && i['contact_id'] === t.contactId),
        )
        .map((i) => String(i['sk']).replace(/^0+/, ''))
        .sort();
    await eventually('the contact in its segments', async () => {
      const found = segmentItems(await everyItem());
      return found.length === 4 ? found : undefined;
    });

    // Act
    const erased = await call('DELETE', `/client/contacts/${t.contactId}`, { key });

    // Assess
    expect(erased.status, erased.text).toBe(200);
    const after = await everyItem();
    expect(traces(after)).toEqual([]);
    expect(segmentItems(after)).toEqual([]);
  });
});
