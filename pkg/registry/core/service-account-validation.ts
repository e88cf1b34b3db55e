// Rules of ServiceAccount: upstream checks only its metadata, which the generic store does.
import type { ServiceAccount } from '../../../api/core/v1/service-account.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsDNSSubdomain } from '../validation/names.js';

export const serviceAccountValidation: KindValidation<ServiceAccount> = {
  name: nameIsDNSSubdomain,
  validate: () => [],
  validateUpdate: () => [],
};
