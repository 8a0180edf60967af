import type { RawAnswer } from './raw-request.js';

const ENVELOPE_KEYS = ['data', 'errors', 'message', 'meta', 'success'];
const ERROR_ITEM_KEYS = ['condition', 'error', 'key'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const sameKeys = (value: Record<string, unknown>, expected: string[]) =>
  Object.keys(value).sort().join(',') === expected.join(',');

/**
 * What is wrong with an answer, as short sentences (empty when nothing is): never a 5xx, always the envelope
 * `{data, errors, message, meta, success}` with `meta.request_id`; a failure has `data: {}` and at least one
 * `{condition, error, key}` item of strings.
 */
export function answerProblems(res: RawAnswer): string[] {
  if (res.status === 0) return ['the connection closed without an answer'];
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`answered ${res.status}`);
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return [...problems, `answered ${res.status} with a body that is not JSON`];
  }
  if (!isRecord(body) || !sameKeys(body, ENVELOPE_KEYS)) {
    return [...problems, `answered ${res.status} with a body that is not the envelope`];
  }
  if (!isRecord(body['meta']) || typeof body['meta']['request_id'] !== 'string' || body['meta']['request_id'] === '') {
    problems.push('has no meta.request_id string');
  }
  if (typeof body['message'] !== 'string') problems.push('has a message that is not a string');
  const failed = res.status >= 400;
  if (body['success'] !== !failed) problems.push(`answered ${res.status} with success: ${String(body['success'])}`);
  const errors = body['errors'];
  if (failed) {
    if (!isRecord(body['data']) || Object.keys(body['data']).length > 0)
      problems.push('failed with data other than {}');
    const items = Array.isArray(errors) ? errors : [];
    const wellFormed = items.every(
      (item) =>
        isRecord(item) && sameKeys(item, ERROR_ITEM_KEYS) && ERROR_ITEM_KEYS.every((k) => typeof item[k] === 'string'),
    );
    if (items.length === 0 || !wellFormed)
      problems.push('failed without a non-empty list of {condition, error, key} strings');
  } else if (!Array.isArray(errors) || errors.length > 0) {
    problems.push('succeeded with errors other than []');
  }
  return problems;
}
