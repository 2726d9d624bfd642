import { z } from 'zod';

/**
 * C0 control characters (U+0000–U+001F) except tab, newline and carriage return. PostgreSQL
 * refuses NUL in text and JSONB (the request would fail with 500), SQLite would store it, and the
 * others corrupt logs, headers and terminals. Free text may keep tab and line breaks.
 */
const FORBIDDEN_IN_FREE_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
/** Every C0 control character: for identifiers, keys and one-line values. */
const FORBIDDEN_IN_LINE = /[\u0000-\u001f]/;

export const hasControlCharacters = (value: string, allowLineBreaks = false): boolean =>
  (allowLineBreaks ? FORBIDDEN_IN_FREE_TEXT : FORBIDDEN_IN_LINE).test(value);

/** A string that may hold tab, newline and carriage return but no other control character. */
export const freeText = () =>
  z.string().refine((value) => !hasControlCharacters(value, true), {
    message: 'must not contain control characters other than tab and line breaks',
  });

/** A one-line string: no control characters at all. */
export const lineText = () =>
  z.string().refine((value) => !hasControlCharacters(value), { message: 'must not contain control characters' });
