import { NestedStack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Construct, IConstruct } from 'constructs';
import { ServiceAlarms } from './alarms.js';
import type { EngineStack } from './engine-stack.js';
import { alarmsIn } from './on-call.js';
import { OperationsDashboard } from './operations-dashboard.js';
import type { SharedResources } from './shared-resources.js';

export interface OperationsStackProps {
  api: HttpApi;
  shared: SharedResources;
  engine: EngineStack;
  /** The whole app: every alarm under it is on the dashboard's status row. */
  app: IConstruct;
}

/**
 * What operators watch, as a nested stack: the service's alarms (the background functions' errors, the API's 5xx rate,
 * queue ages, SES reputation, log metrics) and the operations CloudWatch dashboard. The dead-letter queues keep their
 * own alarms beside them; every alarm of every stack sends to the on-call topic of the root stack.
 */
export class OperationsStack extends NestedStack {
  readonly alarms: ServiceAlarms;
  readonly dashboard: OperationsDashboard;

  constructor(scope: Construct, id: string, props: OperationsStackProps) {
    super(scope, id, { description: 'Email lifecycle: alarms and the operations dashboard' });
    const background = {
      api: props.api,
      shared: props.shared,
      consumers: props.engine.consumers,
      scheduled: props.engine.scheduled,
    };
    this.alarms = new ServiceAlarms(this, 'Alarms', { ...background, streams: props.engine.streams });
    this.dashboard = new OperationsDashboard(this, 'Dashboard', {
      ...background,
      alarms: this.alarms,
      allAlarms: alarmsIn(props.app),
    });
  }
}
