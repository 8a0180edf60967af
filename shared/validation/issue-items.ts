import type * as z from './zod.js';
import { isErrorCondition, type ErrorCondition, type ErrorItem } from '../errors.js';

/**
 * zod issues → the envelope's error items, in one place. It sits below every entry point (HTTP routes, SQS batch
 * handlers) and the domain, so none of them imports a layer above itself.
 */
type Issue = z.core.$ZodIssue & { input?: unknown };

/** Maps one zod issue to the envelope's error item: `key` is the dotted field path, never the input value. */
export function issueToItem(issue: Issue, keyPrefix: string[] = []): ErrorItem {
  const key = [...keyPrefix, ...issue.path.map(String)].join('.');
  return { condition: conditionOf(issue), error: issue.message, key };
}

/**
 * The `params` of a custom zod issue (`z.refine`, `ctx.addIssue`) that names its envelope condition: zod types params as
 * any record, so this is what holds those conditions to the closed list.
 */
export const issueCondition = (condition: ErrorCondition): { condition: ErrorCondition } => ({ condition });

export function issuesToItems(issues: readonly Issue[], keyPrefix: string[] = []): ErrorItem[] {
  return issues.map((i) => issueToItem(i, keyPrefix));
}

function conditionOf(issue: Issue): ErrorCondition {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'required' : 'type';
    case 'too_small':
      return 'min';
    case 'too_big':
      return 'max';
    case 'invalid_format':
    case 'invalid_union':
      return 'format';
    case 'invalid_value':
      return 'enum';
    case 'custom': {
      const condition = (issue.params as { condition?: unknown } | undefined)?.condition;
      return isErrorCondition(condition) ? condition : 'format';
    }
    default:
      return 'format';
  }
}
