/**
 * Signing in a verified single sign-on identity: finds the user by (issuer, subject), or on the first sign-in creates
 * them as a member of the default workspace, and opens the same session a password sign-in opens.
 *
 * Decisions (docs/single-sign-on.md says them to operators):
 * - The identity is the issuer's `sub`, never the e-mail address: addresses change and get reused.
 * - An existing account with the same address is linked only when the issuer says the address is verified
 *   (`email_verified: true`); otherwise the sign-in is refused (SSO_EMAIL_TAKEN) instead of handing the account to
 *   whoever typed that address at the issuer.
 * - Users made by single sign-on have no usable password (UNUSABLE_HASH: no password matches it).
 * - With OIDC_ROLE_CLAIM the issuer decides the role in the default workspace at every sign-in; without it the role is
 *   given once, at the first sign-in, and afterwards changed in PaiFlow. An owner's role is never changed.
 * - Single sign-on starts working once the owner exists (setup, or PAIFLOW_OWNER_*): it never makes an owner.
 */
import { PaiError } from '@/engine/errors';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import type { Accounts, AccountStores, UserView } from '../auth/accounts';
import { audit } from '../auth/audit';
import { UNUSABLE_HASH } from '../auth/passwords';
import { newId } from '../auth/secrets';
import type { SsoIdentity } from './sso-identity';

export interface SsoSignIn {
  user: UserView;
  token: string;
  /** created: a new user; linked: an existing account got this identity; returning: found by the identity. */
  outcome: 'created' | 'linked' | 'returning';
  role: string;
}

export async function signInWithIdentity(
  stores: AccountStores,
  accounts: Accounts,
  id: SsoIdentity,
  ip: string,
): Promise<SsoSignIn> {
  const repo = stores.accounts;
  if (!(await repo.hasUsers()))
    throw new PaiError('SSO_SETUP_REQUIRED', 'single sign-on works once the owner account exists');
  const identity = { issuer: id.issuer, subject: id.subject };
  let outcome: SsoSignIn['outcome'] = 'returning';
  let user = await repo.userByIdentity(id.issuer, id.subject);
  // Two attempts: a concurrent first sign-in of the same user may create them between our look and our write.
  for (let attempt = 0; !user && attempt < 2; attempt++) {
    if (!id.email) throw new PaiError('SSO_EMAIL_REQUIRED', 'the issuer sent no e-mail address for this user');
    const existing = await repo.userByEmail(id.email);
    if (existing) {
      if (!id.emailVerified)
        throw new PaiError('SSO_EMAIL_TAKEN', `an account with ${id.email} exists and the issuer did not verify it`);
      if (await repo.linkIdentity(existing.id, identity)) [user, outcome] = [existing, 'linked'];
    } else {
      const created = await repo.createUserWithIdentity(
        { id: newId('usr'), email: id.email, name: id.name, passwordHash: UNUSABLE_HASH },
        identity,
        { workspaceId: DEFAULT_WORKSPACE_ID, role: id.role },
      );
      if (created) [user, outcome] = [created, 'created'];
    }
    user ??= await repo.userByIdentity(id.issuer, id.subject);
  }
  if (!user) throw new PaiError('SSO_EMAIL_TAKEN', `the account for ${id.email} was taken meanwhile`);
  const actor = { id: user.id, email: user.email };
  const role = await membershipFor(stores, user.id, id, ip, actor, outcome);
  const token = await accounts.createSession(user.id);
  await audit(stores.audit, {
    action: 'login.sso_succeeded',
    actor,
    ip,
    data: { issuer: id.issuer, outcome, role },
  });
  return { user: { id: user.id, email: user.email, name: user.name }, token, outcome, role };
}

/** Makes the user a member of the default workspace with the identity's role, as the settings say; answers it. */
async function membershipFor(
  stores: AccountStores,
  userId: string,
  id: SsoIdentity,
  ip: string,
  actor: { id: string; email: string },
  outcome: SsoSignIn['outcome'],
): Promise<string> {
  const repo = stores.accounts;
  const current = await repo.roleIn(userId, DEFAULT_WORKSPACE_ID);
  const base = { actor, workspaceId: DEFAULT_WORKSPACE_ID, ip };
  if (outcome === 'created' || !current) {
    if (!current) await repo.addMember(DEFAULT_WORKSPACE_ID, userId, id.role);
    await audit(stores.audit, { ...base, action: 'member.joined', data: { role: id.role, via: 'oidc' } });
    return id.role;
  }
  if (!id.roleFromClaim || current === 'owner' || current === id.role) return current;
  await repo.setRole(DEFAULT_WORKSPACE_ID, userId, id.role);
  await audit(stores.audit, {
    ...base,
    action: 'member.role_changed',
    target: userId,
    data: { from: current, to: id.role, via: 'oidc' },
  });
  return id.role;
}
