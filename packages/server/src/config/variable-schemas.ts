import { z } from 'zod';

/** Schemas of configuration values that several areas (and every vendor's variables) share. */

export const intFrom = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

export const secret = (name: string, min: number) => z.string().min(min, `${name} must be at least ${min} characters`);

export const httpUrl = (name: string) =>
  z.url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` }).transform((u) => u.replace(/\/+$/, ''));
