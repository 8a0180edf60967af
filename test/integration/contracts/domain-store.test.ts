import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { memoryStores } from '../../../shared/adapters/memory/memory-stores.js';
import { createContainer, type Container } from '../../../shared/composition/container.js';
import { domainStore } from '../../../shared/composition/providers/domain-store.js';
import { settingsStore } from '../../../shared/composition/providers/settings-store.js';
import type { Ports } from '../../../shared/composition/port-registry.js';
import { loadConfig } from '../../../shared/config.js';
import type { DomainRecord } from '../../../shared/domain/domains/schemas.js';
import { AT, freshClientId, LATER } from './support.js';

/** The DomainStore contract, on the memory adapter and on the DynamoDB adapter against DynamoDB Local. */
type DomainPorts = Pick<Ports, 'domains' | 'settings'>;

let dynamo: Container | undefined;

const ADAPTERS: [string, () => DomainPorts][] = [
  ['memory', () => memoryStores()],
  [
    'dynamodb',
    () => {
      dynamo ??= createContainer({
        config: loadConfig({
          AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
          TABLE_NAME: inject('tableName'),
          AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
          CONFIG_CACHE_TTL_SECONDS: '0',
        }),
      });
      return dynamo.resolve([domainStore, settingsStore]);
    },
  ],
];

let lastId = Date.now() % 1_000_000_000;
const nextId = (): number => {
  lastId += 1;
  return lastId;
};
const claimOf = (clientId: number, domain: string, extra: Partial<DomainRecord> = {}): DomainRecord => ({
  id: nextId(),
  client_id: clientId,
  domain,
  status: 'awaiting_proof',
  challenge_token: randomUUID(),
  created_at: AT,
  updated_at: AT,
  mail_from_domain: `bounce.${domain}`,
  checks: 0,
  next_check_at: AT,
  version: 1,
  ...extra,
});
const freshDomain = () => `c-${randomUUID().slice(0, 12)}.contract.example`;
const proven = (r: DomainRecord): DomainRecord => ({
  ...r,
  status: 'verifying',
  proven_at: LATER,
  version: r.version + 1,
});
const verified = (r: DomainRecord): DomainRecord => {
  const { next_check_at: _, ...rest } = r;
  return { ...rest, status: 'verified', verified_at: LATER, version: r.version + 1 };
};
const senderOf = async (ports: DomainPorts, clientId: number) =>
  (await ports.settings.load(clientId, '2026-01')).sender;

