import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AssetUploadCheckRequest } from './assets.js';
import { ManifestRequest } from './manifest.js';
import { BaselineQuery, ReleasePayload } from './release.js';
import { ReleaseListQuery } from './release-history.js';
import { RollbackRequest } from './rollback.js';

/**
 * Every text field of the OTA requests against the characters that matter: NUL (PostgreSQL refuses
 * it in text and JSONB), other C0 controls, DEL (not C0: allowed unless the field is printable
 * ASCII), tab and newline (kept only in free text), and lone surrogates (refused everywhere). A
 * refusal must name the field's path.
 */
const CHARACTERS = {
  NUL: '\u0000',
  SOH: '\u0001',
  US: '\u001f',
  DEL: '\u007f',
  TAB: '\t',
  LF: '\n',
  CR: '\r',
  /** Not a control character, but no Unicode text either: PostgreSQL refuses it in JSONB. */
  LONE_SURROGATE: '\ud800',
  LONE_LOW_SURROGATE: '\udc00',
} as const;
type CharacterName = keyof typeof CHARACTERS;

/** What each kind of field lets through; everything else is refused. */
const ALLOWED: Record<'line' | 'free' | 'printable' | 'url', readonly CharacterName[]> = {
  /** lineText: no C0 control at all. */
  line: ['DEL'],
  /** freeText: tab and line breaks stay. */
  free: ['DEL', 'TAB', 'LF', 'CR'],
  /** A pattern of printable ASCII (runtimeVersion, a MIME type): nothing. */
  printable: [],
  /**
   * A URL: zod's URL check drops tab and line breaks from the value, as URL parsing does; NUL, DEL
   * and the others stay, so they are refused (DEL is no URI character: client-asset-rules.ts).
   */
  url: ['TAB', 'LF', 'CR'],
};

const HASH = 'A'.repeat(43);
const ASSET = { url: 'https://cdn.example.test/bundle.js', hash: HASH };
const TRACK = { channel: 'production', platform: 'ios', runtimeVersion: '1.0.0' } as const;

const release = (overrides: Record<string, unknown>) => ({ ...TRACK, launchAsset: ASSET, ...overrides });
const assetCheck = (overrides: Record<string, unknown> = {}) => ({
  channel: 'production',
  runtimeVersion: '1.0.0',
  assets: [{ hash: HASH, contentType: 'application/javascript', size: 1, ...overrides }],
});

interface Field {
  schema: z.ZodType;
  /** The field as details.fields names it (without the `body.` context the server adds). */
  path: string;
  /** Where in the value the character goes, when a field is tried at several places. */
  note?: string;
  kind: keyof typeof ALLOWED;
  /** A valid input with `text` inside the field (in the middle of an otherwise valid value). */
  input: (text: string) => unknown;
}

const field = (schema: z.ZodType, path: string, kind: Field['kind'], input: Field['input'], note?: string): Field => ({
  schema,
  path,
  kind,
  input,
  note,
});

const releaseAssetFields = (where: 'launchAsset' | 'assets.0'): Field[] => {
  const place = (asset: Record<string, unknown>) =>
    where === 'launchAsset' ? release({ launchAsset: asset }) : release({ assets: [asset] });
  return [
    field(ReleasePayload, `${where}.key`, 'line', (t) => place({ ...ASSET, key: `k${t}1` })),
    field(ReleasePayload, `${where}.contentType`, 'line', (t) => place({ ...ASSET, contentType: `text/${t}plain` })),
    field(ReleasePayload, `${where}.url`, 'url', (t) => place({ ...ASSET, url: `https://cdn.example.test/a${t}b.js` })),
  ];
};

