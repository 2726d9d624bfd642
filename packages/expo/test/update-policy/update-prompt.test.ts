import { UpdatePolicy } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { decideUpdatePrompt, type UpdatePromptInput } from '../../src/update-policy/update-prompt';

const NEW_ID = '0b1c9f6e-7f43-4c1a-9d39-1c2d5d0d3a11';
const RUNNING_ID = 'd3c5f1a8-2b6e-4f27-8d7e-6a4b3c2d1e0f';
const downloaded = (updatePolicy?: unknown) => ({
  updateId: NEW_ID,
  manifest: { id: NEW_ID, extra: updatePolicy === undefined ? {} : { updatePolicy } },
});

const base: UpdatePromptInput = {
  updatesEnabled: true,
  isUpdatePending: true,
  downloadedUpdate: downloaded(2),
  runningUpdateId: RUNNING_ID,
  isDismissed: () => false,
  reloadFailed: () => false,
};

describe('decideUpdatePrompt (the client behaviour column of "Update policy enum")', () => {
  it.each<[string, Partial<UpdatePromptInput>, UpdatePolicy, string | null, string]>([
    ['Notify after the download → banner', {}, UpdatePolicy.Notify, NEW_ID, 'notify'],
    [
      'Immediate after the download → overlay',
      { downloadedUpdate: downloaded(1) },
      UpdatePolicy.Immediate,
      NEW_ID,
      'immediate',
    ],
    ['Default → nothing', { downloadedUpdate: downloaded(3) }, UpdatePolicy.Default, NEW_ID, 'none'],
    ['null policy → Default, nothing', { downloadedUpdate: downloaded(null) }, UpdatePolicy.Default, NEW_ID, 'none'],
    ['no policy → Default, nothing', { downloadedUpdate: downloaded() }, UpdatePolicy.Default, NEW_ID, 'none'],
    ['unknown policy 9 → Default, nothing', { downloadedUpdate: downloaded(9) }, UpdatePolicy.Default, NEW_ID, 'none'],
    [
      'updates disabled (development build, Expo Go) → Default',
      { updatesEnabled: false },
      UpdatePolicy.Default,
      null,
      'none',
    ],
    ['download not finished → nothing yet', { isUpdatePending: false }, UpdatePolicy.Default, null, 'none'],
    ['pending but no downloaded update → nothing', { downloadedUpdate: undefined }, UpdatePolicy.Default, null, 'none'],
    [
      'rollback directive (no id, no manifest) → nothing',
      { downloadedUpdate: { updateId: undefined, manifest: undefined } },
      UpdatePolicy.Default,
      null,
      'none',
    ],
    [
      'the downloaded update is already running → nothing',
      { runningUpdateId: NEW_ID },
      UpdatePolicy.Default,
      null,
      'none',
    ],
    [
      'Notify dismissed for this id → nothing',
      { isDismissed: (id) => id === NEW_ID },
      UpdatePolicy.Notify,
      NEW_ID,
      'none',
    ],
    [
      'Notify, another id dismissed → banner',
      { isDismissed: (id) => id === RUNNING_ID },
      UpdatePolicy.Notify,
      NEW_ID,
      'notify',
    ],
    [
      'Immediate whose reload failed → waits for the next cold launch',
      { downloadedUpdate: downloaded(1), reloadFailed: (id) => id === NEW_ID },
      UpdatePolicy.Immediate,
      NEW_ID,
      'none',
    ],
    [
      'Immediate ignores Notify dismissals',
      { downloadedUpdate: downloaded(1), isDismissed: () => true },
      UpdatePolicy.Immediate,
      NEW_ID,
      'immediate',
    ],
  ])('%s', (_case, overrides, policy, updateId, prompt) => {
    expect(decideUpdatePrompt({ ...base, ...overrides })).toEqual({ policy, updateId, prompt });
  });
});
