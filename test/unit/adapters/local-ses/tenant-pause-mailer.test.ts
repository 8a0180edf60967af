import { describe, expect, it } from 'vitest';
import { TenantPauseMailer } from '../../../../shared/adapters/local-ses/tenant-pause-mailer.js';
import type { TenantStatus } from '../../../../shared/domain/domains/sender-identities.js';
import type { Mailer, OutboundEmail } from '../../../../shared/platform.js';

const email: OutboundEmail = {
  from: 'hello@acme.example',
  to: 'ada@example.com',
  subject: 'S',
  html: '<p>H</p>',
  text: 'T',
};

function mailerWith(statuses: Record<string, TenantStatus>) {
  const sent: OutboundEmail[] = [];
  const inner: Mailer = {
    send: async (e) => {
      sent.push(e);
      return { kind: 'sent', providerMessageId: `m-${sent.length}` };
    },
  };
  return { sent, mailer: new TenantPauseMailer(inner, async (tenant) => statuses[tenant]) };
}

describe('TenantPauseMailer (the local SES refusing a paused tenant)', () => {
  it("throws SES's SendingPausedException for a send naming a DISABLED tenant, sending nothing", async () => {
    // Prepare
    const { sent, mailer } = mailerWith({ 'els-client-7': { status: 'DISABLED', cause: 'bounce rate 12%' } });

    // Act & Assess
    await expect(mailer.send({ ...email, tenant: 'els-client-7' })).rejects.toMatchObject({
      name: 'SendingPausedException',
      message: expect.stringContaining('bounce rate 12%'),
    });
    expect(sent).toEqual([]);
  });

  it.each([
    ['an ENABLED tenant', { ...email, tenant: 'els-client-8' }],
    ['a REINSTATED tenant', { ...email, tenant: 'els-client-9' }],
    ['a tenant the registry does not hold', { ...email, tenant: 'els-client-10' }],
    ["the service's own mail (no tenant)", email],
  ])('sends through %s', async (_case, outbound) => {
    // Prepare
    const { sent, mailer } = mailerWith({
      'els-client-7': { status: 'DISABLED' },
      'els-client-8': { status: 'ENABLED' },
      'els-client-9': { status: 'REINSTATED' },
    });

    // Act
    const result = await mailer.send(outbound);

    // Assess
    expect(result).toEqual({ kind: 'sent', providerMessageId: 'm-1' });
    expect(sent).toEqual([outbound]);
  });
});
