import type { DnsResolver } from '../../../shared/domain/domains/dns-resolver.js';

/** A DnsResolver over a Map: what a test publishes is what it answers; a name marked failing throws (an outage). */
export class FakeDns implements DnsResolver {
  readonly txtRecords = new Map<string, string[]>();
  readonly cnameRecords = new Map<string, string[]>();
  readonly mxRecords = new Map<string, { exchange: string; priority: number }[]>();
  readonly failing = new Set<string>();
  readonly lookups: string[] = [];

  publishTxt(name: string, ...values: string[]): void {
    this.txtRecords.set(name, [...(this.txtRecords.get(name) ?? []), ...values]);
  }

  async txt(name: string): Promise<string[]> {
    return this.answer(name, this.txtRecords.get(name));
  }

  async cname(name: string): Promise<string[]> {
    return this.answer(name, this.cnameRecords.get(name));
  }

  async mx(name: string): Promise<{ exchange: string; priority: number }[]> {
    return this.answer(name, this.mxRecords.get(name));
  }

  private answer<T>(name: string, values: T[] | undefined): T[] {
    this.lookups.push(name);
    if (this.failing.has(name)) throw Object.assign(new Error(`queryTxt ESERVFAIL ${name}`), { code: 'ESERVFAIL' });
    return [...(values ?? [])];
  }
}
