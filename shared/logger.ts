import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The service's structured JSON logger (one per container). Log lines carry request and client ids;
 * never a key, a token or a message body.
 */
export const logger = new Logger({ serviceName: process.env['POWERTOOLS_SERVICE_NAME'] ?? 'email-lifecycle' });
