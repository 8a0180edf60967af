import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { conversionEntriesOf } from './broadcast-conversions.js';
import { TABLE_KEYS } from './table-definition.js';
import type { ClientRecord } from '../../domain/clients/client-store.js';
import type { ContactRecord } from '../../domain/contacts/contact-store.js';
import type {
  CommitOutcome,
  GoalCancellation,
  JourneyRefusals,
  ProcessingCommit,
  ProcessingContext,
  ProcessingStore,
  RunEntryWrite,
  RunExit,
  WaitResolution,
} from '../../domain/events/processing-store.js';
import type { JourneyIndex } from '../../domain/journeys/journey-records.js';
import {
  RUNS_IN_FLIGHT_ATTRIBUTE,
  runMarkerAttribute,
  WAITS_VERSION_ATTRIBUTE,
  waitMarkerAttribute,
} from '../../domain/runs/run-record.js';
import { runsCounterChangeOf } from '../../domain/runs/runs-counter.js';
import { RUN_RETENTION_DAYS, runItem } from './run-item.js';
import { topicSetOf } from './topic-store.js';
import {
  convertedAttribute,
  GOAL_REACHED,
  goalMarkAttribute,
  openExecutionAttribute,
  openExecutionValue,
} from '../../domain/workflows/goals.js';
import { ENDED_CLAIM } from './execution-item.js';
import type { SettingsRecord } from '../../domain/settings/settings-store.js';
import type { CustomizationRecord } from '../../domain/workflows/customization.js';
import { batchGetWithConfig, type ConfigCache } from './config-cache.js';
import { executionItem } from './execution-item.js';
import { stripKeys } from './items.js';
import { ENTITY, keys, type ItemKey } from './keys.js';
import { capPendingAttribute } from './quota-counter.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../domain/executions/execution-record.js';
import { sendTransaction } from './transactions.js';
import { openHoursOf } from '../../domain/tracking/open-hours.js';
import { countersOf, recentAttribute, segmentIndexOf, totalAttribute } from './membership-store.js';

const keyOf = (k: { pk: string; sk: string }) => `${k.pk}\u0000${k.sk}`;