describe.each(ADAPTERS)('DomainStore contract (%s)', (_name, adapter) => {
  it('creates a claim, reads it back, and refuses a second claim of the name by the same client', async () => {
    // Prepare
    const ports = adapter();
    const client = freshClientId();
    const domain = freshDomain();
    const first = claimOf(client, domain);

    // Act
    const created = await ports.domains.create(first, 10);
    const again = await ports.domains.create(claimOf(client, domain), 10);

    // Assess
    expect(created).toBe('created');
    expect(again).toEqual({ refused: 'duplicate', domainId: first.id });
    expect(await ports.domains.get(client, first.id)).toEqual(first);
    expect(await ports.domains.list(client)).toEqual([first]);
  });

  it('refuses a claim over the limit; a claim that failed unproven frees its place and its name', async () => {
    // Prepare
    const ports = adapter();
    const client = freshClientId();
    const held = [claimOf(client, freshDomain()), claimOf(client, freshDomain())];
    for (const r of held) await ports.domains.create(r, 2);

    // Act
    const over = await ports.domains.create(claimOf(client, freshDomain()), 2);
    const { next_check_at: _, ...settled } = held[0]!;
    const released = await ports.domains.failUnproven({
      ...settled,
      status: 'failed',
      failure_reason: 'challenge_not_found',
      version: 2,
    });
    const sameName = await ports.domains.create(claimOf(client, held[0]!.domain), 2);

    // Assess
    expect(over).toEqual({ refused: 'limit' });
    expect(released).toBe(true);
    expect(sameName).toBe('created');
  });

  it('gives the proof lock to the first client; another is then refused at claim and at proof', async () => {
    // Prepare
    const ports = adapter();
    const [a, b] = [freshClientId(), freshClientId()];
    const domain = freshDomain();
    const aClaim = claimOf(a, domain);
    const bClaim = claimOf(b, domain);
    await ports.domains.create(aClaim, 10);
    await ports.domains.create(bClaim, 10);

    // Act
    const aProof = await ports.domains.prove(proven(aClaim));
    const bProof = await ports.domains.prove(proven(bClaim));
    const cClaim = await ports.domains.create(claimOf(freshClientId(), domain), 10);
    const stale = await ports.domains.prove(proven(aClaim));

    // Assess
    expect([aProof, bProof, cClaim, stale]).toEqual([
      'proven',
      'claimed_elsewhere',
      { refused: 'claimed_elsewhere' },
      'stale',
    ]);
    expect(await ports.domains.proofHolder(domain)).toBe(a);
    expect((await ports.domains.get(b, bClaim.id))?.status).toBe('awaiting_proof');
  });

  it("stores the tenant and each verified domain once, in order, on the client's sender state", async () => {
    // Prepare
    const ports = adapter();
    const client = freshClientId();
    const [first, second] = [claimOf(client, freshDomain()), claimOf(client, freshDomain())];
    for (const r of [first, second]) {
      await ports.domains.create(r, 10);
      await ports.domains.prove(proven(r));
    }

    // Act
    const identity = { ...proven(first), identity_created_at: LATER, dkim_tokens: ['a', 'b', 'c'], version: 3 };
    await ports.domains.saveIdentity(identity, { tenant: `els-client-${client}`, configurationSet: 'els-clients' });
    await ports.domains.markVerified(verified(identity));
    await ports.domains.markVerified(verified({ ...proven(second), version: 2 }));
    const repeated = await ports.domains.markVerified({ ...verified(identity), version: 5 });

    // Assess
    expect(repeated).toBe(true);
    expect(await senderOf(ports, client)).toEqual({
      verified_domains: [first.domain, second.domain],
      tenant: `els-client-${client}`,
      configuration_set: 'els-clients',
    });
  });

  it('deletes a verified claim with its locks and its verified entry, so another client may prove the name', async () => {
    // Prepare
    const ports = adapter();
    const [a, b] = [freshClientId(), freshClientId()];
    const [kept, gone] = [claimOf(a, freshDomain()), claimOf(a, freshDomain())];
    for (const r of [kept, gone]) {
      await ports.domains.create(r, 10);
      await ports.domains.prove(proven(r));
      await ports.domains.markVerified(verified(proven(r)));
    }
    const stored = (await ports.domains.get(a, gone.id))!;

    // Act
    const deleted = await ports.domains.delete(stored);
    const deletedAgain = await ports.domains.delete(stored);
    const other = claimOf(b, gone.domain);
    const reclaimed = await ports.domains.create(other, 10);
    const reproven = await ports.domains.prove(proven(other));

    // Assess
    expect([deleted, deletedAgain, reclaimed, reproven]).toEqual([true, false, 'created', 'proven']);
    expect((await senderOf(ports, a))?.verified_domains).toEqual([kept.domain]);
    expect(await ports.domains.list(a)).toEqual([(await ports.domains.get(a, kept.id))!]);
  });

  it('pages the claims due for a check, and none settled or due later', async () => {
    // Prepare
    const ports = adapter();
    const client = freshClientId();
    const due = [1, 2, 3].map((m) => claimOf(client, freshDomain(), { next_check_at: `2020-01-01T00:0${m}:00.000Z` }));
    const later = claimOf(client, freshDomain(), { next_check_at: '2999-01-01T00:00:00.000Z' });
    const settled = claimOf(client, freshDomain(), { next_check_at: '2020-01-01T00:00:00.000Z' });
    for (const r of [...due, later, settled]) await ports.domains.create(r, 10);
    await ports.domains.prove(proven(settled));
    await ports.domains.markVerified(verified(proven(settled)));

    // Act
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await ports.domains.dueChecks('2020-06-01T00:00:00.000Z', 2, cursor);
      seen.push(...page.due.filter((d) => d.client_id === client).map((d) => d.domain_id));
      cursor = page.cursor;
    } while (cursor);

    const read = await ports.domains.getMany([
      ...seen.map((domain_id) => ({ client_id: client, domain_id })),
      { client_id: client, domain_id: 1 },
    ]);

    // Assess
    expect(seen).toEqual(due.map((r) => r.id));
    expect(read.sort((a, b) => a.id - b.id)).toEqual(due);
  });
});
