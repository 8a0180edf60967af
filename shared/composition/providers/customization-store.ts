import { DynamoWorkflowCustomizationStore } from '../../adapters/dynamo/workflow-customization-store.js';
import { provide } from '../container.js';

export const customizationStore = provide(
  'customizations',
  (c) => new DynamoWorkflowCustomizationStore(c.dynamo().db, c.dynamo().tableName),
);
