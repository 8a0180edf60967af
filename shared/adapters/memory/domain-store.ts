import type { ClaimRefusal, DomainStore, DueCheck } from '../../domain/domains/domain-store.js';
import type { ClientSending } from '../../domain/domains/sender-identities.js';
import type { SenderState } from '../../domain/domains/sender-state.js';
import type { DomainRecord } from '../../domain/domains/schemas.js';

const copy = <T>(value: T): T => structuredClone(value);
const keyOf = (clientId: number, domainId: number): string => `${clientId}#${domainId}`;
const heldNothing = (r: DomainRecord): boolean => r.status === 'failed' && r.proven_at === undefined;
const isChecking = (r: DomainRecord): boolean =>
  (r.status === 'awaiting_proof' || r.status === 'verifying') && r.next_check_at !== undefined;

/**
 * DomainStore in memory, with the DynamoDB adapter's contract: the per-client name lock and count, the service-wide
 * proof lock, version-checked writes and the SENDER state (`senders`, which the memory settings store may share, as
 * the executor reads it beside the settings).
 */
export class MemoryDomainStore implements DomainStore {
  readonly domains = new Map<string, DomainRecord>();
  /** `<client>#<domain>` → the claim's id. */
  readonly names = new Map<string, number>();
  /** Domain → who proved it. */
  readonly proofs = new Map<string, { client_id: number; domain_id: number }>();

  constructor(readonly senders = new Map<number, SenderState>()) {}

  async get(clientId: number, domainId: number): Promise<DomainRecord | undefined> {
    const found = this.domains.get(keyOf(clientId, domainId));
    return found && copy(found);
  }

  async getMany(named: readonly DueCheck[]): Promise<DomainRecord[]> {
    return named.flatMap((d) => {
      const found = this.domains.get(keyOf(d.client_id, d.domain_id));
      return found ? [copy(found)] : [];
    });
  }

  async list(clientId: number): Promise<DomainRecord[]> {
    return [...this.domains.values()]
      .filter((d) => d.client_id === clientId)
      .sort((a, b) => a.id - b.id)
      .map(copy);
  }

  /** How many claims of the client count against its limit. */
  held(clientId: number): number {
    return [...this.domains.values()].filter((d) => d.client_id === clientId && !heldNothing(d)).length;
  }

  async proofHolder(domain: string): Promise<number | undefined> {
    return this.proofs.get(domain)?.client_id;
  }

  async create(record: DomainRecord, max: number): Promise<'created' | ClaimRefusal> {
    const name = `${record.client_id}#${record.domain}`;
    if (this.names.has(name)) return { refused: 'duplicate', domainId: this.names.get(name) };
    const proof = this.proofs.get(record.domain);
    if (proof && proof.client_id !== record.client_id) return { refused: 'claimed_elsewhere' };
    if (this.held(record.client_id) >= max) return { refused: 'limit' };
    const k = keyOf(record.client_id, record.id);
    if (this.domains.has(k)) throw new Error(`domain ${record.id} exists`);
    this.names.set(name, record.id);
    this.domains.set(k, copy(record));
    return 'created';
  }

  async save(record: DomainRecord): Promise<boolean> {
    if (!this.isCurrent(record)) return false;
    this.domains.set(keyOf(record.client_id, record.id), copy(record));
    return true;
  }

  async failUnproven(record: DomainRecord): Promise<boolean> {
    if (!this.isCurrent(record)) return false;
    this.domains.set(keyOf(record.client_id, record.id), copy(record));
    this.releaseName(record);
    return true;
  }

  async prove(record: DomainRecord): Promise<'proven' | 'claimed_elsewhere' | 'stale'> {
    const proof = this.proofs.get(record.domain);
    if (proof && proof.client_id !== record.client_id) return 'claimed_elsewhere';
    if (!this.isCurrent(record)) return 'stale';
    this.proofs.set(record.domain, { client_id: record.client_id, domain_id: record.id });
    this.domains.set(keyOf(record.client_id, record.id), copy(record));
    return 'proven';
  }

  async saveIdentity(record: DomainRecord, sending: ClientSending): Promise<boolean> {
    if (!this.isCurrent(record)) return false;
    this.domains.set(keyOf(record.client_id, record.id), copy(record));
    const sender = this.senderOf(record.client_id);
    sender.tenant = sending.tenant;
    sender.configuration_set = sending.configurationSet;
    return true;
  }

  async markVerified(record: DomainRecord): Promise<boolean> {
    if (!this.isCurrent(record)) return false;
    this.domains.set(keyOf(record.client_id, record.id), copy(record));
    const sender = this.senderOf(record.client_id);
    if (!sender.verified_domains.includes(record.domain)) sender.verified_domains.push(record.domain);
    return true;
  }

  async delete(record: DomainRecord): Promise<boolean> {
    const k = keyOf(record.client_id, record.id);
    if (this.domains.get(k)?.version !== record.version) return false;
    this.domains.delete(k);
    if (!heldNothing(record)) this.releaseName(record);
    if (record.proven_at !== undefined && this.proofs.get(record.domain)?.client_id === record.client_id) {
      this.proofs.delete(record.domain);
    }
    const sender = this.senders.get(record.client_id);
    if (sender) sender.verified_domains = sender.verified_domains.filter((d) => d !== record.domain);
    return true;
  }

  async dueChecks(now: string, limit: number, cursor?: string): Promise<{ due: DueCheck[]; cursor?: string }> {
    const entries = [...this.domains.values()]
      .filter((d) => isChecking(d) && (d.next_check_at as string) <= now)
      .map((d) => ({ sk: `${d.next_check_at}#${d.client_id}#${d.id}`, d }))
      .sort((a, b) => (a.sk < b.sk ? -1 : 1))
      .filter((e) => cursor === undefined || e.sk > cursor);
    const page = entries.slice(0, limit);
    const last = page[page.length - 1];
    return {
      due: page.map((e) => ({ client_id: e.d.client_id, domain_id: e.d.id })),
      ...(entries.length > limit && last ? { cursor: last.sk } : {}),
    };
  }

  private senderOf(clientId: number): SenderState {
    let sender = this.senders.get(clientId);
    if (!sender) {
      sender = { verified_domains: [] };
      this.senders.set(clientId, sender);
    }
    return sender;
  }

  /** Whether the claim is stored at the version it was read at (`version - 1`). */
  private isCurrent(record: DomainRecord): boolean {
    return this.domains.get(keyOf(record.client_id, record.id))?.version === record.version - 1;
  }

  private releaseName(record: DomainRecord): void {
    const name = `${record.client_id}#${record.domain}`;
    if (this.names.get(name) === record.id) this.names.delete(name);
  }
}
