import type {
  ClientSending,
  DomainIdentityStatus,
  SenderIdentities,
  TenantStatus,
} from '../../../shared/domain/domains/sender-identities.js';

/**
 * SenderIdentities in memory: records every call in order, creates identities PENDING with three DKIM tokens; a test
 * sets an identity's status (`identities`) or makes the next call of a kind throw (`failNext`).
 */
export class FakeSenderIdentities implements SenderIdentities {
  readonly calls: string[] = [];
  readonly identities = new Map<string, DomainIdentityStatus & { tenant: string }>();
  readonly tenants = new Set<string>();
  readonly failNext = new Map<keyof SenderIdentities, Error>();

  async ensureClientSending(clientId: number): Promise<ClientSending> {
    this.call('ensureClientSending', String(clientId));
    const tenant = `els-client-${clientId}`;
    this.tenants.add(tenant);
    return { tenant, configurationSet: 'els-clients' };
  }

  async createDomainIdentity(
    domain: string,
    options: { tenant: string; mailFromDomain: string },
  ): Promise<{ dkimTokens: string[] }> {
    this.call('createDomainIdentity', `${domain} ${options.tenant} ${options.mailFromDomain}`);
    const existing = this.identities.get(domain);
    const dkimTokens = existing?.dkimTokens ?? ['tok1', 'tok2', 'tok3'].map((t) => `${t}${domain.length}`);
    this.identities.set(domain, {
      verifiedForSending: existing?.verifiedForSending ?? false,
      dkimStatus: existing?.dkimStatus ?? 'PENDING',
      dkimTokens,
      mailFromDomain: options.mailFromDomain,
      mailFromStatus: existing?.mailFromStatus ?? 'PENDING',
      tenant: options.tenant,
    });
    return { dkimTokens };
  }

  async getDomainIdentity(domain: string): Promise<DomainIdentityStatus | undefined> {
    this.call('getDomainIdentity', domain);
    const found = this.identities.get(domain);
    if (!found) return undefined;
    const { tenant: _tenant, ...status } = found;
    return structuredClone(status);
  }

  async deleteDomainIdentity(domain: string): Promise<void> {
    this.call('deleteDomainIdentity', domain);
    this.identities.delete(domain);
  }

  async tenantStatus(tenant: string): Promise<TenantStatus> {
    this.call('tenantStatus', tenant);
    return { status: 'ENABLED' };
  }

  /** Marks the identity as SES would once it found the DKIM records (and MAIL FROM's MX). */
  verify(domain: string): void {
    const found = this.identities.get(domain);
    if (!found) throw new Error(`no identity ${domain}`);
    Object.assign(found, { verifiedForSending: true, dkimStatus: 'SUCCESS', mailFromStatus: 'SUCCESS' });
  }

  private call(kind: keyof SenderIdentities, detail: string): void {
    this.calls.push(`${kind} ${detail}`);
    const error = this.failNext.get(kind);
    if (error) {
      this.failNext.delete(kind);
      throw error;
    }
  }
}
