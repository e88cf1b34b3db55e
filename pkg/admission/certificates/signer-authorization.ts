// Upstream's IsAuthorizedForSignerName (pkg/apis/certificates): may the user `verb` (approve,
// sign) requests of a signer? Asked first for the signer name itself, then for the wildcard of
// its domain (`example.com/*`), as the resource `signers` of the certificates group.
import type { AuthorizeFunc } from '../interfaces.js';
import type { UserInfo } from '../../runtime/user.js';

export async function isAuthorizedForSignerName(
  authorize: AuthorizeFunc, certificatesGroup: string, user: UserInfo, verb: string, signerName: string,
): Promise<boolean> {
  const ask = (name: string) => authorize(user, { verb, apiGroup: certificatesGroup, resource: 'signers', name }).catch(() => ({ allowed: false }));
  if ((await ask(signerName)).allowed) return true;
  const domain = signerName.split('/')[0] ?? '';
  return (await ask(`${domain}/*`)).allowed;
}
