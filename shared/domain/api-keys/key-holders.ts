import type { ApiKeyRecord } from './api-key-store.js';

/**
 * The users a key belongs to: the one who created it and the one whose personal key it is (usually the same). When
 * one of them is removed, or loses the role that may hold keys, the key is disabled with it (docs/decisions/0126-api-keys-end-with-their-holder.md
 * "API keys end with their holder").
 */
export const holdersOf = (key: Pick<ApiKeyRecord, 'created_by' | 'personal_for'>): number[] => [
  ...new Set([key.created_by, key.personal_for].filter((id): id is number => id !== undefined)),
];

/** Whether `userId` created or holds the key. */
export const isHeldBy = (key: Pick<ApiKeyRecord, 'created_by' | 'personal_for'>, userId: number): boolean =>
  holdersOf(key).includes(userId);
