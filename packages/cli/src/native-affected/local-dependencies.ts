import path from 'node:path/posix';

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;
const LOCAL_PROTOCOL = /^(?:file|link|portal):(.+)$/;

export interface LocalDependencies {
  /** Repository-relative directories (or tarballs) the app installs from the repository itself. */
  directories: string[];
  /** The app resolves `workspace:` dependencies: any workspace package may be installed. */
  usesWorkspaceProtocol: boolean;
}

/**
 * The directories a package.json installs from disk (`file:`, `link:`, `portal:` or a plain
 * relative path): their content reaches node_modules without a version change, so every file in
 * them can feed the fingerprint.
 */
export function localDependencies(packageJson: string | undefined, appPrefix: string): LocalDependencies {
  const result: LocalDependencies = { directories: [], usesWorkspaceProtocol: false };
  if (packageJson === undefined) return result;
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(packageJson) as Record<string, unknown>;
  } catch {
    return result;
  }
  const appDirectory = appPrefix.replace(/\/$/, '') || '.';
  for (const field of DEPENDENCY_FIELDS) {
    const dependencies = manifest[field];
    if (!dependencies || typeof dependencies !== 'object') continue;
    for (const spec of Object.values(dependencies as Record<string, unknown>)) {
      if (typeof spec !== 'string') continue;
      if (spec.startsWith('workspace:')) {
        result.usesWorkspaceProtocol = true;
        continue;
      }
      const local = LOCAL_PROTOCOL.exec(spec)?.[1] ?? (/^\.\.?\//.test(spec) ? spec : undefined);
      if (local === undefined) continue;
      const directory = path.normalize(path.join(appDirectory, local));
      if (directory === '.' || directory.startsWith('../')) continue;
      result.directories.push(directory.replace(/\/$/, ''));
    }
  }
  return result;
}
