/**
 * The contacts' per-source engagement items in memory (DynamoDB: `CONTACT#<client>#<contact> / ENG#<source>`,
 * engagement-facts.ts beside the DynamoDB adapters): contact key → source key → facts.
 */
import type { EngagementFacts } from '../../domain/segments/definition/types.js';
import { type EngagementChange, engagementAfter } from '../../domain/segments/engagement-source.js';
import { recordKey as clientKey } from './workflow-data.js';

export class MemoryEngagementFacts {
  private readonly byContact = new Map<string, Map<string, EngagementFacts>>();

  /** Applies one change (the DynamoDB Update's meaning: `sent_at` kept once set, the last open / click set). */
  apply(clientId: number, contactId: number, change: EngagementChange): void {
    const k = clientKey(clientId, contactId);
    const sources = this.byContact.get(k) ?? new Map<string, EngagementFacts>();
    sources.set(change.source, engagementAfter(sources.get(change.source), change));
    this.byContact.set(k, sources);
  }

  /** The contact's facts for these sources (undefined: none held). */
  read(clientId: number, contactId: number, sources: readonly string[]): Record<string, EngagementFacts> | undefined {
    const held = this.byContact.get(clientKey(clientId, contactId));
    const found: Record<string, EngagementFacts> = {};
    for (const source of sources) {
      const facts = held?.get(source);
      if (facts) found[source] = { ...facts };
    }
    return Object.keys(found).length > 0 ? found : undefined;
  }

  /** Every source the contact has an item for (an erasure's view). */
  sourcesOf(clientId: number, contactId: number): string[] {
    return [...(this.byContact.get(clientKey(clientId, contactId))?.keys() ?? [])];
  }

  /** The contact's items go (erasure). */
  erase(clientId: number, contactId: number): void {
    this.byContact.delete(clientKey(clientId, contactId));
  }
}
