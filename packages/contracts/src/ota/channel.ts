import { z } from 'zod';

/** Exactly two channels exist; everything else is rejected at the edge. */
export const CHANNELS = ['development', 'production'] as const;
export const Channel = z.enum(CHANNELS);
export type Channel = z.infer<typeof Channel>;
