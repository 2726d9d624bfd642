import type { Command } from 'commander';
import { registerAudit } from './audit.js';
import { registerBump } from './bump.js';
import { registerDeployCheck } from './deploy-check.js';
import { registerDevToken } from './dev-token.js';
import { registerDoctor } from './doctor.js';
import { registerEmbedded } from './embedded.js';
import { registerGate } from './gate.js';
import { registerGc } from './gc.js';
import { registerInit } from './init.js';
import { registerKeys } from './keys.js';
import { registerNativeAffected } from './native-affected.js';
import { registerPromote } from './promote.js';
import { registerPublish } from './publish.js';
import { registerReleases } from './releases.js';
import { registerRollback } from './rollback.js';
import { registerRollout } from './rollout.js';
import { registerVendorSim } from './vendor-sim.js';

/** Every command registers itself on the program; add one line per command file. */
export type RegisterCommand = (program: Command) => void;

export const COMMANDS: RegisterCommand[] = [
  registerInit,
  registerDoctor,
  registerNativeAffected,
  registerGate,
  registerBump,
  registerDeployCheck,
  registerPublish,
  registerEmbedded,
  registerReleases,
  registerRollback,
  registerRollout,
  registerPromote,
  registerGc,
  registerAudit,
  registerKeys,
  registerDevToken,
  registerVendorSim,
];
