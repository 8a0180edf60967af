/**
 * The one zod every schema module imports: `zod/mini`, whose functional API lets esbuild keep only the
 * schema kinds and checks a function uses (≈ 10–40 KB, against ≈ 92 KB for the classic API in every bundle).
 * Mini loads no locale, and the envelope's error items carry zod's messages, so English is configured here, once,
 * before any schema parses: the messages stay those of the classic API.
 */
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());

export * from 'zod/mini';
