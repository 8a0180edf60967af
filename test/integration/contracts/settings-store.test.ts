import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SettingsRecord } from '../../../shared/domain/settings/settings-store.js';
import { AT, freshClientId, LATER, STORE_ADAPTERS } from './support.js';

const record = (clientId: number, fields: Partial<SettingsRecord> = {}): SettingsRecord => ({
  id: clientId,
  client_id: clientId,
  tone_of_voice: 1,
  version: 1,
  created_at: AT,
  updated_at: AT,
  timezone: 'Europe/Paris',
  enabled_workflows: [1, 2],
  ...fields,
});

describe.each(STORE_ADAPTERS)('SettingsStore contract (%s)', (_name, makeStores) => {
  it('loads nothing for a client without settings: no row, no profile, no e-mails sent', async () => {
    const { settings } = makeStores();

    expect(await settings.load(freshClientId(), '2026-01')).toEqual({
      settings: undefined,
      client: undefined,
      monthlyEmailsSent: 0,
    });
  });

  it('creates the row once, then writes only over the version it read', async () => {
    // Prepare
    const { settings } = makeStores();
    const clientId = freshClientId();
    const first = record(clientId);

    // Act + Assess
    expect(await settings.save(first, undefined)).toBe(true);
    expect(await settings.save(record(clientId, { timezone: 'UTC' }), undefined)).toBe(false);
    const second = record(clientId, { version: 2, timezone: 'Asia/Tokyo', updated_at: LATER });
    expect(await settings.save(second, 1)).toBe(true);
    expect(await settings.save(record(clientId, { version: 3 }), 1)).toBe(false);
    expect((await settings.load(clientId, '2026-01')).settings).toEqual(second);
  });

  it('loads the client profile with the settings', async () => {
    // Prepare
    const { settings, clients } = makeStores();
    const clientId = freshClientId();
    const hash = randomUUID().replaceAll('-', '').repeat(2);
    const profile = {
      id: clientId,
      client_id: randomUUID(),
      name: 'Acme',
      email: 'ops@acme.test',
      plan: 'growth',
      status: 'active' as const,
      api_key_id: 1,
      api_key_hash: hash,
      api_key_masked: 'els_…abcd',
      api_key_enabled: true,
      created_at: AT,
      updated_at: AT,
    };
    await clients.create(profile, {
      key_hash: hash,
      key_id: 1,
      client_id: clientId,
      enabled: true,
      masked_key: 'els_…abcd',
      created_at: AT,
    });
    await settings.save(record(clientId), undefined);

    // Act
    const bundle = await settings.load(clientId, '2026-01');

    // Assess
    expect(bundle).toEqual({ settings: record(clientId), client: profile, monthlyEmailsSent: 0 });
  });
});
