import type { TemplateRecord } from '../../domain/templates/template-store.js';
import type { CustomizationAuditRecord, CustomizationRecord } from '../../domain/workflows/customization.js';

/**
 * What the memory template and customization stores share, as their DynamoDB twins share a partition: a
 * soft delete checks and releases customizations, a clone writes a template.
 */
export class MemoryWorkflowData {
  readonly templates = new Map<string, TemplateRecord>();
  readonly customizations = new Map<string, CustomizationRecord>();
  readonly audits = new Map<string, CustomizationAuditRecord[]>();
}

export const recordKey = (clientId: number, id: number): string => `${clientId}\u0000${id}`;
