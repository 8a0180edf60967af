/**
 * What the sender needs of a client's sending identity, kept in one item beside its settings (`CLIENT#<id> / SENDER`)
 * so the executor reads it in the same BatchGet as the settings and profile.
 */
export interface SenderState {
  /** The client's verified domains, lower-case, in the order they were verified (the first is the default From's). */
  verified_domains: string[];
  /** The SES tenant every send names, once created. */
  tenant?: string;
  /** The configuration set associated with the tenant. */
  configuration_set?: string;
  /** SES paused the tenant (its reputation policy or an operator): sends defer until it is enabled again. */
  tenant_paused_at?: string;
  tenant_paused_reason?: string;
  /** When the sender last asked SES whether the paused tenant is enabled again (it asks once per recheck interval). */
  tenant_checked_at?: string;
}
