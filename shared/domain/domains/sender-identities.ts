/**
 * The e-mail provider's side of a client's sending (SES v2 on AWS, a registry in the table locally): the client's
 * tenant, its domain identities with their DKIM and MAIL FROM status. Every call is idempotent (an existing tenant,
 * identity or association is no error), so a check that died halfway is simply made again.
 */
export interface ClientSending {
  /** The SES tenant every send of the client names (`TenantName`). */
  tenant: string;
  /** The configuration set associated with the tenant, which publishes the client's delivery events. */
  configurationSet: string;
}

export type DkimStatus = 'PENDING' | 'SUCCESS' | 'FAILED' | 'TEMPORARY_FAILURE' | 'NOT_STARTED';
export type MailFromStatus = 'PENDING' | 'SUCCESS' | 'FAILED' | 'TEMPORARY_FAILURE';

export interface DomainIdentityStatus {
  /** SES may send From the domain. */
  verifiedForSending: boolean;
  dkimStatus: DkimStatus;
  /** The three Easy DKIM tokens: `<token>._domainkey.<domain>` CNAME `<token>.dkim.amazonses.com`. */
  dkimTokens: string[];
  mailFromDomain: string | undefined;
  mailFromStatus: MailFromStatus | undefined;
}

/** A tenant's sending status as SES keeps it: DISABLED is a pause (by SES's reputation policy or an operator). */
export interface TenantStatus {
  status: 'ENABLED' | 'DISABLED' | 'REINSTATED';
  /** Why it is paused, when SES says. */
  cause?: string;
}

export interface SenderIdentities {
  /**
   * Creates (or finds) the client's tenant and its own configuration set (named as the tenant, publishing the
   * client's delivery events), and associates the set and the onboarding identity with the tenant.
   */
  ensureClientSending(clientId: number): Promise<ClientSending>;
  /**
   * Creates (or finds) the domain's identity with Easy DKIM and the MAIL FROM subdomain, and associates it with the
   * tenant (and with no other: a name deleted by one client and proven by another moves with its proof).
   */
  createDomainIdentity(
    domain: string,
    options: { tenant: string; mailFromDomain: string },
  ): Promise<{ dkimTokens: string[] }>;
  /** The identity's status; undefined when there is none. */
  getDomainIdentity(domain: string): Promise<DomainIdentityStatus | undefined>;
  /** Deletes the identity; one that does not exist is no error. */
  deleteDomainIdentity(domain: string): Promise<void>;
  tenantStatus(tenant: string): Promise<TenantStatus>;
}
