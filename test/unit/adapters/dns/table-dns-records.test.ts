import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { TableDnsRecords, publishDnsRecords } from '../../../../shared/adapters/dns/table-dns-records.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
afterEach(() => dbMock.reset());
const TABLE = 'tbl';

describe('the local DNS in the table (offline: the exact requests)', () => {
  it('publishes with one ADD per name and type, names lower-cased and the trailing dot dropped', async () => {
    // Prepare
    dbMock.on(UpdateCommand).resolves({});

    // Act
    await publishDnsRecords(db, TABLE, [
      { name: '_els-challenge.Acme.Example.', type: 'TXT', value: 'els-domain-verification=AbC' },
      { name: '_els-challenge.acme.example', type: 'TXT', value: 'other' },
      { name: 'bounce.acme.example', type: 'MX', value: 'Feedback-SMTP.us-east-1.amazonses.com.' },
      { name: 'bounce.acme.example', type: 'TXT', value: 'v=spf1 include:amazonses.com ~all' },
    ]);

    // Assess
    expect(dbMock.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      {
        TableName: TABLE,
        Key: { pk: 'DEVDNS#_els-challenge.acme.example', sk: 'TXT' },
        UpdateExpression: 'ADD #values :values',
        ExpressionAttributeNames: { '#values': 'values' },
        ExpressionAttributeValues: { ':values': new Set(['els-domain-verification=AbC', 'other']) },
      },
      {
        TableName: TABLE,
        Key: { pk: 'DEVDNS#bounce.acme.example', sk: 'MX' },
        UpdateExpression: 'ADD #values :values',
        ExpressionAttributeNames: { '#values': 'values' },
        ExpressionAttributeValues: { ':values': new Set(['10 feedback-smtp.us-east-1.amazonses.com']) },
      },
      {
        TableName: TABLE,
        Key: { pk: 'DEVDNS#bounce.acme.example', sk: 'TXT' },
        UpdateExpression: 'ADD #values :values',
        ExpressionAttributeNames: { '#values': 'values' },
        ExpressionAttributeValues: { ':values': new Set(['v=spf1 include:amazonses.com ~all']) },
      },
    ]);
  });

  it('removes values with DELETE on the set', async () => {
    // Prepare
    dbMock.on(UpdateCommand).resolves({});

    // Act
    await new TableDnsRecords(db, TABLE).unpublish([
      { name: 'tok._domainkey.acme.example', type: 'CNAME', value: 'TOK.dkim.amazonses.com' },
    ]);

    // Assess
    expect(dbMock.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      {
        TableName: TABLE,
        Key: { pk: 'DEVDNS#tok._domainkey.acme.example', sk: 'CNAME' },
        UpdateExpression: 'DELETE #values :values',
        ExpressionAttributeNames: { '#values': 'values' },
        ExpressionAttributeValues: { ':values': new Set(['tok.dkim.amazonses.com']) },
      },
    ]);
  });

  it('resolves with one consistent GetItem: values as published, MX as exchange and priority, none as []', async () => {
    // Prepare
    dbMock
      .on(GetCommand, { Key: { pk: 'DEVDNS#bounce.acme.example', sk: 'MX' } })
      .resolves({ Item: { values: new Set(['20 b.example', '10 a.example']) } })
      .on(GetCommand, { Key: { pk: 'DEVDNS#_dmarc.acme.example', sk: 'TXT' } })
      .resolves({ Item: { pk: 'DEVDNS#_dmarc.acme.example', sk: 'TXT' } })
      .on(GetCommand, { Key: { pk: 'DEVDNS#x._domainkey.acme.example', sk: 'CNAME' } })
      .resolves({});
    const dns = new TableDnsRecords(db, TABLE);

    // Act
    const [mx, txt, cname] = await Promise.all([
      dns.mx('BOUNCE.acme.example.'),
      dns.txt('_dmarc.acme.example'),
      dns.cname('x._domainkey.acme.example'),
    ]);

    // Assess
    expect(mx).toEqual([
      { exchange: 'a.example', priority: 10 },
      { exchange: 'b.example', priority: 20 },
    ]);
    expect(txt).toEqual([]);
    expect(cname).toEqual([]);
    expect(dbMock.commandCalls(GetCommand).map((call) => call.args[0].input.ConsistentRead)).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('lists what is published at a name with one Query over its types', async () => {
    // Prepare
    dbMock.on(QueryCommand).resolves({
      Items: [
        { pk: 'DEVDNS#bounce.acme.example', sk: 'TXT', values: new Set(['v=spf1 include:amazonses.com ~all']) },
        { pk: 'DEVDNS#bounce.acme.example', sk: 'MX', values: new Set(['10 feedback-smtp.us-east-1.amazonses.com']) },
        { pk: 'DEVDNS#bounce.acme.example', sk: 'CNAME' },
      ],
    });

    // Act
    const records = await new TableDnsRecords(db, TABLE).published('Bounce.Acme.Example');

    // Assess
    expect(records).toEqual([
      { name: 'bounce.acme.example', type: 'TXT', value: 'v=spf1 include:amazonses.com ~all' },
      { name: 'bounce.acme.example', type: 'MX', value: 'feedback-smtp.us-east-1.amazonses.com', priority: 10 },
    ]);
    expect(dbMock.commandCalls(QueryCommand)[0]?.args[0].input).toEqual({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'DEVDNS#bounce.acme.example' },
      ConsistentRead: true,
    });
  });
});
