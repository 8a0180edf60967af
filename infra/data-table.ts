import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, StreamViewType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { TABLE_KEYS } from '../shared/adapters/dynamo/table-definition.js';

export interface DataTableOptions {
  /** Deletion protection on, and the table is RETAINed when the stack goes away. */
  deletionProtection: boolean;
}

/** The single table (DESIGN.md §4); every key and index name comes from TABLE_KEYS, shared with the local runtime. */
export function createDataTable(scope: Construct, options: DataTableOptions): TableV2 {
  return new TableV2(scope, 'Table', {
    partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
    sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
    globalSecondaryIndexes: [
      {
        indexName: TABLE_KEYS.gsi1.name,
        partitionKey: { name: TABLE_KEYS.gsi1.partitionKey, type: AttributeType.STRING },
        sortKey: { name: TABLE_KEYS.gsi1.sortKey, type: AttributeType.STRING },
      },
      {
        indexName: TABLE_KEYS.gsi2.name,
        partitionKey: { name: TABLE_KEYS.gsi2.partitionKey, type: AttributeType.STRING },
        sortKey: { name: TABLE_KEYS.gsi2.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.KEYS_ONLY,
      },
      {
        indexName: TABLE_KEYS.gsi3.name,
        partitionKey: { name: TABLE_KEYS.gsi3.partitionKey, type: AttributeType.STRING },
        sortKey: { name: TABLE_KEYS.gsi3.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.KEYS_ONLY,
      },
    ],
    timeToLiveAttribute: TABLE_KEYS.ttlAttribute,
    // The change stream the stream functions read (functions/streams.ts: webhook facts).
    dynamoStream: StreamViewType[TABLE_KEYS.streamViewType],
    billing: Billing.onDemand(),
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: options.deletionProtection,
    removalPolicy: options.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  });
}
