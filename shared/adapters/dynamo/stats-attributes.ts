/** Attribute of a day row that counts a skip or a failure by reason: `skip:<reason>`, `fail:<reason>`. */
export const SKIP_REASON_PREFIX = 'skip:';
export const FAIL_REASON_PREFIX = 'fail:';
/** Attribute of an event-type row that counts the events received. */
export const RECEIVED = 'received';
/**
 * Attribute of a workflow day row that counted events of a type received (`event:<type>`): rows written before the
 * projection carry it (each event's processing counted itself on the first workflow row it wrote); reads still add it.
 */
export const EVENT_PREFIX = 'event:';

/** How long a day row is kept (its TTL), by default: a year and a month, so a year-on-year view has its days. */
export const DEFAULT_STATS_RETENTION_DAYS = 400;

/** What one day row gets added, and what names it (set once: the row's key fixes both anyway). */
export interface DayRowChange {
  identity: { workflow_id: number } | { event_type: string } | { broadcast_id: number };
  day: string;
  /** The row's TTL when it is created (kept when it exists, unless `renewExpiry`). */
  expiresAt: number;
  /** Attribute → amount to ADD (counters, `skip:`/`fail:`/`event:` reasons, `received`). */
  adds: readonly (readonly [string, number])[];
  /** A row that totals more than one day (a broadcast's): its TTL moves with each fact. */
  renewExpiry?: boolean;
}

/**
 * The `Update` of a day row: one `ADD` per counted attribute, the row's identity and day set, its TTL set once. The
 * counters projection and the fold of old shards write rows with it.
 */
export function dayRowUpdate(tableName: string, key: { pk: string; sk: string }, change: DayRowChange) {
  const [identity, id] = Object.entries(change.identity)[0] as [string, number | string];
  const names: Record<string, string> = { '#day': 'day' };
  const values: Record<string, unknown> = { ':id': id, ':day': change.day, ':expires': change.expiresAt };
  change.adds.forEach(([name, value], i) => {
    names[`#a${i}`] = name;
    values[`:a${i}`] = value;
  });
  const add = change.adds.length > 0 ? `ADD ${change.adds.map((_, i) => `#a${i} :a${i}`).join(', ')} ` : '';
  return {
    TableName: tableName,
    Key: key,
    UpdateExpression: `${add}SET ${identity} = :id, #day = :day, expires_at = ${change.renewExpiry ? ':expires' : 'if_not_exists(expires_at, :expires)'}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
