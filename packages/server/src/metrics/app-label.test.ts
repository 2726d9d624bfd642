import { describe, expect, it } from 'vitest';
import { appLabel, MAX_APP_SERIES } from './app-label.js';

describe('appLabel: the bounded app label', () => {
  it.each([
    ['default', 0, 'default'],
    ['default', MAX_APP_SERIES, 'default'],
    ['shop', 0, 'shop'],
    ['shop', MAX_APP_SERIES - 1, 'shop'],
    ['shop', MAX_APP_SERIES, 'other'],
  ])('%s with %i apps labelled → %s', (app, labelled, label) => {
    expect(appLabel(app, labelled)).toBe(label);
  });
});
