import { provide } from '../container.js';

/** The system clock. */
export const clock = provide('clock', () => ({ now: () => new Date() }));
