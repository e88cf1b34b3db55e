// What CertificateSigningRequests add to the generic strategy (upstream
// pkg/registry/certificates/certificates/strategy.go): the server, not the client, says who asked;
// the main resource changes only metadata; /status cannot approve or deny; /approval writes only
// conditions; and every condition gets its timestamps.
import { formatTime } from '../../../api/meta/v1/primitives.js';
import { CSRConditionTypes, type CertificateSigningRequest } from '../../../api/certificates/v1/certificate-signing-request.js';
import type { StoredObject } from '../../storage/interface.js';
import type { StrategyOverrides } from '../generic/strategy.js';

type CSR = CertificateSigningRequest;
type Condition = NonNullable<NonNullable<CSR['status']>['conditions']>[number];

const asCSR = (o: StoredObject) => o as unknown as CSR;
const isApproval = (c: Condition) => c.type === CSRConditionTypes.approved || c.type === CSRConditionTypes.denied;

/**
 * Upstream populateConditionTimestamps: an unset lastUpdateTime is now; an unset
 * lastTransitionTime is that of the old condition of the same type and status, else now.
 */
function populateConditionTimestamps(csr: CSR, old: CSR): void {
  const now = formatTime(new Date());
  for (const c of csr.status?.conditions ?? []) {
    if (!c.lastUpdateTime) c.lastUpdateTime = now;
    if (!c.lastTransitionTime) {
      const same = (old.status?.conditions ?? []).find((o) => o.type === c.type && o.status === c.status && !!o.lastTransitionTime);
      c.lastTransitionTime = same?.lastTransitionTime ?? now;
    }
  }
}

export const certificateSigningRequestStrategy: StrategyOverrides = {
  prepareForCreate(obj, ctx) {
    const csr = asCSR(obj);
    // Whatever the client claimed, the requester is the authenticated user.
    const spec = { ...(csr.spec ?? {}) };
    delete spec.username;
    delete spec.uid;
    delete spec.groups;
    delete spec.extra;
    const user = ctx.user;
    if (user) {
      if (user.name) spec.username = user.name;
      if (user.uid) spec.uid = user.uid;
      if (user.groups.length > 0) spec.groups = [...user.groups];
      if (Object.keys(user.extra).length > 0) spec.extra = structuredClone(user.extra);
    }
    csr.spec = spec;
    // No pre-approved requests.
    csr.status = {};
  },
  prepareForUpdate(obj, old) {
    // Spec and status are the business of create, /status and /approval.
    const csr = asCSR(obj);
    csr.spec = structuredClone(asCSR(old).spec);
    if (asCSR(old).status === undefined) delete csr.status;
    else csr.status = structuredClone(asCSR(old).status);
  },
  prepareForStatusUpdate(obj, old) {
    // The signer writes the certificate and other conditions, but cannot approve or deny.
    const csr = asCSR(obj);
    const before = asCSR(old);
    const kept = (before.status?.conditions ?? []).filter(isApproval);
    const others = (csr.status?.conditions ?? []).filter((c) => !isApproval(c));
    const conditions = [...kept, ...others];
    csr.status = { ...(csr.status ?? {}) };
    if (conditions.length > 0) csr.status.conditions = structuredClone(conditions);
    else delete csr.status.conditions;
    populateConditionTimestamps(csr, before);
  },
  prepareForSubresourceUpdate: {
    approval(obj, old) {
      populateConditionTimestamps(asCSR(obj), asCSR(old));
    },
  },
};
