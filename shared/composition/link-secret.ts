import type { Config } from '../config.js';

/** The HMAC secret of the public links; a deployment without one cannot build or open them. */
export function linkSecretOf(config: Config): string {
  if (!config.LINK_SECRET) throw new Error('LINK_SECRET must be set (≥ 32 characters) to sign and verify public links');
  return config.LINK_SECRET;
}
