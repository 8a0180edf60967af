import { deliveryHandler } from '../../shared/queue/webhook-delivery-handler.js';

/**
 * webhooks-failing queue → attempts to endpoints that are failing, and every retry: its own small
 * concurrency is all a dead endpoint's 10 s timeouts can hold.
 */
export const handler = deliveryHandler('failing');
