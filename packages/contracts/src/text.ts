import { z } from 'zod';

/**
 * C0 control characters (U+0000–U+001F) except tab, newline and carriage return. PostgreSQL
 * refuses NUL in text and JSONB (the request would fail with 500), SQLite would store it, and the
 * others corrupt logs, headers and terminals. Free text may keep tab and line breaks.
 */
const FORBIDDEN_IN_FREE_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
/** Every C0 control character: for identifiers, keys and one-line values. */
const FORBIDDEN_IN_LINE = /[\u0000-\u001f]/;
/**
 * A lone surrogate (`"\ud800"` in JSON) is a JavaScript string but no Unicode text: PostgreSQL
 * refuses it in JSONB (the request would fail with 500) and UTF-8 drivers store U+FFFD instead of
 * what was sent.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const hasControlCharacters = (value: string, allowLineBreaks = false): boolean =>
  (allowLineBreaks ? FORBIDDEN_IN_FREE_TEXT : FORBIDDEN_IN_LINE).test(value);

const hasLoneSurrogate = (value: string): boolean => LONE_SURROGATE.test(value);

/** Text every store and log keeps as sent: no forbidden control character, no lone surrogate. */
export const isStorableText = (value: string, allowLineBreaks = false): boolean =>
  !hasControlCharacters(value, allowLineBreaks) && !hasLoneSurrogate(value);

/** A string that may hold tab, newline and carriage return but no other control character. */
export const freeText = () =>
  z.string().refine((value) => isStorableText(value, true), {
    message: 'must not contain control characters other than tab and line breaks, or lone surrogates',
  });

/** A one-line string: no control characters at all, no lone surrogates. */
export const lineText = () =>
  z.string().refine((value) => isStorableText(value), {
    message: 'must not contain control characters or lone surrogates',
  });
