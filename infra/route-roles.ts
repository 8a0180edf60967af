import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { authenticates, type RouteDefinition } from '../functions/routes.js';

/**
 * The HTTP route functions' roles, one per distinct set of needs: routes whose entries ask for exactly the same
 * (table access, queues, schedules, e-mail, link secret, the JWT secret) share a role, which then holds exactly what
 * each of them would have held alone — least privilege per entry is unchanged. It keeps the stack under
 * CloudFormation's 500 resources: a role and its policy are 2 resources per function otherwise (docs/decisions.md).
 */
export class RouteRoles extends Construct {
  private readonly roles = new Map<string, Role>();

  constructor(
    scope: Construct,
    id: string,
    private readonly options: { jwtSecret: boolean },
  ) {
    super(scope, id);
  }

  /** The role for the route's needs, created on first use. */
  roleFor(route: RouteDefinition): Role {
    const needs = {
      tableAccess: route.tableAccess,
      sendsTo: [...(route.sendsTo ?? [])].sort(),
      schedules: route.schedules === true,
      sendsEmail: route.sendsEmail === true,
      usesLinkSecret: route.usesLinkSecret === true,
      jwtSecret: this.options.jwtSecret && authenticates(route),
    };
    const key = JSON.stringify(needs);
    let role = this.roles.get(key);
    if (!role) {
      const words = [
        needs.tableAccess,
        ...needs.sendsTo.map((q) => `send ${q}`),
        ...(needs.schedules ? ['schedules'] : []),
        ...(needs.sendsEmail ? ['e-mail'] : []),
        ...(needs.usesLinkSecret ? ['link secret'] : []),
        ...(needs.jwtSecret ? ['JWT secret'] : []),
      ];
      role = new Role(this, `Role${this.roles.size}`, {
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        description: `HTTP routes that need: ${words.join(', ')}`,
      });
      this.roles.set(key, role);
    }
    return role;
  }
}
