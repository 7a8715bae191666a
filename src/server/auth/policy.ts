/** The server's policy is the shared role table (decisions.md section 1), enforced by the guard. */
export { can, permissions, type Action } from '../../shared/permissions.ts';
