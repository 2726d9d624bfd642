import { ConfigError } from './env.js';

/** The two halves of Ferry an instance can serve; FERRY_AREAS picks them. */
export interface Areas {
  /** OTA updates: release registry, manifests, asset uploads (`/api/updates/*`). */
  ota: boolean;
  /** Electronic certificates: `/v2/user/*`, `/v2/operator/*`, the web funnel at `/`, the vendors. */
  certificates: boolean;
}

export const AREA_NAMES = ['ota', 'certificates'] as const;
export type AreaName = (typeof AREA_NAMES)[number];

export const ALL_AREAS: Readonly<Areas> = Object.freeze({ ota: true, certificates: true });

const VALID_VALUES = '`ota`, `certificates` or `ota,certificates`';

/**
 * Parses FERRY_AREAS: a comma-separated set of area names, in any order, with spaces around the
 * names allowed. Unset (or empty, or only spaces) means both. Unknown names, empty items and
 * repeated names are refused: a typo must not silently switch an area off.
 */
export function parseAreas(value: string | undefined): Areas {
  if (value === undefined || value.trim() === '') return { ...ALL_AREAS };
  const names = value.split(',').map((name) => name.trim());
  const invalid = (reason: string) =>
    new ConfigError(`Invalid FERRY_AREAS: ${reason}; valid values are ${VALID_VALUES} (the default)`);
  const seen = new Set<AreaName>();
  for (const name of names) {
    if (name === '') throw invalid('an area name is empty');
    if (!(AREA_NAMES as readonly string[]).includes(name)) throw invalid(`unknown area "${name.slice(0, 40)}"`);
    if (seen.has(name as AreaName)) throw invalid(`"${name}" is named twice`);
    seen.add(name as AreaName);
  }
  return { ota: seen.has('ota'), certificates: seen.has('certificates') };
}

/** `ota on, certificates off`: what start-up messages say about the areas. */
export const describeAreas = (areas: Areas): string =>
  AREA_NAMES.map((name) => `${name} ${areas[name] ? 'on' : 'off'}`).join(', ');
