/**
 * The per-workflow secret that signs completion callbacks (callback-signature.ts). Stored in
 * `workflows.callback_secret`, encrypted by the credential vault under the master key and bound to the workflow
 * (AAD), together with when it was made; created on first need (the first callback, or the first time an editor
 * reads it) and replaced by a rotation. Making a secret does not bump the workflow's updatedAt (the "last edited" of
 * the lists): see CallbackSecretStore. Nothing here logs, traces or returns it except to the caller.
 */
import { z } from 'zod';
import { PaiError } from '@/engine/errors';
import type { App } from '../app-types';
import { newSecret } from '../auth/secrets';

export interface CallbackSecret {
  secret: string;
  createdAt: string;
}

const sealedSchema = z.object({ secret: z.string().min(16), createdAt: z.string() });
const aadOf = (workflowId: string) => `workflow-callback-secret/${workflowId}`;

function fresh(): CallbackSecret {
  return { secret: newSecret('pfcs_'), createdAt: new Date().toISOString() };
}

function unseal(app: App, workflowId: string, stored: string): CallbackSecret {
  try {
    return sealedSchema.parse(JSON.parse(app.credentials.unseal(stored, aadOf(workflowId))));
  } catch {
    throw new PaiError(
      'CALLBACK_SECRET_UNREADABLE',
      'the callback signing secret cannot be decrypted (the encryption key changed); rotate it to make a new one',
    );
  }
}

async function storedOf(app: App, workflowId: string): Promise<string | null> {
  const stored = await app.stores.callbackSecrets.get(workflowId);
  if (stored === undefined) throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${workflowId} not found`);
  return stored;
}

/**
 * The workflow's signing secret, made now if it has none. `workflowId` must already be known to be the caller's
 * (getWorkflowOr404) or come from a run record. Two first uses at once agree: only the first write sticks.
 */
export async function callbackSecretOf(app: App, workflowId: string): Promise<CallbackSecret> {
  const stored = await storedOf(app, workflowId);
  if (stored) return unseal(app, workflowId, stored);
  const made = fresh();
  const sealed = app.credentials.seal(JSON.stringify(made), aadOf(workflowId));
  if (await app.stores.callbackSecrets.setIfUnset(workflowId, sealed)) return made;
  const winner = await storedOf(app, workflowId);
  if (!winner) throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${workflowId} not found`);
  return unseal(app, workflowId, winner);
}

/** Replaces the secret; the next callback is signed with the new one (the old one stops verifying at once). */
export async function rotateCallbackSecret(app: App, workflowId: string): Promise<CallbackSecret> {
  const made = fresh();
  const sealed = app.credentials.seal(JSON.stringify(made), aadOf(workflowId));
  if (!(await app.stores.callbackSecrets.replace(workflowId, sealed)))
    throw new PaiError('WORKFLOW_NOT_FOUND', `workflow ${workflowId} not found`);
  return made;
}
