import type { App } from 'aws-cdk-lib';
import { addNagChecks } from './nag.js';
import { EmailLifecycleStack } from './stack.js';
import { readStackSettings } from './stack-settings.js';

export const STACK_NAME = 'EmailLifecycle';

/** Everything infra/app.ts puts into the app, so the tests synthesize exactly what `cdk deploy` does. */
export function composeApp(app: App): EmailLifecycleStack {
  const stack = new EmailLifecycleStack(app, STACK_NAME, {
    description:
      'Email lifecycle service: API Gateway HTTP API, Lambda (Node.js 22, arm64), DynamoDB, SQS, EventBridge ' +
      'Scheduler, SES v2',
    settings: readStackSettings(app.node),
  });
  addNagChecks(app);
  return stack;
}
