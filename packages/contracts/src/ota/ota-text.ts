import { lineText } from '../text.js';

/**
 * A lone surrogate (`"\ud800"` in JSON) is a JavaScript string but no Unicode text: PostgreSQL
 * refuses it in JSONB (the request would fail with 500) and UTF-8 drivers store U+FFFD instead of
 * what was sent. OTA requests refuse it like a control character.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const hasLoneSurrogate = (value: string): boolean => LONE_SURROGATE.test(value);

export const WELL_FORMED = { message: 'must be well-formed Unicode (no lone surrogate)' };

/** lineText that is also well-formed Unicode: identifiers, keys, one-line values. */
export const oneLine = () => lineText().refine((value) => !hasLoneSurrogate(value), WELL_FORMED);
