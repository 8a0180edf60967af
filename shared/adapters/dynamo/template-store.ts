import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import {
  TEMPLATE_SUMMARY_FIELDS,
  type SoftDeleteOutcome,
  type TemplateChanges,
  type TemplateRecord,
  type TemplateStore,
  type TemplateSummary,
} from '../../domain/templates/template-store.js';
import { batchGetItems } from './batch-get.js';
import { stripKeys } from './items.js';
import { clientPk, keys } from './keys.js';
import { journeyIndexUnchanged } from './journey-index-check.js';
import { queryLimited } from './query-limited.js';
import { sendTransaction } from './transactions.js';

/** Client templates under `CLIENT#<id>` / `TEMPLATE#<id>` (system templates are served from code). */
export class DynamoTemplateStore implements TemplateStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(clientId: number, templateId: number): Promise<TemplateRecord | undefined> {
    // Strongly consistent: a clone written by a concurrent request must be visible to the request that lost.
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.template(clientId, templateId), ConsistentRead: true }),
    );
    return out.Item ? stripKeys<TemplateRecord>(out.Item) : undefined;
  }

  async getMany(clientId: number, templateIds: number[]): Promise<TemplateRecord[]> {
    // Eventually consistent: only templates named by a saved customization are asked for, and its save checked them live.
    const items = await batchGetItems(
      this.db,
      this.tableName,
      templateIds.map((id) => keys.template(clientId, id)),
      {
        consistentRead: false,
      },
    );
    return items.map((item) => stripKeys<TemplateRecord>(item));
  }

  async listSummaries(
    clientId: number,
    page: { limit: number; afterId: number },
  ): Promise<{ templates: TemplateSummary[]; more: boolean }> {
    // The bodies (up to 512 KB each) stay in the table: only the list's attributes travel.
    const names = Object.fromEntries(TEMPLATE_SUMMARY_FIELDS.map((field, i) => [`#a${i}`, field]));
    const { items, more } = await queryLimited(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': clientPk(clientId),
          ':from': keys.template(clientId, page.afterId + 1).sk,
          ':to': `${keys.templateSkPrefix}\uffff`,
        },
        ProjectionExpression: Object.keys(names).join(', '),
        ExpressionAttributeNames: names,
      },
      page.limit,
    );
    return { templates: items.map((item) => stripKeys<TemplateSummary>(item)), more };
  }

  async create(template: TemplateRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.template(template.client_id, template.id), ...template },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async update(
    clientId: number,
    templateId: number,
    changes: TemplateChanges,
    at: string,
  ): Promise<TemplateRecord | undefined> {
    const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':at': at };
    const sets = entries.map(([field, value], i) => {
      names[`#f${i}`] = field;
      values[`:v${i}`] = value;
      return `#f${i} = :v${i}`;
    });
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.template(clientId, templateId),
          UpdateExpression: `SET ${[...sets, 'updated_at = :at'].join(', ')}`,
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
          ExpressionAttributeNames: entries.length > 0 ? names : undefined,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes ? stripKeys<TemplateRecord>(out.Attributes) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  /**
   * One transaction: the template is marked deleted (if still live), every listed workflow's customization is
   * checked not to use it, and the clone's own workflow has its clone marker removed.
   */
  async softDelete(
    template: TemplateRecord,
    workflowIds: readonly number[],
    at: string,
    journeyIndexVersion?: number,
  ): Promise<SoftDeleteOutcome> {
    const notUsing = 'attribute_not_exists(template_id) OR template_id <> :id';
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: this.tableName,
            Key: keys.template(template.client_id, template.id),
            UpdateExpression: 'SET deleted_at = :at, updated_at = :at',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
            ExpressionAttributeValues: { ':at': at },
          },
        },
        ...workflowIds.map((workflowId) => {
          const Key = keys.customization(template.client_id, workflowId);
          return workflowId === template.source_workflow_id
            ? {
                Update: {
                  TableName: this.tableName,
                  Key,
                  UpdateExpression: 'REMOVE clone_template_id',
                  ConditionExpression: notUsing,
                  ExpressionAttributeValues: { ':id': template.id },
                },
              }
            : {
                ConditionCheck: {
                  TableName: this.tableName,
                  Key,
                  ConditionExpression: notUsing,
                  ExpressionAttributeValues: { ':id': template.id },
                },
              };
        }),
        // Last: a journey published since the index was read may send this template.
        ...(journeyIndexVersion === undefined
          ? []
          : [journeyIndexUnchanged(this.tableName, template.client_id, journeyIndexVersion)]),
      ],
    });
    try {
      await sendTransaction(this.db, command);
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed === 0) return { kind: 'missing' };
      if (failed === workflowIds.length + 1) return { kind: 'journeys_changed' };
      if (failed > 0) return { kind: 'in_use', workflowId: workflowIds[failed - 1]! };
      throw error;
    }
    return { kind: 'deleted', template: { ...template, deleted_at: at, updated_at: at } };
  }
}
