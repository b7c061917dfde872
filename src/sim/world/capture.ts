/**
 * The captured real catalogs a replay serves (test/fixtures/real-venues/FORMAT.md), one per venue, each in that
 * venue's own API shape (its peer folder's capture-schema.ts). A field is absent when the capture did not have it;
 * absent is never zero. Unknown extra fields are allowed and kept, so a replay passes through everything a capture
 * holds.
 */

/** Fields of a captured event record that say where it came from rather than what the venue sent. */
export const PROVENANCE_FIELDS: ReadonlySet<string> = new Set(['source', 'captured'])
