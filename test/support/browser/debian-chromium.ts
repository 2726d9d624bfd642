import { HANG_GUARD_MS } from '../hang-guard.cjs';

/**
 * How every browser suite (web funnel, native screens through react-native-web, release console)
 * launches Chromium: Debian's own build (never a downloaded browser), headless, with the background
 * networking off (the machine's closed network refuses it, many connections at a time).
 */
export const DEBIAN_CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  // Playwright's own default is 3 minutes; this is a hang guard, not a speed requirement.
  timeout: HANG_GUARD_MS,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
