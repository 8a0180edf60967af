import { deliveryHandler } from '../../shared/queue/webhook-delivery-handler.js';

/**
 * webhooks queue → one attempt per message to an endpoint that answers; a delivery to a failing
 * endpoint moves to the failing lane (deliver-webhook-failing).
 */
export const handler = deliveryHandler('healthy');
