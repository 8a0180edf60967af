import type { ErrorItem } from '../../errors.js';
import type { Clock, Ids } from '../../ports.js';
import { applyContactPatch, sameContact, type MergeContext } from './bulk-merge.js';
import type { ContactPatch, ParsedRow } from './bulk-row.js';
import type { ContactRecord, ContactStore, ContactWrite } from './contact-store.js';

/**
 * The engine behind POST /client/contacts/bulk and /bulk/csv: upserts up to BULK_IMPORT_LIMIT rows matched on the
 * client's lower-case e-mail, in a fixed number of request waves whatever the row count:
 *
 *   1. BatchGet the e-mail locks (100 keys a call, all calls at once) — and the custom field names;
 *   2. BatchGet the stored contacts found, the uid locks of the new contacts' uids, and reserve every new id with
 *      ONE counter update (new custom field names: one more counter update and their puts);
 *   3. TransactWriteItems of ≤ 100 actions, all at once: creates and updates, each with its locks.
 *
 * A transaction cancelled by a failed condition (a race: the e-mail or uid was taken, the contact changed) fails
 * only its own rows' decisions: those rows are read again and decided again one transaction each, while its other
 * rows are sent again as they are. Rows with the same e-mail are folded in request order into one write.
 */

export type BulkRowStatus = 'created' | 'updated' | 'unchanged' | 'failed';

export interface BulkRowInput {
  /** Reported back as `index`: the array index (JSON) or the 1-based data row number (CSV). */
  index: number;
  /** Prefix of the row's error keys, e.g. `contacts.3` or `rows.4`. */
  keyPrefix: string;
  parsed: ParsedRow;
}

export interface BulkRowResult {
  index: number;
  email: string | null;
  status: BulkRowStatus;
  contact_id: number | null;
  errors: ErrorItem[];
  /** Present when other rows of the request have the same e-mail: their indexes (rows apply in order). */
  duplicates?: number[];
}

export interface BulkImportResult {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  results: BulkRowResult[];
}

export interface UpsertOptions {
  overwriteBlankFields: boolean;
  createdBy: number;
  defaultSource: number;
  defaultTimezone?: string;
}

interface Deps {
  clock: Clock;
  ids: Ids;
  contacts: ContactStore;
}

/** Passes over a row before it is given up as `conflict`: the batch pass and two one-by-one retries. */
const MAX_PASSES = 3;
/** Times a write cancelled only by its transaction's other rows is sent again. */
const MAX_RESENDS = 4;
const CUSTOM_FIELD_CHUNK = 100;

interface RowState {
  input: BulkRowInput;
  patch: ContactPatch;
  /** Decided, not yet written: becomes `status` once the write lands. */
  pending?: Exclude<BulkRowStatus, 'failed'>;
  status?: BulkRowStatus;
  errors: ErrorItem[];
}

interface Group {
  email: string;
  rows: RowState[];
  contactId?: number;
}

interface Decided {
  group: Group;
  write: ContactWrite;
}

/**
 * Upserts the rows and returns one result per row, in input order. Rows that failed validation are reported as
 * given; nothing is reported created or updated unless its write landed.
 */
export async function upsertContacts(
  deps: Deps,
  clientId: number,
  rows: readonly BulkRowInput[],
  options: UpsertOptions,
): Promise<BulkImportResult> {
  const valid: RowState[] = [];
  const groups = new Map<string, Group>();
  for (const input of rows) {
    if (!input.parsed.ok) continue;
    const state: RowState = { input, patch: input.parsed.patch, errors: [] };
    valid.push(state);
    const email = state.patch.values.email;
    const group = groups.get(email) ?? { email, rows: [] };
    group.rows.push(state);
    groups.set(email, group);
  }

  const now = deps.clock.now().toISOString();
  const customFieldIds = resolveCustomFields(deps, clientId, valid);
  // Unhandled until the first pass awaits it; a failure must not surface as an unhandled rejection meanwhile.
  customFieldIds.catch(() => undefined);
  const run = new ImportRun(deps, clientId, options, now, customFieldIds);
  await run.pass([...groups.values()], 1);
  return summarize(rows, groups);
}

function resolveCustomFields(deps: Deps, clientId: number, rows: RowState[]): Promise<Record<string, number>> {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.patch.values.custom_fields ?? {})))];
  if (names.length === 0) return Promise.resolve({});
  const chunks: string[][] = [];
  for (let i = 0; i < names.length; i += CUSTOM_FIELD_CHUNK) chunks.push(names.slice(i, i + CUSTOM_FIELD_CHUNK));
  return Promise.all(chunks.map((chunk) => deps.contacts.customFieldIds(clientId, chunk))).then((parts) =>
    Object.assign({}, ...parts),
  );
}

