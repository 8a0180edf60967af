import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import * as z from 'zod';

/**
 * A running `npm start` says where its stores are, in one small JSON file per API port, so that scripts started
 * beside it (`npm run invoke`, `npm run admin`) reach the same DynamoDB Local and SES whatever ports it was given.
 * The file lives in a folder of the user's own under the temp directory (`$TMPDIR/email-lifecycle-<uid>`, mode 700,
 * ignored when another user owns it) and is removed when the runtime stops.
 */
const RuntimeDescriptor = z.object({
  pid: z.number().int().positive(),
  /** e.g. `http://127.0.0.1:3000/api/v1` */
  baseUrl: z.url(),
  /** The API port: the key scripts look the runtime up by. */
  port: z.number().int().min(1).max(65535),
  dynamoEndpoint: z.url(),
  sesUrl: z.url(),
  tableName: z.string().min(1),
});
export type RuntimeDescriptor = z.infer<typeof RuntimeDescriptor>;

export function defaultDescriptorDir(): string {
  return join(tmpdir(), `email-lifecycle-${userInfo().uid}`);
}

export function descriptorPath(apiPort: number, dir = defaultDescriptorDir()): string {
  return join(dir, `api-${apiPort}.json`);
}

/**
 * Writes this process's descriptor (renamed into place, so a reader never sees half a file) and returns the
 * function that removes it again — only if it is still this process's: a later runtime may have taken the port.
 */
export function writeRuntimeDescriptor(
  runtime: Omit<RuntimeDescriptor, 'pid'>,
  dir = defaultDescriptorDir(),
): () => void {
  const descriptor: RuntimeDescriptor = { pid: process.pid, ...runtime };
  const file = descriptorPath(descriptor.port, dir);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  if (!ownFolder(dirname(file))) throw new Error(`${dirname(file)} belongs to another user`);
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(descriptor, null, 2)}\n`, { mode: 0o600 });
  renameSync(partial, file);
  return () => {
    if (readDescriptor(file)?.pid === process.pid) rmSync(file, { force: true });
  };
}

/**
 * The runtime serving `apiPort`, or undefined when there is no descriptor, it is unreadable, or its process is gone
 * (a runtime killed with SIGKILL leaves its file behind).
 */
export function findRuntime(apiPort: number, dir = defaultDescriptorDir()): RuntimeDescriptor | undefined {
  const descriptor = readDescriptor(descriptorPath(apiPort, dir));
  if (!descriptor || descriptor.port !== apiPort || !isAlive(descriptor.pid)) return undefined;
  return descriptor;
}

function readDescriptor(file: string): RuntimeDescriptor | undefined {
  // Another user could have created the folder first and planted a descriptor pointing at their own store.
  if (!ownFolder(dirname(file))) return undefined;
  try {
    const parsed = RuntimeDescriptor.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: gone. EPERM: the pid was reused by another user's process, which is no runtime of this checkout.
    return false;
  }
}

function ownFolder(dir: string): boolean {
  try {
    const uid = userInfo().uid;
    // uid is -1 where it does not exist (Windows): nothing to compare.
    return uid === -1 || statSync(dir).uid === uid;
  } catch {
    return false;
  }
}
