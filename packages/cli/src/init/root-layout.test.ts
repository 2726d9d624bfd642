import { describe, expect, it } from 'vitest';
import { withUpdateBanner } from './root-layout.js';

describe('withUpdateBanner: the update-policy hook and banner in a root layout', () => {
  it('a single self-closing element is wrapped in a fragment, and a file without imports gets them on top', () => {
    const edited = withUpdateBanner('export default function RootLayout() {\n  return <Slot />;\n}\n', {
      insets: false,
    });
    expect(edited).toEqual({
      ok: true,
      changed: true,
      text:
        "import { OtaUpdateBanner, useOtaUpdatePolicy } from '@ferry/expo';\n\n" +
        'export default function RootLayout() {\n' +
        '  const otaUpdate = useOtaUpdatePolicy();\n' +
        '  return (\n' +
        '    <>\n' +
        '      <Slot />\n' +
        '      <OtaUpdateBanner update={otaUpdate} />\n' +
        '    </>\n' +
        '  );\n' +
        '}\n',
    });
  });

  it('a component exported by name, and a layout that already imports useSafeAreaInsets', () => {
    const source =
      "import { Stack } from 'expo-router';\nimport { useSafeAreaInsets } from 'react-native-safe-area-context';\n\n" +
      'const Layout = () => {\n  const insets = useSafeAreaInsets();\n  return (\n    <>\n      <Stack />\n    </>\n  );\n};\n\nexport default Layout;\n';
    const edited = withUpdateBanner(source, { insets: true });
    if (!edited.ok) throw new Error(edited.reason);
    expect(edited.text.match(/import \{ useSafeAreaInsets \}/g)).toHaveLength(1);
    expect(edited.text).toContain(
      '  const otaUpdate = useOtaUpdatePolicy();\n  const otaInsets = useSafeAreaInsets();\n  const insets',
    );
    expect(edited.text).toContain(
      '      <Stack />\n      <OtaUpdateBanner update={otaUpdate} topInset={otaInsets.top} />\n    </>',
    );
    expect(withUpdateBanner(edited.text, { insets: true })).toEqual({ ok: true, text: edited.text, changed: false });
  });

  it.each([
    ['no default export', 'export function Layout() { return null; }\n', /no default-exported component/],
    ['no JSX returned', 'export default function Layout() { return null; }\n', /does not end by returning JSX/],
    ['an expression body', 'export default () => <Stack />;\n', /no function body/],
    ['code that does not parse', 'export default function (', /does not parse/],
  ])('refuses %s', (_name, source, reason) => {
    const edited = withUpdateBanner(source, { insets: false });
    expect(edited.ok).toBe(false);
    if (!edited.ok) expect(edited.reason).toMatch(reason);
  });
});
