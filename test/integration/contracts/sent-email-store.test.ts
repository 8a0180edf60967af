import { describe, expect, it } from 'vitest';
import { SENT_STATUS } from '../../../shared/domain/sent-emails/sent-email-record.js';
import {
  createContact,
  ENGINE_ADAPTERS,
  executionRecord,
  reservation,
  seedExecutions,
  type EnginePorts,
} from './engine-support.js';
import { freshClientId, LATER } from './support.js';

/** A sent e-mail as the sender leaves it after its claim (the store's only writer). */
async function claimedEmail(stores: EnginePorts) {
  const clientId = freshClientId();
  const contact = await createContact(stores, clientId);
  const [execution] = await seedExecutions(stores, clientId, [executionRecord(clientId, contact.id)]);
  const r = reservation(execution!);
  await stores.delivery.claim(r);
  return { clientId, r };
}

describe.each(ENGINE_ADAPTERS)('SentEmailStore contract (%s)', (_name, makeStores) => {
  it('reads a sent e-mail without its logs, within its client only', async () => {
    const stores = makeStores();
    const { clientId, r } = await claimedEmail(stores);

    expect(await stores.sentEmails.get(clientId, r.sentEmail.id)).toEqual(r.sentEmail);
    expect(await stores.sentEmails.get(freshClientId(), r.sentEmail.id)).toBeUndefined();
    expect(await stores.sentEmails.get(clientId, '00000000-0000-8000-8000-000000000000')).toBeUndefined();
  });

  it('appends logs, oldest first; the same log appended twice is one entry', async () => {
    // Prepare
    const stores = makeStores();
    const { clientId, r } = await claimedEmail(stores);
    const sent = { id: 'log-2', created_at: LATER, status: SENT_STATUS.sent, provider_message_id: 'ses-1' } as const;
    const opened = {
      id: 'log-3',
      created_at: '2026-01-15T12:00:00.000Z',
      status: SENT_STATUS.opened,
      ip_address: '203.0.113.9',
      is_bot: false,
    };

    // Act
    await stores.sentEmails.addLog(clientId, r.sentEmail.id, opened);
    await stores.sentEmails.addLog(clientId, r.sentEmail.id, sent);
    await stores.sentEmails.addLog(clientId, r.sentEmail.id, sent);

    // Assess
    expect(await stores.sentEmails.getWithLogs(clientId, r.sentEmail.id)).toEqual({
      email: r.sentEmail,
      logs: [r.log, sent, opened],
    });
  });

  it('finds no e-mail with logs for an unknown id or another client', async () => {
    const stores = makeStores();
    const { clientId, r } = await claimedEmail(stores);

    expect(await stores.sentEmails.getWithLogs(freshClientId(), r.sentEmail.id)).toBeUndefined();
    expect(await stores.sentEmails.getWithLogs(clientId, '00000000-0000-8000-8000-000000000000')).toBeUndefined();
  });
});
