import type { Clock, Ids } from '../../platform.js';
import { foldGroup } from './bulk-fold.js';
import type { MergeContext } from './bulk-merge.js';
import {
  failRow,
  failRows,
  summarizeRows,
  type BulkImportResult,
  type BulkRowInput,
  type ContactGroup,
  type RowState,
} from './bulk-result.js';
import {
  SUPPRESSED,
  SUPPRESSED_ADDRESS_ERROR,
  type ContactRecord,
  type ContactStore,
  type ContactWrite,
  type ContactWrites,
} from './contact-store.js';

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
  contactWrites: ContactWrites;
}

/** Passes over a row before it is given up as changed meanwhile (`state`): the batch pass and two one-by-one retries. */
const MAX_PASSES = 3;
/** Times a write cancelled only by its transaction's other rows is sent again. */
const MAX_RESENDS = 4;
const CUSTOM_FIELD_CHUNK = 100;
const NOT_WRITTEN = 'The contact could not be written; send this row again';
/** The store refused the write as it is: sending the row again unchanged would fail again. */
const REFUSED =
  'The store cannot hold this contact as given; it was not written (sending it unchanged will fail again)';
const CHANGED_MEANWHILE = 'The contact changed while it was imported; send this row again';

interface Decided {
  group: ContactGroup;
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
  const groups = new Map<string, ContactGroup>();
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
  return summarizeRows(rows, groups.values());
}

function resolveCustomFields(deps: Deps, clientId: number, rows: RowState[]): Promise<Map<string, number>> {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.patch.values.custom_fields ?? {})))];
  if (names.length === 0) return Promise.resolve(new Map<string, number>());
  const chunks: string[][] = [];
  for (let i = 0; i < names.length; i += CUSTOM_FIELD_CHUNK) chunks.push(names.slice(i, i + CUSTOM_FIELD_CHUNK));
  return Promise.all(chunks.map((chunk) => deps.contacts.customFieldIds(clientId, chunk))).then(
    (parts) => new Map(parts.flatMap((part) => [...part])),
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
    private readonly customFieldIds: Promise<Map<string, number>>,
  ) {}

  /**
   * Reads, decides and writes these groups. The first pass batches; later passes (rows whose transaction failed
   * a condition) read every uid lock too and write one group per transaction.
   */
  async pass(groups: ContactGroup[], attempt: number): Promise<void> {
    if (attempt > MAX_PASSES) {
      for (const group of groups) failRows(group.rows, 'state', 'email', CHANGED_MEANWHILE);
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
      for (const group of groups)
        failRows(
          group.rows.filter((r) => !r.status),
          'internal',
          'email',
          NOT_WRITTEN,
        );
    }
  }

  private async decide(groups: ContactGroup[], isolated: boolean): Promise<Decided[]> {
    const { contacts, ids } = this.deps;
    for (const group of groups) {
      group.contactId = undefined;
      for (const row of group.rows) {
        row.pending = undefined;
        row.status = undefined;
        row.errors = [];
      }
    }
    const emailLocks = await contacts.findIdsByEmail(
      this.clientId,
      groups.map((g) => g.email),
    );
    // An erased address left as a suppression marker is never imported again (its rows fail below).
    const emailOwners = new Map([...emailLocks].filter((entry): entry is [string, number] => entry[1] !== SUPPRESSED));
    const newGroups = groups.filter((g) => !emailLocks.has(g.email));
    // Batch pass: only new contacts' uids are looked up; an existing contact's new uid is guarded by its
    // transaction (attribute_not_exists), and a clash sends the row to the one-by-one pass, which reads them all.
    const uidsToCheck = uidsOf(isolated ? groups : newGroups);
    const [stored, uidOwners, firstId, customFieldIds] = await Promise.all([
      emailOwners.size > 0
        ? contacts.getMany(this.clientId, [...new Set(emailOwners.values())])
        : new Map<number, ContactRecord>(),
      uidsToCheck.length > 0 ? contacts.findIdsByUid(this.clientId, uidsToCheck) : new Map<string, number>(),
      newGroups.length > 0 ? ids.next('contact', newGroups.length) : Promise.resolve(0),
      this.customFieldIds,
    ]);

    for (const [i, group] of newGroups.entries()) group.contactId = firstId + i;
    for (const group of groups) {
      if (emailLocks.get(group.email) === SUPPRESSED)
        failRows(group.rows, 'suppressed', 'email', SUPPRESSED_ADDRESS_ERROR);
      const owner = emailOwners.get(group.email);
      if (owner === undefined) continue;
      if (stored.has(owner)) group.contactId = owner;
      else
        failRows(
          group.rows,
          'internal',
          'email',
          'The stored contact for this e-mail could not be read; send the row again',
        );
    }
    const storedUids = new Map(
      [...stored.values()].flatMap((c) => (c.client_contact_id ? [[c.client_contact_id, c.id] as const] : [])),
    );
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
  private checkUids(groups: ContactGroup[], holderOf: (uid: string) => number | undefined): void {
    const rows = groups.flatMap((g) => g.rows.map((row) => ({ group: g, row })));
    const emails = new Set(groups.map((g) => g.email));
    for (const [uid, claim] of this.uidClaims) if (emails.has(claim.email)) this.uidClaims.delete(uid);
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
        const other = claim.row.input.keyPrefix;
        failRow(
          row,
          'unique',
          key,
          `This client_contact_id is already set by ${other} (another e-mail) in this request`,
        );
      } else this.uidClaims.set(uid, { email: group.email, row });
    }
  }

  /** Writes what was decided; rows of cancelled transactions are sent again, conflicting ones decided again. */
  private async settle(decided: Decided[], attempt: number, resends: number): Promise<void> {
    if (decided.length === 0) return;
    const outcomes = await this.deps.contactWrites.writeMany(
      decided.map((d) => d.write),
      { isolated: attempt > 1 },
    );
    const resend: Decided[] = [];
    const conflicts: ContactGroup[] = [];
    decided.forEach((item, i) => {
      const outcome = outcomes[i] ?? { status: 'error', message: 'no outcome', retryable: true };
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
          // Only a write that may land later is "send again"; one the store refused is an invalid row.
          if (outcome.retryable)
            failRows(
              item.group.rows.filter((r) => r.pending),
              'internal',
              'email',
              NOT_WRITTEN,
            );
          else
            for (const row of item.group.rows.filter((r) => r.pending))
              failRow(row, 'format', row.input.keyPrefix, REFUSED);
          break;
      }
    });
    const tooOften = resends >= MAX_RESENDS;
    if (tooOften)
      for (const item of resend)
        failRows(
          item.group.rows.filter((r) => r.pending),
          'internal',
          'email',
          NOT_WRITTEN,
        );
    await Promise.all([
      resend.length > 0 && !tooOften ? this.settle(resend, attempt, resends + 1) : undefined,
      conflicts.length > 0 ? this.pass(conflicts, attempt + 1) : undefined,
    ]);
  }
}

function uidsOf(groups: ContactGroup[]): string[] {
  const uids = groups.flatMap((g) => g.rows.map((r) => r.patch.values.client_contact_id));
  return [...new Set(uids.filter((uid): uid is string => !!uid))];
}
