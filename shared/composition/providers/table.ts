import { createDocumentClient } from '../../adapters/dynamo/document-client.js';
import { onCountersDropped } from '../../adapters/dynamo/transactions.js';
import { logger } from '../../logger.js';
import type { Container, TableAccess } from '../container.js';

// A fact recorded without its day counters (issue 21: they kept conflicting) is a counted inexactness: say so.
onCountersDropped((dropped) => logger.warn('day counters dropped after repeated transaction conflicts', { dropped }));

/** The table every store adapter of a container shares; importing this brings the DynamoDB client into a bundle. */
export const tableOf = (c: Container): TableAccess => c.dynamo(createDocumentClient);
