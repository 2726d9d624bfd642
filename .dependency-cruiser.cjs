/**
 * What `npm run lint` enforces about imports (dependency-cruiser):
 * - no import cycles anywhere;
 * - packages only depend downwards: contracts at the bottom; certificate-flow and dev-tools on
 *   contracts; cli, expo and server on those below them; the web app on certificate-flow and
 *   contracts. Tests may reach across (a package's tests prove agreement with another's rules).
 * - @ferry/expo's root entry reaches nothing of the certificate funnel (its optional peers).
 * Layers: contracts < certificate-flow, dev-tools < cli, expo, server < apps/web.
 */
const layer = (name, allowed) => ({
  name: `${name}-depends-downwards`,
  comment: `${name} may depend only on ${allowed.join(', ') || 'nothing of Ferry'}`,
  severity: 'error',
  from: { path: `^packages/${name}/src/`, pathNot: '\\.test\\.ts$' },
  to: {
    path: '^(packages|apps)/',
    pathNot: [`^packages/${name}/`, ...allowed.map((p) => `^packages/${p}/`)],
  },
});

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'An import cycle makes load order matter and hides which module owns what.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    layer('contracts', []),
    layer('certificate-flow', ['contracts']),
    layer('dev-tools', ['contracts']),
    // dev-tools only as an optional, lazily loaded helper (simulators, development tokens).
    layer('cli', ['contracts', 'dev-tools']),
    layer('expo', ['contracts', 'certificate-flow']),
    {
      name: 'expo-root-without-funnel',
      comment:
        "@ferry/expo's root entry never reaches the certificate funnel: @ferry/certificate-flow and react-i18next are optional peers, which an OTA-only app does not install; only @ferry/expo/certificates (src/certificates/) may use them",
      severity: 'error',
      from: { path: '^packages/expo/src/', pathNot: ['^packages/expo/src/certificates/', '\\.test\\.tsx?$'] },
      // Third-party packages are excluded from the cruise (options.exclude): react-i18next and
      // i18next are checked on the packed package (test/install/cli-install.test.ts).
      to: { path: ['^packages/expo/src/certificates/', '^packages/certificate-flow/'] },
    },
    layer('server', ['contracts', 'dev-tools']),
    {
      name: 'web-depends-downwards',
      severity: 'error',
      from: { path: '^apps/web/src/' },
      to: { path: '^packages/', pathNot: ['^packages/(contracts|certificate-flow)/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|coverage|reports|\\.stryker-tmp)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      conditionNames: ['@ferry/source', 'import', 'require', 'node', 'default'],
      exportsFields: ['exports'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
    },
  },
};
