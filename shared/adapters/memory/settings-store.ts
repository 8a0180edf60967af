import type { ClientRecord } from '../../domain/clients/client-store.js';
import type { SettingsBundle, SettingsRecord, SettingsStore } from '../../domain/settings/settings-store.js';
import type { SenderState } from '../../domain/domains/sender-state.js';
import type { ClientSending } from '../../domain/domains/sender-identities.js';

const copy = <T>(value: T): T => structuredClone(value);

/** SettingsStore in memory; the profile comes from the client records it is given, the month's count from `monthlySent`. */
export class MemorySettingsStore implements SettingsStore {
  readonly settings = new Map<number, SettingsRecord>();
  /** `<client id>:<yyyy-mm>` → e-mails sent that month (what the quota counter would hold). */
  readonly monthlySent = new Map<string, number>();
  /** Client id → its sending state (DynamoDB: the `SENDER` item beside the settings, read with them). */
  readonly senders = new Map<number, SenderState>();

  constructor(private readonly clients: { get(clientId: number): Promise<ClientRecord | undefined> }) {}

  async load(clientId: number, month: string): Promise<SettingsBundle> {
    const settings = this.settings.get(clientId);
    const sender = this.senders.get(clientId);
    return {
      settings: settings && copy(settings),
      client: await this.clients.get(clientId),
      monthlyEmailsSent: this.monthlySent.get(`${clientId}:${month}`) ?? 0,
      ...(sender ? { sender: copy(sender) } : {}),
    };
  }

  async recordSending(clientId: number, sending: ClientSending): Promise<void> {
    const sender = this.senders.get(clientId) ?? { verified_domains: [] };
    this.senders.set(clientId, { ...sender, tenant: sending.tenant, configuration_set: sending.configurationSet });
  }

  async save(record: SettingsRecord, expectedVersion: number | undefined): Promise<boolean> {
    const stored = this.settings.get(record.client_id);
    if (expectedVersion === undefined ? stored !== undefined : stored?.version !== expectedVersion) return false;
    this.settings.set(record.client_id, copy(record));
    return true;
  }
}
