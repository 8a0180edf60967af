import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { streamFunctions, type StreamFunctionDefinition } from '../../../../functions/streams.js';
import { matches } from '../../../../local/engine/stream-poller.js';
import { factsOfStreamRecords } from '../../../../shared/adapters/dynamo/webhook-stream-facts.js';
import { factIdentity } from '../../../../shared/domain/webhooks/facts.js';
import { buildWebhookMessage } from '../../../../shared/domain/webhooks/webhook-payloads.js';

const AT = '2026-11-28T10:00:00.000Z';
const LATER = '2026-11-28T11:00:00.000Z';

const record = (
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  next?: Record<string, unknown>,
  previous?: Record<string, unknown>,
): DynamoDBRecord => ({
  eventID: 'e1',
  eventName,
  dynamodb: {
    ApproximateCreationDateTime: Date.parse(LATER) / 1000,
    Keys: marshall({ pk: (next ?? previous)!['pk'], sk: (next ?? previous)!['sk'] }) as never,
    ...(next ? { NewImage: marshall(next, { removeUndefinedValues: true }) as never } : {}),
    ...(previous ? { OldImage: marshall(previous, { removeUndefinedValues: true }) as never } : {}),
  },
});
const domain = (status: string, extra: Record<string, unknown> = {}) => ({
  pk: 'CLIENT#7',
  sk: 'DOMAIN#000000000003',
  entity: 'domain',
  id: 3,
  client_id: 7,
  domain: 'acme.example',
  status,
  challenge_token: 'secret-token',
  created_at: AT,
  updated_at: AT,
  checks: 1,
  version: 2,
  ...extra,
});
const sender = (extra: Record<string, unknown> = {}) => ({
  pk: 'CLIENT#7',
  sk: 'SENDER',
  entity: 'sender',
  verified_domains: ['acme.example'],
  tenant: 'els-client-7',
  ...extra,
});

describe('domain and sending facts in the table change stream', () => {
  it('reads a domain that became verified or failed, once; no other write of a domain', () => {
    // Act
    const facts = factsOfStreamRecords([
      record('INSERT', domain('awaiting_proof')), // the claim
      record('MODIFY', domain('verifying'), domain('awaiting_proof')), // proven
      record('MODIFY', domain('verifying', { checks: 2 }), domain('verifying')), // a check
      record('MODIFY', domain('verified', { verified_at: LATER }), domain('verifying')),
      record('MODIFY', domain('verified', { dmarc: { policy: 'none' } }), domain('verified', { verified_at: LATER })),
      record(
        'MODIFY',
        domain('failed', { failure_reason: 'claimed_elsewhere', failed_at: LATER }),
        domain('awaiting_proof'),
      ),
      record('REMOVE', undefined, domain('verified')), // deleted
      record('MODIFY', { pk: 'CLIENT#7', sk: 'DOMAINNAME#acme.example', domain_id: 3 }, { pk: 'CLIENT#7', sk: 'X' }),
    ]);

    // Assess
    expect(facts).toEqual([
      {
        kind: 'domain',
        type: 'domain.verified',
        client_id: 7,
        domain: {
          id: 3,
          domain: 'acme.example',
          status: 'verified',
          failure_reason: null,
          verified_at: LATER,
          at: LATER,
        },
      },
      {
        kind: 'domain',
        type: 'domain.failed',
        client_id: 7,
        domain: {
          id: 3,
          domain: 'acme.example',
          status: 'failed',
          failure_reason: 'claimed_elsewhere',
          verified_at: null,
          at: LATER,
        },
      },
    ]);
  });

  it('sends the domain, its status, failure reason and verification time, and never the challenge token', () => {
    // Prepare
    const [fact] = factsOfStreamRecords([
      record('MODIFY', domain('verified', { verified_at: LATER }), domain('verifying')),
    ]);

    // Act
    const message = buildWebhookMessage(fact!, {});

    // Assess
    expect(JSON.parse(message.payload)).toEqual({
      type: 'domain.verified',
      id: message.id,
      created_at: LATER,
      data: { domain: { id: 3, domain: 'acme.example', status: 'verified', failure_reason: null, verified_at: LATER } },
    });
    expect(message.payload).not.toContain('secret-token');
  });

  it('reads a tenant pause that appeared as sending.paused and one that went as sending.resumed; nothing else', () => {
    // Act
    const facts = factsOfStreamRecords([
      record('INSERT', sender()),
      record('MODIFY', sender({ verified_domains: ['acme.example', 'b.example'] }), sender()),
      record('MODIFY', sender({ tenant_paused_at: AT, tenant_paused_reason: 'Reputation policy' }), sender()),
      record(
        'MODIFY',
        sender({ tenant_paused_at: AT, tenant_paused_reason: 'Reputation policy', verified_domains: [] }),
        sender({ tenant_paused_at: AT, tenant_paused_reason: 'Reputation policy' }),
      ),
      record('MODIFY', sender(), sender({ tenant_paused_at: AT, tenant_paused_reason: 'Reputation policy' })),
    ]);

    // Assess
    expect(facts).toEqual([
      {
        kind: 'sending',
        type: 'sending.paused',
        client_id: 7,
        sending: { tenant: 'els-client-7', paused_at: AT, reason: 'Reputation policy' },
        at: AT,
        pause_began_at: AT,
      },
      {
        kind: 'sending',
        type: 'sending.resumed',
        client_id: 7,
        sending: { tenant: 'els-client-7', paused_at: null, reason: null },
        at: LATER,
        pause_began_at: AT,
      },
    ]);
    expect(JSON.parse(buildWebhookMessage(facts[0]!, {}).payload).data).toEqual({
      sending: { tenant: 'els-client-7', paused_at: AT, reason: 'Reputation policy' },
    });
  });

  it('gives a fact read twice the same identity', () => {
    // Prepare
    const change = record('MODIFY', domain('verified', { verified_at: LATER }), domain('verifying'));

    // Act
    const [first, again] = factsOfStreamRecords([change, change]);

    // Assess
    expect(factIdentity(first!)).toBe(factIdentity(again!));
  });

  it("lets a domain's and the sender state's changes through the webhook-facts filter, and not the name locks", () => {
    // Prepare
    const webhookFacts = streamFunctions.find((f) => f.handler === 'webhook-facts') as StreamFunctionDefinition;

    // Act
    const passed = [
      domain('verified'),
      sender(),
      { pk: 'CLIENT#7', sk: 'DOMAINNAME#acme.example', domain_id: 3 },
      { pk: 'CLIENT#7', sk: 'DOMAINS', n: 1 },
      { pk: 'DOMAINCLAIM#acme.example', sk: 'DOMAINCLAIM', client_id: 7 },
      { pk: 'CLIENT#7', sk: 'SETTINGS', id: 1 },
    ].map((item) => matches(webhookFacts, record('INSERT', item)));

    // Assess
    expect(passed).toEqual([true, true, false, false, false, false]);
  });
});