class ImportRun {
  /** client_contact_id → the row that claimed it in this request (the earliest row wins a uid). */
  private readonly uidClaims = new Map<string, { email: string; row: RowState }>();

  constructor(
    private readonly deps: Deps,
    private readonly clientId: number,
    private readonly options: UpsertOptions,
    private readonly now: string,
    private readonly customFieldIds: Promise<Record<string, number>>,
  ) {}

  /**
   * Reads, decides and writes these groups. The first pass batches; later passes (rows whose transaction failed
   * a condition) read every uid lock too and write one group per transaction.
   */
  async pass(groups: Group[], attempt: number): Promise<void> {
    if (attempt > MAX_PASSES) {
      for (const group of groups) failRows(group.rows, 'conflict', 'email', 'The contact changed while it was imported; send this row again');
      return;
    }
    const isolated = attempt > 1;
    try {
      const decided = await this.decide(groups, isolated);
      await this.settle(decided, attempt, 0);
    } catch (error) {
      // The first pass has written nothing yet: let the request fail as a whole. Later passes run after other
      // rows were written, so only their own rows are reported failed.
      if (!isolated) throw error;
      for (const group of groups) failRows(group.rows.filter((r) => !r.status), 'internal', 'email', 'The row could not be completed; send it again');
    }
  }

  private async decide(groups: Group[], isolated: boolean): Promise<Decided[]> {
    const { contacts, ids } = this.deps;
    for (const group of groups) {
      group.contactId = undefined;
      for (const row of group.rows) {
        row.pending = undefined;
        row.status = undefined;
        row.errors = [];
      }
    }
    const emailOwners = await contacts.findIdsByEmail(this.clientId, groups.map((g) => g.email));
    const newGroups = groups.filter((g) => !emailOwners.has(g.email));
    // Batch pass: only new contacts' uids are looked up; an existing contact's new uid is guarded by its
    // transaction (attribute_not_exists), and a clash sends the row to the one-by-one pass, which reads them all.
    const uidsToCheck = uidsOf(isolated ? groups : newGroups);
    const [stored, uidOwners, firstId, customFieldIds] = await Promise.all([
      emailOwners.size > 0 ? contacts.getMany(this.clientId, [...new Set(emailOwners.values())]) : new Map<number, ContactRecord>(),
      uidsToCheck.length > 0 ? contacts.findIdsByUid(this.clientId, uidsToCheck) : new Map<string, number>(),
      newGroups.length > 0 ? ids.next('contact', newGroups.length) : Promise.resolve(0),
      this.customFieldIds,
    ]);

    newGroups.forEach((group, i) => (group.contactId = firstId + i));
    for (const group of groups) {
      const owner = emailOwners.get(group.email);
      if (owner === undefined) continue;
      if (stored.has(owner)) group.contactId = owner;
      else failRows(group.rows, 'internal', 'email', 'The stored contact for this e-mail could not be read; send the row again');
    }
    const storedUids = new Map([...stored.values()].flatMap((c) => (c.client_contact_id ? [[c.client_contact_id, c.id] as const] : [])));
    this.checkUids(groups, (uid) => uidOwners.get(uid) ?? storedUids.get(uid));

    const ctx: MergeContext = {
      overwriteBlankFields: this.options.overwriteBlankFields,
      now: this.now,
      clientId: this.clientId,
      createdBy: this.options.createdBy,
      customFieldIds,
      defaultSource: this.options.defaultSource,
      defaultTimezone: this.options.defaultTimezone,
    };
    const decided: Decided[] = [];
    for (const group of groups) {
      if (group.contactId === undefined) continue;
      const write = foldGroup(group, group.contactId, stored.get(group.contactId), ctx);
      if (write) decided.push({ group, write });
    }
    return decided;
  }

  /**
   * A row may set a uid only if no other contact holds it (as read now) and no earlier row of this request with
   * another e-mail claimed it; otherwise that row fails on `client_contact_id` and the others go ahead.
   */
  private checkUids(groups: Group[], holderOf: (uid: string) => number | undefined): void {
    const rows = groups.flatMap((g) => g.rows.map((row) => ({ group: g, row })));
    for (const [uid, claim] of this.uidClaims) if (groups.some((g) => g.email === claim.email)) this.uidClaims.delete(uid);
    rows.sort((a, b) => a.row.input.index - b.row.input.index);
    for (const { group, row } of rows) {
      const uid = row.patch.values.client_contact_id;
      if (!uid || row.status === 'failed') continue;
      const holder = holderOf(uid);
      const claim = this.uidClaims.get(uid);
      const key = `${row.input.keyPrefix}.client_contact_id`;
      if (holder !== undefined && holder !== group.contactId) {
        failRow(row, 'unique', key, 'This client_contact_id belongs to another contact');
      } else if (claim && claim.email !== group.email) {
        failRow(row, 'unique', key, `This client_contact_id is already set by ${claim.row.input.keyPrefix} (another e-mail) in this request`);
      } else this.uidClaims.set(uid, { email: group.email, row });
    }
  }

