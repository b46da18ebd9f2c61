/**
 * A workspace's credentials as the store keeps them (table credentials): already encrypted by the vault
 * (lib/server/credentials/), with the masked form shown in lists. Every lookup names the workspace.
 */

export interface CredentialRecord {
  id: string;
  workspaceId: string;
  name: string;
  type: string;
  /** AES-256-GCM under the master key, bound to `<workspaceId>/<id>`. */
  ciphertext: string;
  masked: string;
  /** The hosts it may be sent to. */
  hosts: string[];
  createdAt: Date;
}

export interface CredentialRepository {
  /** Null when the workspace has a credential of that name already (names are unique per workspace). */
  create(
    credential: Omit<CredentialRecord, 'createdAt'> & { createdBy: string | null },
  ): Promise<CredentialRecord | null>;
  /** The workspace's credentials, oldest first. */
  list(workspaceId: string): Promise<CredentialRecord[]>;
  get(workspaceId: string, id: string): Promise<CredentialRecord | null>;
  /** False when the workspace has no such credential. */
  delete(workspaceId: string, id: string): Promise<boolean>;
}
