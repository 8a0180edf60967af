import { startDynamoLocal } from './local/dynamodb.js';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
const h = await startDynamoLocal({ port: 0, tableName: 'ttt' });
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: h.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }));
let seq = 0;
const item = (p: string) => ({ pk: `C#${p}`, sk: `CONTACT#${seq++}`, email: `x${seq}@e.com`, first_name: 'abc', custom_fields: {}, tags: [], n: 1 });
async function tx(n: number, per: number, parallel: boolean, cond = true) {
  const p = `${n}-${per}-${parallel}-${Math.random()}`;
  const batches = Array.from({ length: Math.ceil(n / per) }, (_, b) => Array.from({ length: Math.min(per, n - b * per) }, () => ({ Put: { TableName: 'ttt', Item: item(p), ...(cond ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}) } })));
  const t = performance.now();
  if (parallel) await Promise.all(batches.map((b) => db.send(new TransactWriteCommand({ TransactItems: b }))));
  else for (const b of batches) await db.send(new TransactWriteCommand({ TransactItems: b }));
  return performance.now() - t;
}
async function bw(n: number, parallel: boolean) {
  const p = `bw-${Math.random()}`;
  const batches = Array.from({ length: Math.ceil(n / 25) }, () => Array.from({ length: 25 }, () => ({ PutRequest: { Item: item(p) } })));
  const t = performance.now();
  if (parallel) await Promise.all(batches.map((b) => db.send(new BatchWriteCommand({ RequestItems: { ttt: b } }))));
  else for (const b of batches) await db.send(new BatchWriteCommand({ RequestItems: { ttt: b } }));
  return performance.now() - t;
}
for (let w = 0; w < 3; w++) await tx(3000, 99, true);
for (const [per, par] of [[99, true], [99, false], [30, true], [10, true], [3, true], [3, false]] as const) {
  const times = [];
  for (let r = 0; r < 3; r++) times.push(await tx(3000, per, par));
  console.log(`tx 3000 actions, ${per}/tx, parallel=${par}: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
}
const times = []; for (let r = 0; r < 3; r++) times.push(await bw(3000, true)); console.log(`batchwrite 3000 parallel: ${times.map((t) => t.toFixed(0)).join(', ')}`);
const t2 = []; for (let r = 0; r < 3; r++) t2.push(await tx(3000, 99, true, false)); console.log(`tx no cond: ${t2.map((t) => t.toFixed(0)).join(', ')}`);
await h.stop();
