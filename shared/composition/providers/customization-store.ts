import { DynamoWorkflowCustomizationStore } from '../../adapters/dynamo/workflow-customization-store.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

export const customizationStore = provide(
  'customizations',
  (c) => new DynamoWorkflowCustomizationStore(tableOf(c).db, tableOf(c).tableName),
);
