import type { ClientSending } from './sender-identities.js';
import type { DomainRecord } from './schemas.js';

/** Why a new claim was not stored (nothing was written). */
export type ClaimRefusal =
  /** The client already has a claim of this name: its id. */
  | { refused: 'duplicate'; domainId: number | undefined }
  /** Another client proved the name. */
  | { refused: 'claimed_elsewhere' }
  /** The client holds MAX_DOMAINS claims already. */
  | { refused: 'limit' };

/** A claim the poller should check, named by its key. */
export interface DueCheck {
  client_id: number;
  domain_id: number;
}

/**
 * A client's sending domains: each claim with its state, a per-client name lock and count (so the limit and one claim
 * per name hold under concurrent requests), the service-wide proof lock (the first client to prove a name holds it
 * until it deletes its claim), the SENDER item's verified domains and tenant, and the poller's view of claims still
 * being checked (by next check). Every write of a claim is conditional on the version read (`record.version` is the
 * new one, `version - 1` the one read); `false` or `'stale'` when another write came first: nothing was written.
 *
 * A claim that failed unproven (`status` failed without `proven_at`) holds nothing: the write that fails it frees its
 * name lock and its place in the count, and it expires (`expires_at`) unless deleted first.
 */
export interface DomainStore {
  get(clientId: number, domainId: number): Promise<DomainRecord | undefined>;
  /** The claims named (one read wave; those gone are left out), in no particular order. */
  getMany(named: readonly DueCheck[]): Promise<DomainRecord[]>;
  /** Every claim of the client, by id. */
  list(clientId: number): Promise<DomainRecord[]>;
  /** The client that proved the name, if any. */
  proofHolder(domain: string): Promise<number | undefined>;
  /** Stores a new claim (`awaiting_proof`) unless refused. */
  create(record: DomainRecord, max: number): Promise<'created' | ClaimRefusal>;
  /** Stores a check's result: the state unchanged, or failed after proof (which keeps its locks until deleted). */
  save(record: DomainRecord): Promise<boolean>;
  /** Stores a claim that failed before proof and frees its name lock and its place in the count, in one transaction. */
  failUnproven(record: DomainRecord): Promise<boolean>;
  /**
   * Takes the name's proof lock for the client and stores the proven claim (`verifying`) in one transaction;
   * `claimed_elsewhere` when another client holds the lock (nothing written).
   */
  prove(record: DomainRecord): Promise<'proven' | 'claimed_elsewhere' | 'stale'>;
  /** Stores the claim once its SES identity exists, with the client's tenant on the SENDER item, in one transaction. */
  saveIdentity(record: DomainRecord, sending: ClientSending): Promise<boolean>;
  /** Stores the verified claim and adds its domain to the SENDER item's verified domains, in one transaction. */
  markVerified(record: DomainRecord): Promise<boolean>;
  /**
   * Removes the claim with its name lock and count (unless it failed unproven), its proof lock if the client holds it,
   * and its domain from the verified domains; false when it was gone or changed since read.
   */
  delete(record: DomainRecord): Promise<boolean>;
  /** Claims whose next check is due at `now`, oldest first, a page at a time. */
  dueChecks(now: string, limit: number, cursor?: string): Promise<{ due: DueCheck[]; cursor?: string }>;
}
