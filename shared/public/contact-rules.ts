/** Contact `source` values; input accepts the name or the integer (its index). */
export const CONTACT_SOURCES = ['unknown', 'api', 'import', 'form', 'app'] as const;

/** The most characters of an unsubscription's reason. */
export const UNSUBSCRIBE_REASON_MAX = 500;
