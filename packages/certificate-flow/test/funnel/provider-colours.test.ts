import { PROVIDERS } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';

/** WCAG 2.x relative luminance of #RRGGBB. */
const luminance = (hex: string): number => {
  const [r = 0, g = 0, b = 0] = [1, 3, 5]
    .map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

describe('provider buttons (labels and colours from contracts)', () => {
  it('are the five providers in the spec order', () => {
    expect(PROVIDERS.map((p) => p.code)).toEqual([
      'provider_a',
      'provider_b',
      'provider_c',
      'provider_d',
      'provider_e',
    ]);
    expect(PROVIDERS.map((p) => p.order)).toEqual([1, 2, 3, 4, 5]);
  });

  it.each(PROVIDERS.map((p) => [p.code, p] as const))('%s has readable text (WCAG AA, 4.5:1)', (_code, provider) => {
    expect(provider.label.trim()).not.toBe('');
    expect(provider.color).toMatch(/^#[0-9A-Fa-f]{6}$/);
    expect(contrast(provider.color, provider.textColor)).toBeGreaterThanOrEqual(4.5);
  });
});
