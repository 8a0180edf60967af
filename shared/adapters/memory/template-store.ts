import type {
  SoftDeleteOutcome,
  TemplateChanges,
  TemplateRecord,
  TemplateStore,
  TemplateSummary,
} from '../../domain/templates/template-store.js';
import type { MemoryJourneyReads } from './engine-data.js';
import { MemoryWorkflowData, recordKey } from './workflow-data.js';

const copy = <T>(value: T): T => structuredClone(value);

/** TemplateStore in memory (client templates; system templates are served from code). */
export class MemoryTemplateStore implements TemplateStore {
  constructor(
    readonly data: MemoryWorkflowData = new MemoryWorkflowData(),
    private readonly journeys?: Pick<MemoryJourneyReads, 'indexOf'>,
  ) {}

  async get(clientId: number, templateId: number): Promise<TemplateRecord | undefined> {
    const found = this.data.templates.get(recordKey(clientId, templateId));
    return found && copy(found);
  }

  async getMany(clientId: number, templateIds: number[]): Promise<TemplateRecord[]> {
    return templateIds.flatMap((id) => {
      const found = this.data.templates.get(recordKey(clientId, id));
      return found ? [copy(found)] : [];
    });
  }

  async listSummaries(
    clientId: number,
    page: { limit: number; afterId: number },
  ): Promise<{ templates: TemplateSummary[]; more: boolean }> {
    const after = [...this.data.templates.values()]
      .filter((t) => t.client_id === clientId && t.id > page.afterId)
      .sort((a, b) => a.id - b.id);
    const templates = after
      .slice(0, page.limit)
      .map(({ html_body: _html, text_body: _text, ...summary }) => copy(summary));
    return { templates, more: after.length > page.limit };
  }

  async create(template: TemplateRecord): Promise<void> {
    const k = recordKey(template.client_id, template.id);
    if (this.data.templates.has(k)) throw new Error(`template ${template.id} exists`);
    this.data.templates.set(k, copy(template));
  }

  async update(
    clientId: number,
    templateId: number,
    changes: TemplateChanges,
    at: string,
  ): Promise<TemplateRecord | undefined> {
    const stored = this.data.templates.get(recordKey(clientId, templateId));
    if (!stored || stored.deleted_at) return undefined;
    for (const [field, value] of Object.entries(changes))
      if (value !== undefined) Object.assign(stored, { [field]: value });
    stored.updated_at = at;
    return copy(stored);
  }

  async softDelete(
    template: TemplateRecord,
    workflowIds: readonly number[],
    at: string,
    journeyIndexVersion?: number,
  ): Promise<SoftDeleteOutcome> {
    const stored = this.data.templates.get(recordKey(template.client_id, template.id));
    if (!stored || stored.deleted_at) return { kind: 'missing' };
    for (const workflowId of workflowIds) {
      const customization = this.data.customizations.get(recordKey(template.client_id, workflowId));
      if (customization?.template_id === template.id) return { kind: 'in_use', workflowId };
    }
    if (
      journeyIndexVersion !== undefined &&
      (this.journeys?.indexOf(template.client_id)?.version ?? 0) !== journeyIndexVersion
    ) {
      return { kind: 'journeys_changed' };
    }
    stored.deleted_at = at;
    stored.updated_at = at;
    // A clone releases its workflow's marker, so the next clone-template makes a fresh copy.
    if (template.source_workflow_id !== undefined && workflowIds.includes(template.source_workflow_id)) {
      const marker = this.data.customizations.get(recordKey(template.client_id, template.source_workflow_id));
      if (marker) delete marker.clone_template_id;
    }
    return { kind: 'deleted', template: { ...template, deleted_at: at, updated_at: at } };
  }
}
