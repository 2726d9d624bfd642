import type { Command } from 'commander';
import { registerNativeAffected } from './native-affected.js';

/** Every command registers itself on the program; add one line per command file. */
export type RegisterCommand = (program: Command) => void;

export const COMMANDS: RegisterCommand[] = [registerNativeAffected];
