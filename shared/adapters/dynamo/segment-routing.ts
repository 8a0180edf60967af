import type { AttributeValue as LambdaAttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { SegmentChange } from '../../domain/segments/route-segment-changes.js';

const imageOf = (image: Record<string, LambdaAttributeValue> | undefined) =>
  image ? unmarshall(image as Record<string, AttributeValue>) : undefined;

/** `CONTACT#<client>#<contact>`: the partition of a contact's own items (keys.contact, keys.contactCounters). */
const CONTACT_PK = /^CONTACT#(\d+)#(\d+)$/;

/**
 * The contact changes in a batch of the table's change stream that segment membership may care about: the contact
 * item itself (sk CONTACT) and its event counters (sk EVCOUNT). Every other record (status logs, executions, the
 * contact's segment state, which has no entity and is never streamed) is none.
 */
export function segmentChangesOfStreamRecords(records: readonly DynamoDBRecord[]): SegmentChange[] {
  return records.flatMap((record) => {
    const old = imageOf(record.dynamodb?.OldImage);
    const next = imageOf(record.dynamodb?.NewImage);
    const image = next ?? old;
    if (!image) return [];
    const match = CONTACT_PK.exec(String(image['pk']));
    const item = image['sk'] === 'CONTACT' ? 'contact' : image['sk'] === 'EVCOUNT' ? 'counters' : undefined;
    if (!match || !item) return [];
    return [
      {
        clientId: Number(match[1]),
        contactId: Number(match[2]),
        item,
        ...(old ? { old } : {}),
        ...(next ? { new: next } : {}),
      } satisfies SegmentChange,
    ];
  });
}
