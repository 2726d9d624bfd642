// Types of @ferry/expo/metro (the implementation is plain JavaScript in index.cjs).

/** Metro's custom resolver signature (context is Metro's ResolutionContext). */
// biome-ignore lint/suspicious/noExplicitAny: Metro's types are not a dependency of this package.
export type ResolveRequest = (context: any, moduleName: string, platform: string | null) => any;

/** The part of a Metro config withFerry reads and extends; other fields pass through unchanged. */
export interface FerryMetroConfig {
  projectRoot?: string;
  watchFolders?: readonly string[];
  resolver?: {
    nodeModulesPaths?: readonly string[];
    resolveRequest?: ResolveRequest | null;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export type WithFerryConfig<T extends FerryMetroConfig> = Omit<T, 'watchFolders' | 'resolver'> & {
  watchFolders: string[];
  resolver: NonNullable<T['resolver']> & { nodeModulesPaths: string[]; resolveRequest: ResolveRequest };
};

export interface WithFerryOptions {
  /** The app's root; defaults to config.projectRoot. */
  projectRoot?: string;
  /** The Ferry checkout; defaults to the one this package lives in. */
  ferryRoot?: string;
}

export declare const FERRY_ROOT: string;
export declare function isFerrySource(file: string | null | undefined, ferryRoot: string): boolean;
export declare function withFerry<T extends FerryMetroConfig>(
  config: T,
  options?: WithFerryOptions,
): WithFerryConfig<T>;
