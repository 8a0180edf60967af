import { inject } from 'vitest';
import { eventually } from './eventually.js';

/** One mail as aws-ses-v2-local keeps it (`GET ${sesUrl}/store`). */
export interface SesMail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { html?: string; text?: string };
  headers?: { name: string; value: string }[];
  /** Epoch seconds. */
  at: number;
}

/** Every mail the shared runtime's SES emulator received so far (all tests' mails: filter by recipient). */
export async function sesMails(): Promise<SesMail[]> {
  const response = await fetch(`${inject('sesUrl')}/store`);
  if (!response.ok) throw new Error(`SES store answered ${response.status}`);
  return ((await response.json()) as { emails: SesMail[] }).emails;
}

/** The mails sent to `address` (tests use addresses of their own, so this is one test's mailbox). */
export async function sesMailsTo(address: string): Promise<SesMail[]> {
  const wanted = address.toLowerCase();
  return (await sesMails()).filter((m) => m.destination.to.some((to) => to.toLowerCase().includes(wanted)));
}

/** Waits (≤ 10 s) until `count` mails to `address` arrived, and returns them. */
export async function awaitSesMailsTo(address: string, count = 1): Promise<SesMail[]> {
  return eventually(`${count} mail(s) to ${address} in the SES emulator`, async () => {
    const mails = await sesMailsTo(address);
    return mails.length >= count ? mails : undefined;
  });
}
