import type { AttributeValue as LambdaAttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { SegmentChange } from '../../domain/segments/route-segment-changes.js';
import { keys } from './keys.js';

const imageOf = (image: Record<string, LambdaAttributeValue> | undefined) =>
  image ? unmarshall(image as Record<string, AttributeValue>) : undefined;

const ENGAGEMENT_SK = keys.contactEngagementSkPrefix;

/** `CONTACT#<client>#<contact>`: the partition of a contact's own items (keys.contact, keys.contactCounters). */
const CONTACT_PK = /^CONTACT#(\d+)#(\d+)$/;

/**
 * The contact changes in a batch of the table's change stream that segment membership may care about: the contact
 * item itself (sk CONTACT), its event counters (sk EVCOUNT) and its engagement with a source (sk ENG#<source>). Every other record (status logs, executions, the
 * contact's segment state, which has no entity and is never streamed) is none.
 */
export function segmentChangesOfStreamRecords(records: readonly DynamoDBRecord[]): SegmentChange[] {
  return records.flatMap((record) => {
    const old = imageOf(record.dynamodb?.OldImage);
    const next = imageOf(record.dynamodb?.NewImage);
    const image = next ?? old;
    if (!image) return [];
    const match = CONTACT_PK.exec(String(image['pk']));
    const sk = String(image['sk']);
    const source = sk.startsWith(ENGAGEMENT_SK) ? sk.slice(ENGAGEMENT_SK.length) : undefined;
    const item = sk === 'CONTACT' ? 'contact' : sk === 'EVCOUNT' ? 'counters' : source ? 'engagement' : undefined;
    if (!match || !item) return [];
    return [
      {
        clientId: Number(match[1]),
        contactId: Number(match[2]),
        item,
        ...(source ? { source } : {}),
        ...(old ? { old } : {}),
        ...(next ? { new: next } : {}),
      } satisfies SegmentChange,
    ];
  });
}
