/**
 * What a journey knows of the server under test: its address, the profile it runs in, an owner's client, and the
 * ports reserved for local services it may start (global-setup.ts).
 */
import { inject } from 'vitest';
import { Client } from './client';
import type { Profile } from './server';

export function acceptance() {
  const a = inject('acceptance');
  return {
    ...a,
    /** The owner's client (a personal access token). */
    api: new Client(a.baseURL, { authorization: `Bearer ${a.token}` }),
    is: (...profiles: Profile[]) => profiles.includes(a.profile),
  };
}
