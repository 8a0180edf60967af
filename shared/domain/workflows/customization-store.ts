import type { TemplateRecord } from '../templates/template-store.js';
import type { CustomizationAuditRecord, CustomizationRecord, Overrides } from './customization.js';

export interface CustomizationChange {
  clientId: number;
  workflowId: number;
  /** The complete overrides after the change (fields not listed are removed). */
  overrides: Overrides;
  /** The version read; undefined when the workflow had no overrides yet. */
  expectedVersion: number | undefined;
  audit: CustomizationAuditRecord;
  /** A client template the overrides point at: must still exist and be live when the write lands. */
  requireTemplateId?: number;
  at: string;
}

export type SaveOutcome = 'saved' | 'version_conflict' | 'template_missing';

export type CloneOutcome = { created: true } | { created: false; existingTemplateId: number };

export interface WorkflowCustomizationStore {
  /** Strongly consistent read of one workflow's customization item. */
  get(clientId: number, workflowId: number): Promise<CustomizationRecord | undefined>;
  /** The customization items that exist among these workflows, in one read. */
  getMany(clientId: number, workflowIds: readonly number[]): Promise<CustomizationRecord[]>;
  /** Writes the overrides and appends the audit record in one transaction, guarded by the version read. */
  save(change: CustomizationChange): Promise<SaveOutcome>;
  /**
   * Stores `copy` and sets the workflow's clone marker in one transaction, unless a marker exists — then the
   * existing copy's id is returned and nothing is written.
   */
  createClone(clientId: number, workflowId: number, copy: TemplateRecord): Promise<CloneOutcome>;
  /**
   * Up to `limit` records of the workflow's audit trail, newest first, after the record at `after` when given; `more`
   * when older records follow. Reads at most `limit` + 1 records.
   */
  listAudit(
    clientId: number,
    workflowId: number,
    page: AuditPage,
  ): Promise<{ entries: CustomizationAuditRecord[]; more: boolean }>;
}

/** Where an audit page starts: a record's time and id (its sort key). */
export interface AuditPosition {
  at: string;
  id: string;
}

export interface AuditPage {
  limit: number;
  after?: AuditPosition;
}
