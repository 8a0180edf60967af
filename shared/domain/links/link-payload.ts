/** What a public link is for: `u` → /u/{token} (unsubscribe), `v` → /v/{token} (view in the browser). */
export const LINK_PURPOSES = { unsubscribe: 'u', view: 'v' } as const;
export type LinkPurpose = (typeof LINK_PURPOSES)[keyof typeof LINK_PURPOSES];

export interface LinkPayload {
  purpose: LinkPurpose;
  clientId: number;
  /** The sent e-mail's UUID, lower case. */
  sentEmailId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** `purpose:clientId:uuid`, e.g. `u:42:0b6f…`: ≤ 54 bytes, so a token stays near 120 characters. */
const PAYLOAD = /^([uv]):([1-9][0-9]{0,14}):([0-9a-f-]{36})$/;

const isClientId = (id: unknown): id is number => Number.isSafeInteger(id) && (id as number) > 0;

/** The payload's text; throws on values no caller should produce (an unknown purpose, a malformed id). */
export function encodeLinkPayload(payload: LinkPayload): string {
  const sentEmailId = typeof payload.sentEmailId === 'string' ? payload.sentEmailId.toLowerCase() : '';
  if (payload.purpose !== 'u' && payload.purpose !== 'v') throw new RangeError('A link purpose is "u" or "v"');
  if (!isClientId(payload.clientId)) throw new RangeError('A link client id is a positive integer');
  if (!UUID.test(sentEmailId)) throw new RangeError('A link sent e-mail id is a UUID');
  return `${payload.purpose}:${payload.clientId}:${sentEmailId}`;
}

/** The payload a text holds, or undefined unless it is exactly what `encodeLinkPayload` writes. */
export function decodeLinkPayload(text: string): LinkPayload | undefined {
  const match = PAYLOAD.exec(text);
  if (!match || !UUID.test(match[3]!)) return undefined;
  const clientId = Number(match[2]);
  if (!isClientId(clientId)) return undefined;
  return { purpose: match[1] as LinkPurpose, clientId, sentEmailId: match[3]! };
}
