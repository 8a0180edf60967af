import { queueFunctions } from '../functions/queues.js';
import { routes } from '../functions/routes.js';
import { scheduledFunctions } from '../functions/scheduled.js';
import { streamFunctions } from '../functions/streams.js';
import { entryOf } from './node-function.js';
import { routesOnAws } from './route-function.js';

export interface FunctionEntry {
  /** `http/contacts-get`, `queue/execute-workflow`, … */
  name: string;
  /** The file esbuild bundles. */
  entry: string;
}

/**
 * Every Lambda function the stack deploys, as the entry file it bundles: one per AWS route, queue, scheduled and
 * stream function, and the API's fallback. Read by the bundle-size test and `npm run bench:cold`.
 */
export function functionEntries(): FunctionEntry[] {
  const of = (kind: Parameters<typeof entryOf>[0], handler: string): FunctionEntry => ({
    name: `${kind}/${handler}`,
    entry: entryOf(kind, handler),
  });
  return [
    ...routesOnAws(routes).map((route) => of('http', route.handler)),
    ...queueFunctions.map((definition) => of('queue', definition.handler)),
    ...scheduledFunctions.map((definition) => of('scheduled', definition.handler)),
    ...streamFunctions.map((definition) => of('stream', definition.handler)),
    of('fallback', 'unmatched'),
  ];
}
