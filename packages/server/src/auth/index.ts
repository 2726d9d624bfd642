export { certifiedUserOf, requireCertifiedUser } from './require-certified-user.js';
export {
  type AuthenticatedUser,
  createUserTokenVerifier,
  InvalidUserTokenError,
  type UserAuthConfig,
  type UserTokenVerifier,
} from './user-token-verifier.js';
