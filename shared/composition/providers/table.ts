import { createDocumentClient } from '../../adapters/dynamo/document-client.js';
import type { Container, TableAccess } from '../container.js';

/** The table every store adapter of a container shares; importing this brings the DynamoDB client into a bundle. */
export const tableOf = (c: Container): TableAccess => c.dynamo(createDocumentClient);
