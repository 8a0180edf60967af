import type { ClientSending } from '../../domain/domains/sender-identities.js';
import { ENTITY, keys } from './keys.js';

/**
 * The Update that records a client's SES tenant and configuration set on its SENDER item, written when the tenant is
 * made with the client (admin CLI) and again on a domain's proof (in that transaction). Attributes only: the domain
 * checks keep the verified domains on the same item; `entity` lets the change stream see the item.
 */
export const senderSendingUpdate = (tableName: string, clientId: number, sending: ClientSending) => ({
  TableName: tableName,
  Key: keys.sender(clientId),
  UpdateExpression:
    'SET entity = :entity, tenant = :tenant, configuration_set = :set, ' +
    'verified_domains = if_not_exists(verified_domains, :none)',
  ExpressionAttributeValues: {
    ':entity': ENTITY.sender,
    ':tenant': sending.tenant,
    ':set': sending.configurationSet,
    ':none': [],
  },
});
