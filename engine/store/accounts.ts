/**
 * Users, sessions, personal access tokens, workspaces, memberships and invitations, as the store keeps them
 * (migration 0005_accounts). Secrets arrive hashed: the store never sees a session token, a PAT or an invitation
 * token, only their sha256, nor a password, only its scrypt hash. What they mean (expiry, roles, throttling, audit)
 * is lib/server/auth/.
 */

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
}

export interface SessionRecord {
  id: string;
  userId: string;
  /** The workspace the session works in (null: the user's first). */
  workspaceId: string | null;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  user: UserRecord;
}

export interface TokenRecord {
  id: string;
  userId: string;
  /** The one workspace the token may act in (null: the user's current). */
  workspaceId: string | null;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface MembershipRecord {
  workspaceId: string;
  workspaceName: string;
  userId: string;
  role: string;
  createdAt: Date;
}

export interface MemberRecord {
  user: UserRecord;
  role: string;
  joinedAt: Date;
}

export interface InvitationRecord {
  id: string;
  workspaceId: string;
  email: string;
  role: string;
  expiresAt: Date;
  acceptedAt: Date | null;
}

export interface AccountRepository {
  hasUsers(): Promise<boolean>;
  /**
   * The first user, as owner of the default workspace (`defaultWorkspace`, made if missing) and of every workspace
   * without members (data from before accounts), in one transaction that two setups cannot both pass: null when a
   * user exists already.
   */
  createOwner(user: UserRecord, defaultWorkspace: { id: string; name: string }): Promise<UserRecord | null>;
  createUser(user: UserRecord): Promise<UserRecord>;
  userById(id: string): Promise<UserRecord | null>;
  userByEmail(email: string): Promise<UserRecord | null>;
  /**
   * Sets the user's password hash, revokes every other session of theirs (all but `keepSessionId`) and all their
   * personal access tokens, in one transaction. Answers how many tokens it revoked.
   */
  changePassword(userId: string, passwordHash: string, keepSessionId?: string): Promise<{ tokensRevoked: number }>;

  // ── identities at OpenID Connect issuers (single sign-on) ─────────────────────────────────────────────────────
  /** The user whose identity at `issuer` is `subject`, or null. */
  userByIdentity(issuer: string, subject: string): Promise<UserRecord | null>;
  /**
   * A new user with that identity and a membership (`workspaceId`, `role`), in one transaction: null when another
   * sign-in created the identity first, or a user with the e-mail address exists (nothing is written then).
   */
  createUserWithIdentity(
    user: UserRecord,
    identity: { issuer: string; subject: string },
    membership: { workspaceId: string; role: string },
  ): Promise<UserRecord | null>;
  /** Gives an existing user an identity: false when the identity belongs to someone already. */
  linkIdentity(userId: string, identity: { issuer: string; subject: string }): Promise<boolean>;

  // ── sessions ───────────────────────────────────────────────────────────────────────────────────────────────
  createSession(session: { id: string; tokenHash: string; userId: string; expiresAt: Date }): Promise<void>;
  sessionByTokenHash(tokenHash: string): Promise<SessionRecord | null>;
  touchSession(id: string, at: Date): Promise<void>;
  setSessionWorkspace(id: string, workspaceId: string): Promise<void>;
  /** Revokes the session with this token hash unless revoked already. */
  revokeSessionByTokenHash(tokenHash: string, at: Date): Promise<void>;

  // ── personal access tokens ─────────────────────────────────────────────────────────────────────────────────
  createToken(token: {
    id: string;
    userId: string;
    workspaceId: string | null;
    name: string;
    prefix: string;
    hash: string;
  }): Promise<TokenRecord>;
  /** The user's tokens, newest first (revoked ones too). */
  listTokens(userId: string): Promise<TokenRecord[]>;
  /** Revokes one of the user's own tokens: `revoked`, `already` (revoked before) or `missing` (none of theirs). */
  revokeToken(userId: string, id: string, at: Date): Promise<'revoked' | 'already' | 'missing'>;
  tokenByHash(hash: string): Promise<(TokenRecord & { user: UserRecord }) | null>;
  touchToken(id: string, at: Date): Promise<void>;

  // ── workspaces and members ─────────────────────────────────────────────────────────────────────────────────
  /** The user's memberships, oldest first. */
  membershipsOf(userId: string): Promise<MembershipRecord[]>;
  roleIn(userId: string, workspaceId: string): Promise<string | null>;
  /** A new workspace with `ownerId` as its owner, in one write. */
  createWorkspace(workspace: { id: string; name: string; ownerId: string }): Promise<{ id: string; name: string }>;
  /** The workspace's members, oldest first. */
  listMembers(workspaceId: string): Promise<MemberRecord[]>;
  countOwners(workspaceId: string): Promise<number>;
  setRole(workspaceId: string, userId: string, role: string): Promise<void>;
  /** Adds the user to the workspace with `role`; a member already keeps the role they have. */
  addMember(workspaceId: string, userId: string, role: string): Promise<void>;

  // ── invitations ────────────────────────────────────────────────────────────────────────────────────────────
  createInvitation(invitation: {
    id: string;
    workspaceId: string;
    email: string;
    role: string;
    tokenHash: string;
    createdBy: string;
    expiresAt: Date;
  }): Promise<InvitationRecord>;
  invitationByTokenHash(tokenHash: string): Promise<InvitationRecord | null>;
  /** Marks the invitation accepted unless it was already: false when someone accepted it first. */
  claimInvitation(id: string, at: Date): Promise<boolean>;
}

/**
 * Failed (and pending) sign-in attempts per key — an account, a client address — for throttling across replicas.
 * Ids are opaque.
 */
export interface SignInAttempts {
  /** Records one attempt for each key, now; answers their ids. */
  record(keys: string[]): Promise<string[]>;
  /** When the latest attempts for `key` after `since` were made (except `exceptIds`), newest first, at most `limit`. */
  recent(key: string, since: Date, exceptIds: string[], limit: number): Promise<Date[]>;
  /** Forgets the attempts `ids` and every attempt of `keys`. */
  forget(ids: string[], keys: string[]): Promise<void>;
  /** Drops attempts made before `before`. */
  deleteOlderThan(before: Date): Promise<void>;
}