  /** Writes what was decided; rows of cancelled transactions are sent again, conflicting ones decided again. */
  private async settle(decided: Decided[], attempt: number, resends: number): Promise<void> {
    if (decided.length === 0) return;
    const outcomes = await this.deps.contacts.writeMany(
      decided.map((d) => d.write),
      { isolated: attempt > 1 },
    );
    const resend: Decided[] = [];
    const conflicts: Group[] = [];
    decided.forEach((item, i) => {
      const outcome = outcomes[i] ?? { status: 'error', message: 'no outcome' };
      switch (outcome.status) {
        case 'written':
          for (const row of item.group.rows) if (row.pending) row.status = row.pending;
          break;
        case 'conflict':
          conflicts.push(item.group);
          break;
        case 'cancelled':
          resend.push(item);
          break;
        case 'error':
          failRows(item.group.rows.filter((r) => r.pending), 'internal', 'email', 'The contact could not be written; send this row again');
          break;
      }
    });
    const tooOften = resends >= MAX_RESENDS;
    if (tooOften) for (const item of resend) failRows(item.group.rows.filter((r) => r.pending), 'internal', 'email', 'The contact could not be written; send this row again');
    await Promise.all([
      resend.length > 0 && !tooOften ? this.settle(resend, attempt, resends + 1) : undefined,
      conflicts.length > 0 ? this.pass(conflicts, attempt + 1) : undefined,
    ]);
  }
}

/**
 * Applies the group's rows in request order, as if each were sent on its own, and returns the one write that
 * stores the end result (none when nothing changes). Each row's status is what it did in that sequence.
 */
function foldGroup(group: Group, contactId: number, stored: ContactRecord | undefined, ctx: MergeContext): ContactWrite | undefined {
  let state = stored;
  const applied: RowState[] = [];
  for (const row of group.rows) {
    if (row.status === 'failed') continue;
    const next = applyContactPatch(state, row.patch, contactId, ctx);
    row.pending = state === undefined ? 'created' : sameContact(state, next) ? 'unchanged' : 'updated';
    if (row.pending !== 'unchanged') state = next;
    applied.push(row);
  }
  if (!state || applied.length === 0) return undefined;
  if (!stored) return { kind: 'create', contact: state };
  if (sameContact(stored, state)) {
    // Rows that cancel each other out leave the contact as it was: nothing is written, every row is unchanged.
    for (const row of applied) row.status = 'unchanged';
    return undefined;
  }
  return { kind: 'update', before: stored, after: state };
}

function uidsOf(groups: Group[]): string[] {
  return [...new Set(groups.flatMap((g) => g.rows.flatMap((r) => (r.patch.values.client_contact_id ? [r.patch.values.client_contact_id] : []))))];
}

function failRow(row: RowState, condition: string, key: string, error: string): void {
  row.status = 'failed';
  row.pending = undefined;
  row.errors = [{ condition, key, error }];
}

function failRows(rows: RowState[], condition: string, field: string, error: string): void {
  for (const row of rows) failRow(row, condition, `${row.input.keyPrefix}.${field}`, error);
}

function summarize(rows: readonly BulkRowInput[], groups: Map<string, Group>): BulkImportResult {
  const states = new Map<BulkRowInput, { state: RowState; group: Group }>();
  for (const group of groups.values()) for (const state of group.rows) states.set(state.input, { state, group });
  const results: BulkRowResult[] = rows.map((input) => {
    if (!input.parsed.ok) {
      return { index: input.index, email: input.parsed.email, status: 'failed', contact_id: null, errors: input.parsed.errors };
    }
    const { state, group } = states.get(input)!;
    const status = state.status ?? 'failed';
    const errors =
      status === 'failed' && state.errors.length === 0
        ? [{ condition: 'internal', key: `${input.keyPrefix}.email`, error: 'The row was not completed; send it again' }]
        : state.errors;
    const result: BulkRowResult = {
      index: input.index,
      email: group.email,
      status,
      contact_id: status === 'failed' ? null : (group.contactId ?? null),
      errors,
    };
    if (group.rows.length > 1) result.duplicates = group.rows.filter((r) => r !== state).map((r) => r.input.index);
    return result;
  });
  const count = (status: BulkRowStatus) => results.filter((r) => r.status === status).length;
  return { created: count('created'), updated: count('updated'), unchanged: count('unchanged'), failed: count('failed'), results };
}
