import { describe, expect, inject, it } from 'vitest';
import { createContainer } from '../../../shared/composition/container.js';
import { localSenderIdentities } from '../../../shared/composition/providers/local-sender-identities.js';
import { loadConfig } from '../../../shared/config.js';
import { request } from '../support/api.js';

/** The runtime's local SES registry, read and written from the test as the admin CLI would (same table). */
function registry() {
  const container = createContainer({
    config: loadConfig({
      ...process.env,
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: inject('tableName'),
    }),
  });
  return container.use(localSenderIdentities);
}

/** A client id no other test's tenant uses. */
const freshClientId = (): number => 900_000_000 + Math.floor(Math.random() * 99_999_999);

describe('POST /dev/ses-tenants/{tenant}/status (local runtime only)', () => {
  it("pauses a client's tenant with a cause and resumes it, as the local SES then reports it", async () => {
    // Prepare
    const identities = registry();
    const { tenant } = await identities.ensureClientSending(freshClientId());

    // Act
    const paused = await request('POST', `/dev/ses-tenants/${tenant}/status`, {
      body: { status: 'DISABLED', cause: 'Bounce rate above 10%' },
    });
    const whilePaused = await identities.tenantStatus(tenant);
    const resumed = await request('POST', `/dev/ses-tenants/${tenant}/status`, { body: { status: 'ENABLED' } });

    // Assess
    expect(paused.status).toBe(200);
    expect(paused.body.data).toEqual({ tenant, status: 'DISABLED', cause: 'Bounce rate above 10%' });
    expect(whilePaused).toEqual({ status: 'DISABLED', cause: 'Bounce rate above 10%' });
    expect(resumed.body.data).toEqual({ tenant, status: 'ENABLED' });
    await expect(identities.tenantStatus(tenant)).resolves.toEqual({ status: 'ENABLED' });
  });

  it('keeps a tenant paused when the client’s sending is ensured again (idempotent, as SES’s CreateTenant)', async () => {
    // Prepare
    const identities = registry();
    const clientId = freshClientId();
    const { tenant } = await identities.ensureClientSending(clientId);
    await request('POST', `/dev/ses-tenants/${tenant}/status`, { body: { status: 'DISABLED' } });

    // Act
    await identities.ensureClientSending(clientId);

    // Assess
    await expect(identities.tenantStatus(tenant)).resolves.toEqual({ status: 'DISABLED' });
  });

  it('answers 404 for a tenant the local SES does not hold, and 422 for a status it does not know', async () => {
    const missing = await request('POST', '/dev/ses-tenants/els-client-0/status', { body: { status: 'DISABLED' } });
    const invalid = await request('POST', '/dev/ses-tenants/els-client-0/status', { body: { status: 'PAUSED' } });
    expect(missing.status).toBe(404);
    expect(invalid.status).toBe(422);
  });
});
