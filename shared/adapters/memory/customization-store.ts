import type { TemplateRecord } from '../../domain/templates/template-store.js';
import {
  OVERRIDE_FIELDS,
  type CustomizationAuditRecord,
  type CustomizationRecord,
} from '../../domain/workflows/customization.js';
import type {
  AuditPage,
  CloneOutcome,
  CustomizationChange,
  SaveOutcome,
  WorkflowCustomizationStore,
} from '../../domain/workflows/customization-store.js';
import { MemoryWorkflowData, recordKey } from './workflow-data.js';

const copy = <T>(value: T): T => structuredClone(value);

/** WorkflowCustomizationStore in memory; shares `data` with the MemoryTemplateStore of the same set. */
export class MemoryWorkflowCustomizationStore implements WorkflowCustomizationStore {
  constructor(readonly data: MemoryWorkflowData = new MemoryWorkflowData()) {}

  async get(clientId: number, workflowId: number): Promise<CustomizationRecord | undefined> {
    const found = this.data.customizations.get(recordKey(clientId, workflowId));
    return found && { ...copy(found), workflow_id: workflowId };
  }

  async getMany(clientId: number, workflowIds: readonly number[]): Promise<CustomizationRecord[]> {
    return workflowIds.flatMap((id) => {
      const found = this.data.customizations.get(recordKey(clientId, id));
      return found ? [copy(found)] : [];
    });
  }

  async save(change: CustomizationChange): Promise<SaveOutcome> {
    const k = recordKey(change.clientId, change.workflowId);
    const stored = this.data.customizations.get(k);
    // The same order of checks as the transaction's cancellation reasons: version guard, then the template.
    if ((stored?.version ?? undefined) !== change.expectedVersion) return 'version_conflict';
    if (change.requireTemplateId !== undefined) {
      const template = this.data.templates.get(recordKey(change.clientId, change.requireTemplateId));
      if (!template || template.deleted_at) return 'template_missing';
    }
    const next: CustomizationRecord = { ...(stored ?? {}), workflow_id: change.workflowId };
    for (const field of OVERRIDE_FIELDS) {
      const value = change.overrides[field];
      if (value === undefined) delete next[field];
      else Object.assign(next, { [field]: value });
    }
    next.version = (change.expectedVersion ?? 0) + 1;
    next.updated_at = change.at;
    this.data.customizations.set(k, next);
    this.data.audits.set(k, [...(this.data.audits.get(k) ?? []), copy(change.audit)]);
    return 'saved';
  }

  async createClone(clientId: number, workflowId: number, clone: TemplateRecord): Promise<CloneOutcome> {
    const k = recordKey(clientId, workflowId);
    const existing = this.data.customizations.get(k)?.clone_template_id;
    if (existing !== undefined) return { created: false, existingTemplateId: existing };
    const templateKey = recordKey(clientId, clone.id);
    if (this.data.templates.has(templateKey)) throw new Error(`template ${clone.id} exists`);
    this.data.templates.set(templateKey, copy(clone));
    this.data.customizations.set(k, {
      ...(this.data.customizations.get(k) ?? {}),
      workflow_id: workflowId,
      clone_template_id: clone.id,
    });
    return { created: true };
  }

  async listAudit(
    clientId: number,
    workflowId: number,
    page: AuditPage,
  ): Promise<{ entries: CustomizationAuditRecord[]; more: boolean }> {
    const entries = this.data.audits.get(recordKey(clientId, workflowId)) ?? [];
    // Newest first, as the DynamoDB sort key `<at>#<id>` orders them.
    const sortKey = (a: { at: string; id: string }) => `${a.at}#${a.id}`;
    const after = page.after ? sortKey(page.after) : undefined;
    const older = [...entries]
      .sort((a, b) => (sortKey(b) < sortKey(a) ? -1 : 1))
      .filter((a) => after === undefined || sortKey(a) < after);
    return { entries: older.slice(0, page.limit).map(copy), more: older.length > page.limit };
  }
}
