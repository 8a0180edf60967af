import { createDocumentClient } from '../../adapters/dynamo/document-client.js';
import type { Container, TableAccess } from '../container.js';

const standIns = new WeakMap<Container, TableAccess>();

/**
 * The table as the local runtime's stand-ins for DNS and SES's identity registry use it: through a client of their
 * own, so what would be DNS lookups and SES calls on AWS is not counted (nor fault-injected) as the service's
 * DynamoDB requests. One per container.
 */
export function standInTableOf(c: Container): TableAccess {
  let table = standIns.get(c);
  if (!table) {
    table = {
      db: createDocumentClient({ region: c.config.AWS_REGION, endpoint: c.config.AWS_ENDPOINT_URL_DYNAMODB }),
      tableName: c.config.TABLE_NAME,
    };
    standIns.set(c, table);
  }
  return table;
}
