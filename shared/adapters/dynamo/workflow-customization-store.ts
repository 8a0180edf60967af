import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
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
import { batchGetItems } from './batch-get.js';
import { stripKeys } from './items.js';
import { clientPk, keys } from './keys.js';
import { queryLimited } from './query-limited.js';
import { sendTransaction } from './transactions.js';

const conditionFailedAt = (error: unknown, index: number): boolean =>
  error instanceof TransactionCanceledException &&
  error.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';

/**
 * Per-client workflow customizations: one item per workflow (`WORKFLOW#<wid>`) holding the overrides, their version
 * and the clone marker; audit records beside it under `WORKFLOW#<wid>#AUDIT#<at>#<id>`.
 */
export class DynamoWorkflowCustomizationStore implements WorkflowCustomizationStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(clientId: number, workflowId: number): Promise<CustomizationRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.customization(clientId, workflowId),
        ConsistentRead: true,
      }),
    );
    return out.Item ? { ...stripKeys<CustomizationRecord>(out.Item), workflow_id: workflowId } : undefined;
  }

  async getMany(clientId: number, workflowIds: readonly number[]): Promise<CustomizationRecord[]> {
    const items = await batchGetItems(
      this.db,
      this.tableName,
      workflowIds.map((id) => keys.customization(clientId, id)),
      { consistentRead: true },
    );
    return items.map((item) => stripKeys<CustomizationRecord>(item)).filter((r) => typeof r.workflow_id === 'number');
  }

  /** Transaction: [0] overrides (version guard), [1] audit record, [2] the client template still live (optional). */
  async save(change: CustomizationChange): Promise<SaveOutcome> {
    const names: Record<string, string> = { '#v': 'version' };
    const values: Record<string, unknown> = {
      ':w': change.workflowId,
      ':nv': (change.expectedVersion ?? 0) + 1,
      ':at': change.at,
    };
    const sets = ['workflow_id = :w', '#v = :nv', 'updated_at = :at'];
    const removes: string[] = [];
    OVERRIDE_FIELDS.forEach((field, i) => {
      const value = change.overrides[field];
      names[`#o${i}`] = field;
      if (value === undefined) removes.push(`#o${i}`);
      else {
        values[`:o${i}`] = value;
        sets.push(`#o${i} = :o${i}`);
      }
    });
    if (change.expectedVersion !== undefined) values[':ev'] = change.expectedVersion;
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: this.tableName,
            Key: keys.customization(change.clientId, change.workflowId),
            UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
            ConditionExpression: change.expectedVersion === undefined ? 'attribute_not_exists(#v)' : '#v = :ev',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: {
              ...keys.customizationAudit(change.clientId, change.workflowId, change.audit.at, change.audit.id),
              ...change.audit,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...(change.requireTemplateId === undefined
          ? []
          : [
              {
                ConditionCheck: {
                  TableName: this.tableName,
                  Key: keys.template(change.clientId, change.requireTemplateId),
                  ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
                },
              },
            ]),
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return 'saved';
    } catch (error) {
      if (conditionFailedAt(error, 0)) return 'version_conflict';
      if (conditionFailedAt(error, 2)) return 'template_missing';
      throw error;
    }
  }

  /** Transaction: [0] clone marker set only if absent, [1] the copy. The loser reads the winner's marker. */
  async createClone(clientId: number, workflowId: number, copy: TemplateRecord): Promise<CloneOutcome> {
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: this.tableName,
            Key: keys.customization(clientId, workflowId),
            UpdateExpression: 'SET workflow_id = :w, clone_template_id = :t',
            ConditionExpression: 'attribute_not_exists(clone_template_id)',
            ExpressionAttributeValues: { ':w': workflowId, ':t': copy.id },
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: { ...keys.template(clientId, copy.id), ...copy },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return { created: true };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      // Lost to a concurrent clone (condition failed) or kept colliding with it: the marker names the copy.
      const existing = (await this.get(clientId, workflowId))?.clone_template_id;
      if (existing === undefined) throw error;
      return { created: false, existingTemplateId: existing };
    }
  }

  async listAudit(
    clientId: number,
    workflowId: number,
    page: AuditPage,
  ): Promise<{ entries: CustomizationAuditRecord[]; more: boolean }> {
    const { items, more } = await queryLimited(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': clientPk(clientId), ':prefix': keys.customizationAuditPrefix(workflowId) },
        ScanIndexForward: false,
        ...(page.after
          ? { ExclusiveStartKey: keys.customizationAudit(clientId, workflowId, page.after.at, page.after.id) }
          : {}),
      },
      page.limit,
    );
    return { entries: items.map((item) => stripKeys<CustomizationAuditRecord>(item)), more };
  }
}
