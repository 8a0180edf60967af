import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DnsResolver } from '../../domain/domains/dns-resolver.js';
import { devKeys } from '../dynamo/keys.js';

export type DnsRecordType = 'TXT' | 'CNAME' | 'MX';

/** One record as a developer publishes it (and as a domain's view lists it): MX carries its priority apart. */
export interface DnsRecord {
  name: string;
  type: DnsRecordType;
  value: string;
  /** MX only; 10 when absent. */
  priority?: number | null;
}

const DEFAULT_MX_PRIORITY = 10;

/** A DNS name as a resolver compares it: lower-case, without the root's trailing dot. */
export const dnsNameOf = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '');

/**
 * The stored value of a record: TXT as written (case matters in a token); a CNAME target as a name; MX as its
 * presentation form "<priority> <exchange>", so one string set holds every MX of a name.
 */
function storedValueOf(record: DnsRecord): string {
  if (record.type === 'TXT') return record.value;
  if (record.type === 'CNAME') return dnsNameOf(record.value);
  return `${record.priority ?? DEFAULT_MX_PRIORITY} ${dnsNameOf(record.value)}`;
}

/** A record as the local DNS keeps and answers it: names normalized, an MX with its priority. */
export const normalizedDnsRecord = (record: DnsRecord): DnsRecord =>
  recordOf(dnsNameOf(record.name), record.type, storedValueOf(record));

function recordOf(name: string, type: DnsRecordType, stored: string): DnsRecord {
  if (type !== 'MX') return { name, type, value: stored };
  const space = stored.indexOf(' ');
  return { name, type, value: stored.slice(space + 1), priority: Number(stored.slice(0, space)) };
}

/** The records grouped by item (name and type), each with its stored values. */
function byItem(
  records: readonly DnsRecord[],
): Map<string, { name: string; type: DnsRecordType; values: Set<string> }> {
  const items = new Map<string, { name: string; type: DnsRecordType; values: Set<string> }>();
  for (const record of records) {
    const name = dnsNameOf(record.name);
    const id = `${record.type} ${name}`;
    const item = items.get(id) ?? { name, type: record.type, values: new Set<string>() };
    item.values.add(storedValueOf(record));
    items.set(id, item);
  }
  return items;
}

/**
 * Adds records to the local runtime's DNS (`DEVDNS#<name>` / `<TYPE>`, a string set of values): one UpdateItem per
 * name and type, all in one parallel wave. ADD on a set is idempotent, so publishing a record twice keeps one.
 */
export const publishDnsRecords = (
  db: DynamoDBDocumentClient,
  tableName: string,
  records: readonly DnsRecord[],
): Promise<void> => changeValues(db, tableName, records, 'ADD');

/**
 * Removes those values from the local DNS (a value not published is no error). DynamoDB drops a set left empty, and
 * an item without values answers as no record.
 */
export const unpublishDnsRecords = (
  db: DynamoDBDocumentClient,
  tableName: string,
  records: readonly DnsRecord[],
): Promise<void> => changeValues(db, tableName, records, 'DELETE');

async function changeValues(
  db: DynamoDBDocumentClient,
  tableName: string,
  records: readonly DnsRecord[],
  action: 'ADD' | 'DELETE',
): Promise<void> {
  await Promise.all(
    [...byItem(records).values()].map((item) =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: devKeys.dnsRecord(item.name, item.type),
          UpdateExpression: `${action} #values :values`,
          ExpressionAttributeNames: { '#values': 'values' },
          ExpressionAttributeValues: { ':values': item.values },
        }),
      ),
    ),
  );
}

/**
 * The local runtime's DNS: records a developer published (PUT /dev/dns-records, the dashboard's local panel, the
 * test fixtures), kept in the table so every process of the runtime (the server, the admin CLI) sees the same. It
 * answers as a resolver does: no record is `[]`; a read that fails throws.
 */
export class TableDnsRecords implements DnsResolver {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  publish(records: readonly DnsRecord[]): Promise<void> {
    return publishDnsRecords(this.db, this.tableName, records);
  }

  unpublish(records: readonly DnsRecord[]): Promise<void> {
    return unpublishDnsRecords(this.db, this.tableName, records);
  }

  /** Every record published at `name` (all types, one Query), TXT then CNAME then MX, values sorted. */
  async published(name: string): Promise<DnsRecord[]> {
    const normalized = dnsNameOf(name);
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': devKeys.dnsRecord(normalized, 'TXT').pk },
        ConsistentRead: true,
      }),
    );
    const order: DnsRecordType[] = ['TXT', 'CNAME', 'MX'];
    return (out.Items ?? [])
      .filter((item): item is { sk: DnsRecordType; values?: Set<string> } => order.includes(item.sk))
      .sort((a, b) => order.indexOf(a.sk) - order.indexOf(b.sk))
      .flatMap((item) => [...(item.values ?? [])].sort().map((value) => recordOf(normalized, item.sk, value)));
  }

  txt(name: string): Promise<string[]> {
    return this.values(name, 'TXT');
  }

  cname(name: string): Promise<string[]> {
    return this.values(name, 'CNAME');
  }

  async mx(name: string): Promise<{ exchange: string; priority: number }[]> {
    const values = await this.values(name, 'MX');
    return values.map((value) => {
      const record = recordOf(dnsNameOf(name), 'MX', value);
      return { exchange: record.value, priority: record.priority ?? DEFAULT_MX_PRIORITY };
    });
  }

  private async values(name: string, type: DnsRecordType): Promise<string[]> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: devKeys.dnsRecord(dnsNameOf(name), type),
        ConsistentRead: true,
      }),
    );
    const values = out.Item?.values as Set<string> | undefined;
    return [...(values ?? [])].sort();
  }
}
