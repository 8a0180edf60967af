import { createHash } from 'node:crypto';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { authenticates, type RouteDefinition } from '../shared/http/route-definition.js';
import { constructIdOf } from './node-function.js';

/** Longer ids than this become `Role<TableAccess>Needs<hash>`: still stable, no longer a sentence. */
const READABLE_ID_LENGTH = 64;

/** What a route's role must allow, as its entry says: two routes with equal needs share a role. */
export interface RouteNeeds {
  tableAccess: RouteDefinition['tableAccess'];
  sendsTo: string[];
  schedules: boolean;
  sendsEmail: boolean;
  managesSenders: boolean;
  usesLinkSecret: boolean;
  jwtSecret: boolean;
}

export function routeNeedsOf(route: RouteDefinition, jwtSecret: boolean): RouteNeeds {
  return {
    tableAccess: route.tableAccess,
    sendsTo: [...new Set(route.sendsTo ?? [])].sort(),
    schedules: route.schedules === true,
    sendsEmail: route.sendsEmail === true,
    managesSenders: route.managesSenders === true,
    usesLinkSecret: route.usesLinkSecret === true,
    jwtSecret: jwtSecret && authenticates(route),
  };
}

/**
 * The construct id of the role for `needs`, derived from the needs alone (`RoleTableReadQueueWebhooks`,
 * `RoleTableReadWriteEmailLinkSecret`): a route with new needs adds a role and renames none, so no other route's role
 * is replaced. Past READABLE_ID_LENGTH characters, the table access and a hash of the needs.
 */
export function roleIdOf(needs: RouteNeeds): string {
  const words = [
    `Table${constructIdOf(needs.tableAccess)}`,
    ...needs.sendsTo.map((queue) => `Queue${constructIdOf(queue)}`),
    ...(needs.schedules ? ['Schedules'] : []),
    ...(needs.sendsEmail ? ['Email'] : []),
    ...(needs.managesSenders ? ['Senders'] : []),
    ...(needs.usesLinkSecret ? ['LinkSecret'] : []),
    ...(needs.jwtSecret ? ['JwtSecret'] : []),
  ];
  const readable = `Role${words.join('')}`;
  if (readable.length <= READABLE_ID_LENGTH) return readable;
  const hash = createHash('sha256').update(JSON.stringify(needs)).digest('hex').slice(0, 10);
  return `Role${words[0]}Needs${hash}`;
}

/**
 * The HTTP route functions' roles of one stack, one per distinct set of needs: routes whose entries ask for exactly the
 * same (table access, queues, schedules, e-mail, sending domains, link secret, the JWT secret) share a role, which then holds exactly
 * what each of them would have held alone — least privilege per entry is unchanged. A role and its policy are 2
 * resources per function otherwise.
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
    const needs = routeNeedsOf(route, this.options.jwtSecret);
    const id = roleIdOf(needs);
    let role = this.roles.get(id);
    if (!role) {
      const words = [
        needs.tableAccess,
        ...needs.sendsTo.map((q) => `send ${q}`),
        ...(needs.schedules ? ['schedules'] : []),
        ...(needs.sendsEmail ? ['e-mail'] : []),
        ...(needs.managesSenders ? ['sending domains'] : []),
        ...(needs.usesLinkSecret ? ['link secret'] : []),
        ...(needs.jwtSecret ? ['JWT secret'] : []),
      ];
      role = new Role(this, id, {
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        description: `HTTP routes that need: ${words.join(', ')}`,
      });
      this.roles.set(id, role);
    }
    return role;
  }
}
