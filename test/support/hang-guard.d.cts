/** How long any single test, hook or wait may take before it counts as hung (a hang guard, not a speed requirement). */
export declare const HANG_GUARD_MS: number;
/** A multiple of HANG_GUARD_MS for steps that take minutes even on a quiet machine (installs, bundle builds). */
export declare const SLOW_HANG_GUARD_MS: number;
