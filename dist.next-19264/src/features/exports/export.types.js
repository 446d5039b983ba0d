/**
 * Plain input of every export renderer: one organization's compliance state, already read from the
 * database (live, or as frozen in a snapshot). Timestamps are ISO 8601 strings with a timezone.
 */
export {};
//# sourceMappingURL=export.types.js.map