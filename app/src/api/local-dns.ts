import { clientOf, type ErrorItem } from './client.js';

/**
 * The local runtime's DNS (GET and PUT /api/v1/dev/dns-records), where a developer publishes a sending domain's
 * records: the domain checks read it there. These routes exist only on the local runtime (404 on AWS), so they are not
 * in the API document; their shapes are the dev routes' (shared/adapters/dns/dns-record-schema.ts), typed here.
 */
export interface LocalDnsRecord {
  name: string;
  type: 'TXT' | 'CNAME' | 'MX';
  value: string;
  /** MX only. */
  priority?: number;
}

interface Envelope<D> {
  success: boolean;
  message: string;
  data: D;
  errors: ErrorItem[];
  meta: Record<string, unknown>;
}

interface Answers<D> {
  200: { headers: Record<string, unknown>; content: { 'application/json': Envelope<D> } };
  default: { headers: Record<string, unknown>; content: { 'application/json': Envelope<unknown> } };
}

interface NoParameters {
  query?: never;
  header?: never;
  path?: never;
  cookie?: never;
}

export interface LocalDnsPaths {
  '/api/v1/dev/dns-records': {
    parameters: NoParameters;
    get: {
      parameters: { query: { name: string }; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: Answers<{ records: LocalDnsRecord[] }>;
    };
    put: {
      parameters: NoParameters;
      requestBody: { content: { 'application/json': { records: LocalDnsRecord[] } } };
      responses: Answers<{ records: LocalDnsRecord[] }>;
    };
  };
}

export const createLocalDnsApi = (baseUrl?: string) => clientOf<LocalDnsPaths>(baseUrl);
export type LocalDnsApi = ReturnType<typeof createLocalDnsApi>;
