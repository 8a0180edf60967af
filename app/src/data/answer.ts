import { type ErrorItem, failureOf } from '../api/client.js';

/** What a page shows of a refused or failed call: the envelope's message and its error items (`key` names the field). */
export interface Failure {
  message: string;
  errors: ErrorItem[];
  status?: number;
}

/** A refusal of the API, thrown by `answerOf` so a page's load can be one `try`. */
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly errors: ErrorItem[],
    readonly status: number,
  ) {
    super(message);
  }
}

/** The answer's body, or an ApiFailure with the envelope's message and items (`what` names the call when it has none). */
export async function answerOf<D>(
  request: Promise<{ data?: D; error?: unknown; response: Response }>,
  what: string,
): Promise<D> {
  const { data, error, response } = await request;
  if (response.ok && data !== undefined) return data;
  const { message, errors } = failureOf(error, `${what} failed (${response.status})`);
  throw new ApiFailure(message, errors, response.status);
}

/** Any error of a load or an action, as the page shows it. */
export function failureOfError(error: unknown): Failure {
  if (error instanceof ApiFailure) return { message: error.message, errors: error.errors, status: error.status };
  return { message: error instanceof Error ? error.message : String(error), errors: [] };
}

/** The words of the error items about `key`, for the field that shows them. */
export const fieldErrorOf = (failure: Failure | undefined, key: string): string | undefined =>
  failure?.errors
    .filter((item) => item.key === key)
    .map((item) => item.error)
    .join(' ') || undefined;