/** The reads and the one transaction of event processing (docs/capacity.md, request plan "process an event"). */
export class DynamoProcessingStore implements ProcessingStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** The container's copy of client configuration (settings, profile, customizations); none: read every time. */
    private readonly configCache?: ConfigCache,
  ) {}

  async findContactId(clientId: number, ref: { email: string } | { uid: string }): Promise<number | undefined> {
    const key = 'email' in ref ? keys.emailLock(clientId, ref.email) : keys.uidLock(clientId, ref.uid);
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: key, ProjectionExpression: 'contact_id', ConsistentRead: true }),
    );
    const id = out.Item?.['contact_id'];
    return typeof id === 'number' ? id : undefined;
  }

  async broadcastRecipients(clientId: number, broadcastId: number, contactId: number): Promise<ExecutionRecord[]> {
    const listing = keys.broadcastRecipientListing(clientId, broadcastId, contactId, 0);
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: TABLE_KEYS.gsi1.name,
        KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :contact)',
        ExpressionAttributeValues: { ':pk': listing.gsi1pk, ':contact': `${listing.gsi1sk.split('#')[0]}#` },
      }),
    );
    return (out.Items ?? []).map((item) => stripKeys<ExecutionRecord>(item));
  }

  async markConverted(clientId: number, executionId: number, at: string, eventId: number): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.execution(clientId, executionId),
          UpdateExpression: 'SET converted_at = :at, conversion_event_id = :e',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(converted_at)',
          ExpressionAttributeValues: { ':at': at, ':e': eventId },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async loadContext(
    clientId: number,
    contactId: number | undefined,
    workflowIds: readonly number[],
  ): Promise<ProcessingContext> {
    const contactKey = contactId !== undefined ? keys.contact(clientId, contactId) : undefined;
    const settingsKey = keys.settings(clientId);
    const profileKey = keys.clientProfile(clientId);
    const customizationKeys = workflowIds.map((id) => keys.customization(clientId, id));
    // The aggregate open hours ride with the configuration: same request, and a copy up to the cache's TTL old is fine.
    const openHoursKey = keys.clientOpenHours(clientId);
    // So do the journey index (which journeys an event enters, resumes or exits) and the topics its conditions read.
    const journeyIndexKey = keys.journeyIndex(clientId);
    const topicsKey = keys.topics(clientId);
    // The segment index (which events a segment counts) is configuration too; the contact's counters are read with
    // the contact, strongly (the commit is conditioned on their version).
    const segmentIndexKey = keys.segmentIndex(clientId);
    const countersKey = contactId !== undefined ? keys.contactCounters(clientId, contactId) : undefined;
    // The broadcasts that count conversions, by event type: configuration too.
    const conversionsKey = keys.broadcastConversions(clientId);
    const items = await batchGetWithConfig(
      this.db,
      this.tableName,
      this.configCache,
      contactKey && countersKey ? [contactKey, countersKey] : [],
      [
        settingsKey,
        profileKey,
        ...customizationKeys,
        openHoursKey,
        journeyIndexKey,
        topicsKey,
        segmentIndexKey,
        conversionsKey,
      ],
    );
    const byKey = new Map(items.map((item) => [keyOf(item as { pk: string; sk: string }), item]));
    const read = <T>(key: { pk: string; sk: string } | undefined) => {
      const item = key && byKey.get(keyOf(key));
      return item ? stripKeys<T>(item) : undefined;
    };
    return {
      contact: read<ContactRecord>(contactKey),
      settings: read<SettingsRecord>(settingsKey),
      client: read<ClientRecord>(profileKey),
      customizations: workflowIds.flatMap((workflowId, i) => {
        const record = read<CustomizationRecord>(customizationKeys[i]);
        return record ? [{ ...record, workflow_id: workflowId }] : [];
      }),
      ...(byKey.has(keyOf(openHoursKey)) ? { clientOpenHours: openHoursOf(byKey.get(keyOf(openHoursKey))) } : {}),
      ...(byKey.has(keyOf(journeyIndexKey)) ? { journeyIndex: read<JourneyIndex>(journeyIndexKey) } : {}),
      ...(byKey.has(keyOf(topicsKey)) ? { topics: topicSetOf(byKey.get(keyOf(topicsKey))) } : {}),
      ...(byKey.has(keyOf(segmentIndexKey)) ? { segmentIndex: segmentIndexOf(byKey.get(keyOf(segmentIndexKey))) } : {}),
      ...(countersKey && byKey.has(keyOf(countersKey)) ? { counters: countersOf(byKey.get(keyOf(countersKey))) } : {}),
      ...(byKey.has(keyOf(conversionsKey))
        ? { broadcastConversions: conversionEntriesOf(byKey.get(keyOf(conversionsKey))!) }
        : {}),
    };
  }

  async commit({
    event,
    executions,
    contact,
    cancellations = [],
    entries = [],
    resolutions = [],
    runExits = [],
  }: ProcessingCommit): Promise<CommitOutcome> {
    const eventKey = keys.event(event.client_id, event.id);
    const { contact: summary, ...rest } = event;
    const contactUpdate = contact && contactUpdateOf(this.tableName, event.client_id, contact);
    const countersUpdate =
      contact?.counters && countersUpdateOf(this.tableName, event.client_id, contact.contactId, contact.counters);
    const lockReleases = runExits.filter((e) => !e.keepLock);
    // The transaction's items in order; each group's first position maps a cancellation reason back to its cause.
    const groups = {
      event: 1,
      executions: executions.length,
      runs: entries.length,
      locks: entries.length,
      contact: contactUpdate ? 1 : 0,
      counters: countersUpdate ? 1 : 0,
      cancellations: cancellations.length,
      resolutions: resolutions.length,
      exits: runExits.length,
      lockReleases: lockReleases.length,
    };
    const at: Record<keyof typeof groups, number> = {} as Record<keyof typeof groups, number>;
    let position = 0;
    for (const [name, size] of Object.entries(groups)) {
      at[name as keyof typeof groups] = position;
      position += size;
    }
    try {
      await sendTransaction(
        this.db,
        new TransactWriteCommand({
          TransactItems: [
            {
              // The whole event, its sparse "queued" index entry gone; only while it is still queued.
              Put: {
                TableName: this.tableName,
                Item: {
                  ...eventKey,
                  entity: ENTITY.event,
                  // Found by the contact's erasure once it names a contact.
                  ...(event.contact_id !== undefined
                    ? keys.contactHistory(event.client_id, event.contact_id, 'EVENT', event.created_at, event.id)
                    : {}),
                  ...rest,
                  ...(summary ? { contact: summary } : {}),
                },
                ConditionExpression: 'queue_status = :queued',
                ExpressionAttributeValues: { ':queued': 'queued' },
              },
            },
            ...executions.map((execution) => ({
              Put: {
                TableName: this.tableName,
                Item: executionItem(execution),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            })),
            ...entries.map(({ run }) => ({
              Put: { TableName: this.tableName, Item: runItem(run), ConditionExpression: 'attribute_not_exists(pk)' },
            })),
            ...entries.map((entry) => runLockPutOf(this.tableName, event.client_id, entry)),
            ...(contactUpdate ? [contactUpdate] : []),
            ...(countersUpdate ? [countersUpdate] : []),
            ...cancellations.map((c) => goalCancellationOf(this.tableName, event.client_id, c)),
            ...resolutions.map((r) => waitResolutionOf(this.tableName, event.client_id, r)),
            ...runExits.map((e) => runExitOf(this.tableName, event.client_id, e)),
            ...lockReleases.map((e) => lockReleaseOf(this.tableName, event.client_id, e)),
            ...capChanges(this.tableName, executions, cancellations, event.client_id),
          ],
        }),
      );
      return 'committed';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failed = (i: number) => reasons[i]?.Code === 'ConditionalCheckFailed';
      const failedIn = <T>(group: keyof typeof groups, list: readonly T[]) =>
        list.filter((_, i) => failed(at[group] + i));
      if (failed(0)) return 'already_processed';
      const drawn = groups.executions + groups.runs;
      if (Array.from({ length: drawn }, (_, i) => failed(at.executions + i)).some(Boolean)) return 'id_taken';
      const moved = failedIn('cancellations', cancellations).map((c) => c.execution.execution_id);
      const refusals: JourneyRefusals = {};
      const refused = entries.flatMap((entry, i) => {
        if (!failed(at.locks + i)) return [];
        // The lock as it stands came back with the cancellation: held by a run in flight, or by one that ended
        // within the re-entry window (for `once`, forever).
        const old = reasons[at.locks + i]?.Item as Record<string, { BOOL?: boolean }> | undefined;
        const outcome = old?.['active']?.BOOL === false ? ('reentry_window' as const) : ('in_flight' as const);
        return [{ journey_id: entry.lock.journeyId, outcome }];
      });
      if (refused.length > 0) refusals.refused = refused;
      const lost = failedIn('resolutions', resolutions).map((r) => r.runId);
      if (lost.length > 0) refusals.resolutionsLost = lost;
      const missed = failedIn('exits', runExits).map((e) => e.runId);
      if (missed.length > 0) refusals.exitsMissed = missed;
      const gone = failedIn('lockReleases', lockReleases).map((e) => e.runId);
      if (gone.length > 0) refusals.locksGone = gone;
      if (moved.length > 0 || Object.keys(refusals).length > 0) return { moved, ...refusals };
      if ((contactUpdate && failed(at.contact)) || (countersUpdate && failed(at.counters))) return 'contact_changed';
      throw error;
    }
  }
}