/** `{}` in a path stands for the character itself (escaped), where it sits in a key. */
const FIELDS: Record<string, Field[]> = {
  ReleasePayload: [
    field(ReleasePayload, 'runtimeVersion', 'printable', (t) => release({ runtimeVersion: `1.0${t}0` })),
    field(ReleasePayload, 'fingerprint', 'line', (t) => release({ fingerprint: `fp${t}a` })),
    ...(['commit', 'branch', 'actor', 'runId', 'message'] as const).map((name) =>
      field(ReleasePayload, `metadata.${name}`, 'line', (t) => release({ metadata: { [name]: `x${t}y` } })),
    ),
    ...releaseAssetFields('launchAsset'),
    ...releaseAssetFields('assets.0'),
    // otaConfig: string values anywhere in the tree are free text; keys anywhere are one line.
    field(ReleasePayload, 'otaConfig.name', 'free', (t) => release({ otaConfig: { name: `My${t}App` } })),
    field(ReleasePayload, 'otaConfig.extra.eas.projectId', 'free', (t) =>
      release({ otaConfig: { extra: { eas: { projectId: `p${t}1` } } } }),
    ),
    field(ReleasePayload, 'otaConfig.plugins.1.0', 'free', (t) =>
      release({ otaConfig: { plugins: ['expo-router', [`expo${t}font`, { fonts: [] }]] } }),
    ),
    field(ReleasePayload, 'otaConfig.na{}me', 'line', (t) => release({ otaConfig: { [`na${t}me`]: 'x' } })),
    field(ReleasePayload, 'otaConfig.extra.ke{}y', 'line', (t) =>
      release({ otaConfig: { extra: { [`ke${t}y`]: 1 } } }),
    ),
  ],
  AssetUploadCheckRequest: [
    field(AssetUploadCheckRequest, 'runtimeVersion', 'printable', (t) => ({
      ...assetCheck(),
      runtimeVersion: `1.0${t}0`,
    })),
    // The MIME pattern admits no control character and no DEL except through `\s*` before the
    // parameters, which would let a tab or a line break into the upload's header: lineText refuses those.
    ...(
      [
        ['in the subtype', (t: string) => `text/${t}plain`],
        ['in a parameter', (t: string) => `text/plain; charset=${t}utf-8`],
        ['before the parameters', (t: string) => `text/plain${t}; charset=utf-8`],
      ] as const
    ).map(([note, contentType]) =>
      field(
        AssetUploadCheckRequest,
        'assets.0.contentType',
        'printable',
        (t) => assetCheck({ contentType: contentType(t) }),
        note,
      ),
    ),
  ],
  RollbackRequest: [
    field(RollbackRequest, 'runtimeVersion', 'printable', (t) => ({ ...TRACK, runtimeVersion: `1.0${t}0` })),
    field(RollbackRequest, 'actor', 'line', (t) => ({ ...TRACK, actor: `ci${t}bot` })),
    field(RollbackRequest, 'runId', 'line', (t) => ({ ...TRACK, runId: `4${t}2` })),
  ],
  BaselineQuery: [
    field(BaselineQuery, 'runtimeVersion', 'printable', (t) => ({ platform: 'ios', runtimeVersion: `1.0${t}0` })),
  ],
  ReleaseListQuery: [
    field(ReleaseListQuery, 'runtimeVersion', 'printable', (t) => ({ ...TRACK, runtimeVersion: `1.0${t}0` })),
  ],
  ManifestRequest: [
    field(ManifestRequest, 'runtimeVersion', 'printable', (t) => ({ ...TRACK, runtimeVersion: `1.0${t}0` })),
  ],
};

const escaped = (text: string) => JSON.stringify(text).slice(1, -1);

const rows = Object.entries(FIELDS).flatMap(([schemaName, fields]) =>
  fields.flatMap((entry) =>
    (Object.keys(CHARACTERS) as CharacterName[]).map((character) => ({
      name: `${schemaName} ${entry.path.replace('{}', '…')}${entry.note ? ` (${entry.note})` : ''} × ${character}`,
      field: entry,
      character,
      accepted: ALLOWED[entry.kind].includes(character),
    })),
  ),
);

describe('control characters in OTA request fields', () => {
  it.each(rows.map((row) => [`${row.name} → ${row.accepted ? 'accepted' : 'refused'}`, row] as const))(
    '%s',
    (_name, { field, character, accepted }) => {
      const text = CHARACTERS[character];
      const result = field.schema.safeParse(field.input(text));
      if (accepted) {
        expect(result.error?.issues ?? []).toEqual([]);
        return;
      }
      expect(result.success).toBe(false);
      // A control character in a key is named escaped, so the answer never carries it raw.
      const path = field.path.replace('{}', escaped(text));
      expect(result.error?.issues.map((issue) => issue.path.map(String).join('.'))).toContain(path);
    },
  );

  it('every field accepts its value without the character (the table tests the character, not the shape)', () => {
    for (const fields of Object.values(FIELDS)) {
      for (const entry of fields) expect(entry.schema.safeParse(entry.input('')).error?.issues ?? []).toEqual([]);
    }
  });

  it('otaConfig refuses nesting deeper than its bound instead of walking it (and does not overflow the stack)', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const result = ReleasePayload.safeParse(release({ otaConfig: deep as Record<string, unknown> }));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/nest deeper than 32/);
    let fine: unknown = 'leaf';
    for (let i = 0; i < 20; i++) fine = [fine];
    expect(ReleasePayload.safeParse(release({ otaConfig: { deep: fine } })).success).toBe(true);
  });

  it('otaConfig refuses numbers JSON cannot carry (1e999 parses to Infinity, which would be stored as null)', () => {
    const result = ReleasePayload.safeParse(release({ otaConfig: { extra: { size: Number.POSITIVE_INFINITY } } }));
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['otaConfig.extra.size', 'must be a finite number'],
    ]);
  });

  it('otaConfig names at most 10 bad values, however many there are', () => {
    const config = { values: Array.from({ length: 10_000 }, () => 'a\u0000b') };
    const result = ReleasePayload.safeParse(release({ otaConfig: config }));
    expect(result.error?.issues).toHaveLength(10);
  });
});
