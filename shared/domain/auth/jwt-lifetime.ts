/**
 * The longest JWT lifetime accepted by default (24 h). Its own module so configuration can name it without
 * pulling the JWT library into every function's bundle.
 */
export const DEFAULT_JWT_MAX_LIFETIME_SECONDS = 24 * 60 * 60;