/**
 * The run lock an entry claims, on its re-entry rule's condition: `once` only where none was ever taken;
 * `every_days` also over an ended run's lock older than the window; `always` also over any ended run's. The lock
 * that refuses comes back with the cancellation, so the refusal is told apart without a read.
 */
function runLockPutOf(tableName: string, clientId: number, { lock }: RunEntryWrite) {
  const condition = {
    once: { ConditionExpression: 'attribute_not_exists(pk)' },
    every_days: {
      ConditionExpression: 'attribute_not_exists(pk) OR (active = :f AND entered_at < :cutoff)',
      ExpressionAttributeValues: { ':f': false, ':cutoff': lock.cutoff },
    },
    always: {
      ConditionExpression: 'attribute_not_exists(pk) OR active = :f',
      ExpressionAttributeValues: { ':f': false },
    },
  }[lock.reentry];
  return {
    Put: {
      TableName: tableName,
      Item: {
        ...keys.runLock(clientId, lock.journeyId, lock.contactId, lock.keyHash),
        run_id: lock.runId,
        active: true,
        entered_at: lock.enteredAt,
        ...(lock.expiresAt !== undefined ? { expires_at: lock.expiresAt } : {}),
      },
      ...condition,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/**
 * A waiting run the event resumes: active again at seq + 1, due now (back in the stuck-run index), marked with the
 * event — only while it still waits at the seq and step its marker named. The timeout's transition conditions on the
 * same seq and raises it, so exactly one of the two moves the run.
 */
function waitResolutionOf(tableName: string, clientId: number, r: WaitResolution) {
  return {
    Update: {
      TableName: tableName,
      Key: keys.run(clientId, r.runId),
      UpdateExpression:
        'SET #status = :active, seq = :next, resumed_by = :by, due_at = :at, updated_at = :at, gsi3pk = :g3pk, gsi3sk = :g3sk',
      ConditionExpression: 'seq = :seq AND #status = :waiting AND step_id = :step',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':active': 'active',
        ':waiting': 'waiting',
        ':seq': r.seq,
        ':next': r.seq + 1,
        ':step': r.stepId,
        ':by': { event_id: r.eventId, at: r.at },
        ':at': r.at,
        ...prefixed(keys.runDueEntry(clientId, r.runId, r.at)),
      },
    },
  };
}

const prefixed = (entry: { gsi3pk: string; gsi3sk: string }) => ({ ':g3pk': entry.gsi3pk, ':g3sk': entry.gsi3sk });

/** A run of a journey the event exits: ended `exited` / `exit_event` while still in flight; it leaves the due index. */
function runExitOf(tableName: string, clientId: number, e: RunExit) {
  return {
    Update: {
      TableName: tableName,
      Key: keys.run(clientId, e.runId),
      UpdateExpression:
        'SET #status = :exited, reason = :reason, ended_at = :at, updated_at = :at, expires_at = :exp REMOVE gsi3pk, gsi3sk, due_at',
      ConditionExpression: '#status IN (:active, :waiting)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':exited': 'exited',
        ':reason': 'exit_event',
        ':active': 'active',
        ':waiting': 'waiting',
        ':at': e.at,
        ':exp': Math.floor(Date.parse(e.at) / 1000) + RUN_RETENTION_DAYS * 86_400,
      },
    },
  };
}

/** The exited run's lock no longer holds a run in flight (only while it is that run's: an expired lock is not made). */
function lockReleaseOf(tableName: string, clientId: number, e: RunExit) {
  return {
    Update: {
      TableName: tableName,
      Key: keys.runLock(clientId, e.journeyId, e.contactId, e.keyHash),
      UpdateExpression: 'SET active = :f',
      ConditionExpression: 'run_id = :run',
      ExpressionAttributeValues: { ':f': false, ':run': e.runId },
    },
  };
}

/** Cap items outlive their day by two (support), then TTL removes them. */
const CAP_TTL_SECONDS = 3 * 86_400;

/**
 * Each queued, non-critical execution waits for a slot of its contact's day (`pending[id] = priority`), so the sender
 * can give the day's last slots to the higher priorities (critical ones bypass the cap or take slots first come). An
 * execution cancelled by a goal waits no more. One action per cap item: a transaction may not touch an item twice.
 */
function capChanges(
  tableName: string,
  executions: readonly ExecutionRecord[],
  cancellations: readonly GoalCancellation[],
  clientId: number,
) {
  const byKey = new Map<string, { key: ItemKey; entries: ExecutionRecord[]; removed: number[] }>();
  const groupOf = (key: ItemKey) => {
    const group = byKey.get(key.pk) ?? { key, entries: [], removed: [] };
    byKey.set(key.pk, group);
    return group;
  };
  for (const e of executions) {
    if (e.status !== EXECUTION_STATUS.queued || e.critical) continue;
    groupOf(keys.contactDayCap(e.client_id, e.contact_id, e.cap_day)).entries.push(e);
  }
  for (const { execution } of cancellations) {
    if (execution.critical) continue;
    groupOf(keys.contactDayCap(clientId, contactOf(cancellations), execution.cap_day)).removed.push(
      execution.execution_id,
    );
  }
  return [...byKey.values()].map(({ key, entries, removed }) => {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets: string[] = [];
    entries.forEach((e, i) => {
      names[`#e${i}`] = capPendingAttribute(e.id);
      values[`:p${i}`] = e.priority_score;
      sets.push(`#e${i} = :p${i}`);
    });
    if (entries.length > 0)
      sets.unshift('expires_at = :exp'),
        (values[':exp'] = Math.floor(Date.parse(entries[0]!.scheduled_for) / 1000) + CAP_TTL_SECONDS);
    for (const [i, id] of removed.entries()) names[`#r${i}`] = capPendingAttribute(id);
    const expression = [
      ...(sets.length > 0 ? [`SET ${sets.join(', ')}`] : []),
      ...(removed.length > 0 ? [`REMOVE ${removed.map((_, i) => `#r${i}`).join(', ')}`] : []),
    ].join(' ');
    return {
      Update: {
        TableName: tableName,
        Key: key,
        UpdateExpression: expression,
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
      },
    };
  });
}

/** The cancellations' contact: an event's exits only cancel executions its own contact item lists. */
const contactOf = (cancellations: readonly GoalCancellation[]): number => cancellations[0]!.contactId;

/** Execution 1 → 5 `goal_reached` naming the exit event, only while queued; it leaves the stuck-execution index. */
function goalCancellationOf(tableName: string, clientId: number, c: GoalCancellation) {
  return {
    Update: {
      TableName: tableName,
      Key: keys.execution(clientId, c.execution.execution_id),
      UpdateExpression: `SET #s = :cancelled, reason = :reason, goal_event_id = :event, processed_at = :at, updated_at = :at ${ENDED_CLAIM}`,
      ConditionExpression: '#s = :queued',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':cancelled': EXECUTION_STATUS.cancelled,
        ':queued': EXECUTION_STATUS.queued,
        ':reason': GOAL_REACHED,
        ':event': c.eventId,
        ':at': c.at,
      },
    },
  };
}

/**
 * The contact's event counters after the event: each spec's newest times and count set (a spec no segment reads any
 * more keeps its last values, read by nothing), `ev_v` raised — only while `ev_v` is still the one read, so two events of one contact processed at
 * once cannot both count from the same read (the loser reads again: `contact_changed`).
 */
function countersUpdateOf(
  tableName: string,
  clientId: number,
  contactId: number,
  { next, readVersion }: NonNullable<NonNullable<ProcessingCommit['contact']>['counters']>,
) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {
    ':v': next.ev_v,
    ':e': ENTITY.contactCounters,
    ':c': clientId,
    ':ct': contactId,
  };
  const sets = ['ev_v = :v', 'entity = :e', 'client_id = :c', 'contact_id = :ct'];
  let i = 0;
  for (const [spec, times] of Object.entries(next.recent)) {
    names[`#r${i}`] = recentAttribute(spec);
    values[`:r${i}`] = times;
    sets.push(`#r${i} = :r${i}`);
    i += 1;
  }
  for (const [spec, count] of Object.entries(next.total)) {
    names[`#r${i}`] = totalAttribute(spec);
    values[`:r${i}`] = count;
    sets.push(`#r${i} = :r${i}`);
    i += 1;
  }
  if (readVersion !== null) values[':read'] = readVersion;
  return {
    Update: {
      TableName: tableName,
      Key: keys.contactCounters(clientId, contactId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: readVersion === null ? 'attribute_not_exists(ev_v)' : 'ev_v = :read',
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    },
  };
}

function contactUpdateOf(tableName: string, clientId: number, change: NonNullable<ProcessingCommit['contact']>) {
  const sets = ['updated_at = :at'];
  const values: Record<string, unknown> = { ':at': change.at };
  const names: Record<string, string> = {};
  if (change.tags) sets.push('tags = :tags'), (values[':tags'] = change.tags);
  if (change.lastPurchaseAt) sets.push('last_purchase_at = :purchase'), (values[':purchase'] = change.lastPurchaseAt);
  if (change.lastActivityAt) sets.push('last_activity_at = :activity'), (values[':activity'] = change.lastActivityAt);
  // Goals: the workflows this event exits remember it; queued executions are listed, ended ones unlisted.
  if (change.goalMarks && change.goalMarks.workflowIds.length > 0) {
    values[':goal'] = { at: change.at, event_id: change.goalMarks.eventId };
    for (const [i, id] of change.goalMarks.workflowIds.entries()) {
      names[`#g${i}`] = goalMarkAttribute(id);
      sets.push(`#g${i} = :goal`);
    }
  }
  // Conversions: once per e-mail — the condition below holds only while this send is not converted.
  const conversionConditions: string[] = [];
  (change.conversions ?? []).forEach((conversion, i) => {
    names[`#cv${i}`] = convertedAttribute(conversion.workflowId);
    values[`:cv${i}`] = conversion.sentAt;
    sets.push(`#cv${i} = :cv${i}`);
    conversionConditions.push(`(attribute_not_exists(#cv${i}) OR #cv${i} <> :cv${i})`);
  });
  (change.opened ?? []).forEach((open, i) => {
    names[`#o${i}`] = openExecutionAttribute(open.execution_id);
    values[`:o${i}`] = openExecutionValue(open);
    sets.push(`#o${i} = :o${i}`);
  });
  // The contact's runs in flight: the marker an exit event finds them by (and their lock's key hash).
  (change.runsStarted ?? []).forEach((started, i) => {
    names[`#rs${i}`] = runMarkerAttribute(started.runId);
    values[`:rs${i}`] = {
      j: started.journeyId,
      q: 1,
      ...(started.keyHash !== undefined ? { k: started.keyHash } : {}),
    };
    sets.push(`#rs${i} = :rs${i}`);
  });
  const adds: string[] = [];
  if (change.workflowsStarted !== 0) {
    adds.push('active_workflow_count :n');
    values[':n'] = change.workflowsStarted;
  }
  // The run counter moves with the markers; raising it holds only while it leaves room under the limit, so two
  // commits that read the same contact cannot together start more runs than the limit allows. A contact without a
  // counter yet gets it from its markers as read, on the condition that no other write created it meanwhile.
  const runsCondition: string[] = [];
  const counter = runsCounterChangeOf(change);
  if (counter) {
    names['#rn'] = RUNS_IN_FLIGHT_ATTRIBUTE;
    values[':rn'] = counter.value;
    if (counter.kind === 'create') {
      sets.push('#rn = :rn');
      runsCondition.push('attribute_not_exists(#rn)');
    } else {
      adds.push('#rn :rn');
      if (counter.max !== undefined) {
        runsCondition.push('#rn <= :rmax');
        values[':rmax'] = counter.max;
      }
    }
  }
  let expression = `SET ${sets.join(', ')}`;
  if (adds.length > 0) expression += ` ADD ${adds.join(', ')}`;
  const removed: string[] = [];
  const remove = (name: string, attribute: string) => {
    names[name] = attribute;
    removed.push(name);
  };
  for (const [i, id] of (change.closed ?? []).entries()) remove(`#c${i}`, openExecutionAttribute(id));
  for (const [i, id] of (change.waitsRemoved ?? []).entries()) remove(`#wr${i}`, waitMarkerAttribute(id));
  for (const [i, id] of (change.runsRemoved ?? []).entries()) remove(`#rr${i}`, runMarkerAttribute(id));
  if (removed.length > 0) expression += ` REMOVE ${removed.join(', ')}`;
  // An awaited event type: the update holds only while no wait was entered since the contact was read.
  const waitsCondition: string[] = [];
  if (change.waitsVersionRead !== undefined) {
    names['#wv'] = WAITS_VERSION_ATTRIBUTE;
    if (change.waitsVersionRead === null) waitsCondition.push('attribute_not_exists(#wv)');
    else {
      waitsCondition.push('#wv = :wv');
      values[':wv'] = change.waitsVersionRead;
    }
  }
  return {
    Update: {
      TableName: tableName,
      Key: keys.contact(clientId, change.contactId),
      UpdateExpression: expression,
      ConditionExpression: ['attribute_exists(pk)', ...conversionConditions, ...waitsCondition, ...runsCondition].join(
        ' AND ',
      ),
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    },
  };
}
