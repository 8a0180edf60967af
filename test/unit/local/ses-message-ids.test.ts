import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSesLocal, type SesLocalHandle } from '../../../local/ses.js';

let ses: SesLocalHandle;
beforeAll(async () => {
  ses = await startSesLocal({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => ses.stop());

describe('the local SES', () => {
  it("gives every e-mail an id of its own (a UUID), not the package's 9 random digits that repeat within 100,000", async () => {
    // Prepare
    const client = new SESv2Client({
      region: 'us-east-1',
      endpoint: ses.url,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const send = (i: number) =>
      client.send(
        new SendEmailCommand({
          FromEmailAddress: 'sender@example.com',
          Destination: { ToAddresses: [`ids-${i}@example.com`] },
          Content: { Simple: { Subject: { Data: `Id ${i}` }, Body: { Text: { Data: 'Hi' } } } },
        }),
      );

    // Act
    const answers = await Promise.all([0, 1, 2, 3].map(send));

    // Assess
    const ids = answers.map((a) => a.MessageId);
    for (const id of ids) expect(id).toMatch(/^ses-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(4);
    client.destroy();
  });
});
